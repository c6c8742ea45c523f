import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import type { TriggerOrder } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { ACCOUNT, BTC_TIERS, BTCUSDT, CONFIG, ETHUSDT, HEDGE_CONFIG, HEDGE_LONG, HEDGE_SHORT, MARKET, openOrder, positionTrigger } from '../test-fixtures'
import { answer, POSITION_MODE, positionModeRoute, sentTo, serve } from '../test-server'
import { FuturesOrderForm } from './order-form'
import { OpenOrdersList } from './order-lists'
import { PositionsTable } from './positions-panel'
import { TriggerOrdersList } from './trigger-lists'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const CONFIG_PATH = '/fe-co-api/user/get_user_config'
const CREATE = '/fe-co-api/order/order_create'
const TRIGGER = '/fe-co-api/order/condition_create'
const MARGIN = '/fe-co-api/position/change_position_margin'
const contracts = new Map([
  ['BTCUSDT', BTCUSDT],
  ['ETHUSDT', ETHUSDT],
])

/** A limit order closing 3 of the hedge long's 10 contracts, already open. */
const CLOSING_LONG = openOrder({ orderId: '7001', side: 'SELL', positionSide: 'LONG', price: '52000.0', volume: 3 })

function placed(body: Record<string, unknown>) {
  return openOrder({ orderId: '9001', side: body.side as 'BUY' | 'SELL', type: body.type as 'LIMIT', volume: Number(body.volume), positionSide: (body.positionSide as 'LONG') ?? 'BOTH' })
}

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  serve({
    [CONFIG_PATH]: HEDGE_CONFIG,
    '/fe-co-api/position/get_assets_list': { accountList: [ACCOUNT], positionList: [HEDGE_LONG, HEDGE_SHORT] },
    '/fe-co-api/order/current_order_list': { count: 1, orderList: [CLOSING_LONG] },
    '/fe-co-api/order/trigger_order_list': { count: 0, triggerList: [] },
    '/fe-co-api/common/get_ladder_info': BTC_TIERS,
    '/fe-co-api/market/ticker': { open: '49000', high: '51000', low: '48000', close: '50000.0', vol: '12.5', amount: '625000', rose: '0.0204' },
    '/fe-co-api/common/public_market_info': MARKET,
    [CREATE]: placed,
    [TRIGGER]: (b: Record<string, unknown>) => ({ triggerId: String(b.triggerPrice), symbol: b.symbol, status: 'NOT_TRIGGERED' }),
    [MARGIN]: HEDGE_SHORT,
    [POSITION_MODE]: positionModeRoute(CONFIG),
  })
})

afterEach(() => {
  act(() => toaster.remove())
})

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement
const type = (id: string, value: string) => fireEvent.change(input(id), { target: { value } })

async function renderForm() {
  renderWithApp(
    <>
      <FuturesOrderForm contract={BTCUSDT} />
      <Toaster />
    </>,
  )
  await waitFor(() => expect(screen.getByTestId('futures-available').textContent).toBe('100.0000 USDT'))
}

describe('position mode dialog', () => {
  it('switches to hedge mode through position_model_edit and reads the settings again', async () => {
    answer({ [CONFIG_PATH]: () => ({ ...CONFIG, positionMode: sentTo(POSITION_MODE).length > 0 ? 2 : 1 }) })
    await renderForm()
    const button = await screen.findByRole('button', { name: 'Position mode: One-way. Change' })
    expect(screen.queryByTestId('futures-intent')).toBeNull()
    fireEvent.click(button)
    const dialog = await screen.findByTestId('position-mode-dialog')
    const group = within(dialog).getByRole('radiogroup', { name: 'Position mode' })
    expect(within(group).getByRole('radio', { name: /One-way/ }).getAttribute('aria-checked')).toBe('true')
    // The keyboard moves the choice.
    fireEvent.keyDown(within(group).getByRole('radio', { name: /One-way/ }), { key: 'ArrowDown' })
    expect(within(group).getByRole('radio', { name: /Hedge/ }).getAttribute('aria-checked')).toBe('true')
    const reads = sentTo(CONFIG_PATH).length
    fireEvent.click(within(dialog).getByTestId('position-mode-confirm'))
    await waitFor(() => expect(sentTo(POSITION_MODE)).toHaveLength(1))
    expect(sentTo(POSITION_MODE)[0]).toMatchObject({ positionMode: 2 })
    expect(await screen.findByText('Position mode is now Hedge')).toBeTruthy()
    await waitFor(() => expect(screen.queryByTestId('position-mode-dialog')).toBeNull())
    await waitFor(() => expect(sentTo(CONFIG_PATH).length).toBeGreaterThan(reads))
    expect(screen.getByTestId('futures-position-mode').textContent).toBe('Hedge')
    // The form now opens and closes each side.
    expect(await screen.findByTestId('futures-intent')).toBeTruthy()
  })

  it("shows the server's refusal while something is open, and stays open", async () => {
    answer({ [CONFIG_PATH]: CONFIG, [POSITION_MODE]: positionModeRoute(CONFIG, true) })
    await renderForm()
    await waitFor(() => expect((screen.getByTestId('futures-position-mode') as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(screen.getByTestId('futures-position-mode'))
    const dialog = await screen.findByTestId('position-mode-dialog')
    fireEvent.click(within(dialog).getByTestId('position-mode-hedge'))
    fireEvent.click(within(dialog).getByTestId('position-mode-confirm'))
    await waitFor(() => expect(sentTo(POSITION_MODE)).toHaveLength(1))
    expect(await screen.findByText('The position mode cannot change while you have positions, open orders or trigger orders')).toBeTruthy()
    expect(screen.getByTestId('toast-error')).toBeTruthy()
    expect(screen.getByTestId('position-mode-dialog')).toBeTruthy()
    expect(screen.getByTestId('futures-position-mode').textContent).toBe('One-way')
  })
})

describe('hedge-mode order form', () => {
  it('opens a long and a short with their positionSide, without reduce-only', async () => {
    await renderForm()
    await screen.findByTestId('futures-intent')
    expect(screen.getByTestId('futures-intent-open').getAttribute('aria-pressed')).toBe('true')
    expect(screen.queryByRole('checkbox', { name: 'Reduce only' })).toBeNull()
    expect(screen.getByTestId('futures-submit-buy').textContent).toBe('Buy / Long')
    expect(screen.getByTestId('futures-submit-sell').textContent).toBe('Sell / Short')
    type('futures-price', '50000')
    type('futures-volume', '2')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ side: 'BUY', positionSide: 'LONG', volume: 2 })
    expect(sentTo(CREATE)[0]).not.toHaveProperty('reduceOnly')
    await waitFor(() => expect(input('futures-volume').value).toBe(''))
    type('futures-volume', '3')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(2))
    expect(sentTo(CREATE)[1]).toMatchObject({ side: 'SELL', positionSide: 'SHORT', volume: 3 })
    expect(sentTo(CREATE)[1]).not.toHaveProperty('reduceOnly')
  })

  it("closes each side, capped at that side's position less its open closing orders", async () => {
    await renderForm()
    fireEvent.click(await screen.findByTestId('futures-intent-close'))
    expect(screen.getByTestId('futures-intent-close').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByTestId('futures-submit-sell').textContent).toBe('Close long')
    expect(screen.getByTestId('futures-submit-buy').textContent).toBe('Close short')
    // The long of 10 has 3 in an open closing order: 7 are left to close; the short of 6 has none.
    await waitFor(() => expect(screen.getByTestId('futures-max-sell').textContent).toBe('Max 7 Cont'))
    expect(screen.getByTestId('futures-max-buy').textContent).toBe('Max 6 Cont')
    // A closing order pays only its fee, and takes no TP/SL.
    expect((screen.getByRole('checkbox', { name: 'TP/SL' }) as HTMLInputElement).disabled).toBe(true)
    type('futures-price', '51000')
    type('futures-volume', '8')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    expect((await screen.findByTestId('futures-volume-error')).textContent).toBe('This can close at most 7 Cont: your open closing orders cover the rest of the position')
    expect(sentTo(CREATE)).toHaveLength(0)
    type('futures-volume', '7')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ side: 'SELL', positionSide: 'LONG', type: 'LIMIT', price: '51000', volume: 7 })
    expect(sentTo(CREATE)[0]).not.toHaveProperty('reduceOnly')
    await waitFor(() => expect(input('futures-volume').value).toBe(''))
    type('futures-volume', '7')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    expect((await screen.findByTestId('futures-volume-error')).textContent).toContain('at most 6 Cont')
    type('futures-volume', '6')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(2))
    expect(sentTo(CREATE)[1]).toMatchObject({ side: 'BUY', positionSide: 'SHORT', volume: 6 })
  })

  it("sends a new order's take-profit with the order's positionSide, closing that side", async () => {
    await renderForm()
    await screen.findByTestId('futures-intent')
    type('futures-price', '49000')
    type('futures-volume', '2')
    fireEvent.click(screen.getByRole('checkbox', { name: 'TP/SL' }))
    await screen.findByTestId('futures-tpsl-fields')
    type('futures-tp', '52000')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    await waitFor(() => expect(sentTo(TRIGGER)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ side: 'BUY', positionSide: 'LONG' })
    expect(sentTo(TRIGGER)[0]).toMatchObject({ symbol: 'BTCUSDT', triggerPrice: '52000', closePosition: true, side: 'SELL', positionSide: 'LONG' })
  })
})

describe('hedge-mode positions and lists', () => {
  async function renderTable() {
    renderWithApp(
      <>
        <PositionsTable positions={[HEDGE_LONG, HEDGE_SHORT]} contracts={contracts} available={() => '100'} closable={(p) => p.volume} layout="table" confirmClose={false} />
        <Toaster />
      </>,
    )
    await screen.findByTestId('futures-positions')
  }

  it('shows a long and a short of one contract as two rows, each closing and adjusting its own side', async () => {
    await renderTable()
    const rows = screen.getAllByTestId('position-row')
    expect(rows).toHaveLength(2)
    expect(rows.map((r) => r.getAttribute('data-key'))).toEqual(['BTCUSDT:LONG', 'BTCUSDT:SHORT'])
    const [long, short] = rows
    expect(within(long).getByTestId('position-side').textContent).toBe('Hedge long')
    expect(within(short).getByTestId('position-side').textContent).toBe('Hedge short')
    fireEvent.click(within(short).getByRole('button', { name: 'Close the BTCUSDT Short position at market' }))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', volume: 6, closePosition: true, positionSide: 'SHORT' })
    fireEvent.click(within(long).getByRole('button', { name: 'Close the BTCUSDT Long position at market' }))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(2))
    expect(sentTo(CREATE)[1]).toMatchObject({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', volume: 10, closePosition: true, positionSide: 'LONG' })

    fireEvent.click(within(short).getByRole('button', { name: 'Adjust the margin of the BTCUSDT Short position' }))
    const dialog = await screen.findByTestId('adjust-margin')
    fireEvent.change(within(dialog).getByTestId('adjust-amount'), { target: { value: '5' } })
    fireEvent.click(within(dialog).getByTestId('adjust-margin-confirm'))
    await waitFor(() => expect(sentTo(MARGIN)).toHaveLength(1))
    expect(sentTo(MARGIN)[0]).toMatchObject({ symbol: 'BTCUSDT', amount: '5', type: 1, positionSide: 'SHORT' })
  })

  it("closes a row with a limit order and sets its TP/SL with the row's positionSide", async () => {
    await renderTable()
    const [, short] = screen.getAllByTestId('position-row')
    fireEvent.click(within(short).getByRole('button', { name: 'Close the BTCUSDT Short position with a limit order' }))
    let dialog = await screen.findByTestId('limit-close')
    await waitFor(() => expect((within(dialog).getByTestId('limit-close-volume') as HTMLInputElement).value).toBe('6'))
    fireEvent.change(within(dialog).getByTestId('limit-close-price'), { target: { value: '49000' } })
    fireEvent.click(within(dialog).getByTestId('limit-close-confirm'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ side: 'BUY', type: 'LIMIT', price: '49000', volume: 6, positionSide: 'SHORT' })
    expect(sentTo(CREATE)[0]).not.toHaveProperty('reduceOnly')
    await waitFor(() => expect(screen.queryByTestId('limit-close')).toBeNull())

    fireEvent.click(within(short).getByRole('button', { name: 'Set the take-profit and stop-loss of the BTCUSDT Short position' }))
    dialog = await screen.findByTestId('tpsl-dialog')
    // The short's mark is 50,000: its stop-loss is above.
    fireEvent.change(within(dialog).getByTestId('tpsl-sl'), { target: { value: '52000' } })
    fireEvent.click(within(dialog).getByTestId('tpsl-dialog-confirm'))
    await waitFor(() => expect(sentTo(TRIGGER)).toHaveLength(1))
    expect(sentTo(TRIGGER)[0]).toMatchObject({ symbol: 'BTCUSDT', triggerPrice: '52000', closePosition: true, side: 'BUY', positionSide: 'SHORT' })
  })

  it('names what each hedge-mode order does in the order lists', async () => {
    answer({
      '/fe-co-api/order/current_order_list': {
        count: 4,
        orderList: [
          openOrder({ orderId: '1', side: 'BUY', positionSide: 'LONG' }),
          openOrder({ orderId: '2', side: 'SELL', positionSide: 'LONG' }),
          openOrder({ orderId: '3', side: 'SELL', positionSide: 'SHORT' }),
          openOrder({ orderId: '4', side: 'BUY', positionSide: 'SHORT' }),
          openOrder({ orderId: '5', side: 'BUY', positionSide: 'BOTH' }),
        ],
      },
    })
    renderWithApp(<OpenOrdersList contracts={contracts} layout="table" />)
    const rows = await screen.findAllByTestId('futures-order-row')
    expect(rows.map((r) => within(r).getByText(/^(Open|Close) (long|short)$|^(Buy|Sell)$/).textContent)).toEqual(['Open long', 'Close long', 'Open short', 'Close short', 'Buy'])
  })

  it("names a hedge-mode TP/SL's side in the trigger orders", async () => {
    const sl: TriggerOrder = positionTrigger({ triggerId: '11', side: 'SELL', triggerPrice: '47000.0', direction: 'FALL', positionSide: 'LONG' })
    answer({ '/fe-co-api/order/trigger_order_list': { count: 1, triggerList: [sl] } })
    renderWithApp(<TriggerOrdersList contracts={contracts} layout="table" />)
    const [row] = await screen.findAllByTestId('futures-trigger-row')
    expect(within(row).getByTestId('order-hedge-side').textContent).toBe('Close long')
    expect(within(row).getByTestId('trigger-close-badge')).toBeTruthy()
  })
})
