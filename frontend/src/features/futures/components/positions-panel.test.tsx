import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import type { PositionView } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { ACCOUNT, ASSETS, BTCUSDT, CONFIG, ETHUSDT, LONG, SHORT } from '../test-fixtures'
import { answer, refuse, sentTo, serve } from '../test-server'
import { PositionsPanel, PositionsTable } from './positions-panel'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const CREATE = '/fe-co-api/order/order_create'
const contracts = new Map([
  ['BTCUSDT', BTCUSDT],
  ['ETHUSDT', ETHUSDT],
])

async function renderTable(positions: PositionView[] = [LONG, SHORT], props: Partial<React.ComponentProps<typeof PositionsTable>> = {}) {
  const result = renderWithApp(
    <>
      <PositionsTable positions={positions} contracts={contracts} available={() => '100'} closable={(p) => p.volume} layout="table" {...props} />
      <Toaster />
    </>,
  )
  await screen.findByTestId(positions.length ? 'futures-positions' : 'futures-positions-empty')
  return result
}

const rows = () => screen.getAllByTestId('position-row')
const cell = (row: HTMLElement, id: string) => within(row).getByTestId(id)

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  serve({
    '/fe-co-api/market/ticker': { open: '1', high: '1', low: '1', close: '50100.0', vol: '1', amount: '1', rose: '0' },
    [CREATE]: (b: Record<string, unknown>) => ({ orderId: '1', symbol: b.symbol, side: b.side, type: b.type, status: 'NEW', volume: b.volume, dealVolume: 0 }),
    '/fe-co-api/position/change_position_margin': LONG,
  })
})

afterEach(() => {
  act(() => toaster.remove())
})

describe('PositionsTable', () => {
  it('shows each position: side, size, prices, liquidation, margin ratio, margin, PnL with ROE and the ADL lights', async () => {
    await renderTable()
    expect(screen.getByRole('table', { name: 'Positions' })).toBeTruthy()
    const [long, short] = rows()
    expect(within(long).getByText('Long')).toBeTruthy()
    expect(within(long).getByTestId('position-mode').textContent).toBe('Isolated 20×')
    expect(cell(long, 'position-size').textContent).toBe('10 Cont0.010 BTC')
    expect(cell(long, 'position-entry').textContent).toBe('48,750.0')
    expect(cell(long, 'position-mark').textContent).toBe('50,000.0')
    expect(cell(long, 'position-liquidation').textContent).toBe('46,500.5')
    expect(cell(long, 'position-ratio').textContent).toBe('5.20%')
    expect(within(cell(long, 'position-ratio')).getByText('5.20%').getAttribute('data-level')).toBe('safe')
    expect(within(long).getByTestId('position-pnl-value').textContent).toBe('+12.5000 USDT')
    expect(within(long).getByTestId('position-roe').textContent).toBe('+51.28%')
    expect(within(long).getByTestId('adl-lights').getAttribute('data-level')).toBe('3')
    expect(within(long).getByTestId('adl-lights').querySelectorAll('[data-lit]')).toHaveLength(3)
    expect(within(long).getByText('Auto-deleveraging queue: 3 of 5')).toBeTruthy()

    expect(within(short).getByText('Short')).toBeTruthy()
    expect(within(short).getByTestId('position-mode').textContent).toBe('Cross 20×')
    expect(cell(short, 'position-size').textContent).toBe('4 Cont0.04 ETH')
    // A position without a liquidation price shows a dash; a margin ratio of 85 % is in danger.
    expect(cell(short, 'position-liquidation').textContent).toBe('—')
    expect(within(cell(short, 'position-ratio')).getByText('85.00%').getAttribute('data-level')).toBe('danger')
    expect(within(short).getByTestId('position-pnl-value').textContent).toBe('-4.0000 USDT')
    expect(within(short).getByTestId('position-roe').textContent).toBe('-64.50%')
    expect(within(short).getByTestId('adl-lights').querySelectorAll('[data-lit]')).toHaveLength(0)
    // Only the isolated position's margin can be adjusted.
    expect(within(long).getByRole('button', { name: 'Adjust the margin of the BTCUSDT position' })).toBeTruthy()
    expect(within(short).queryByTestId('position-adjust')).toBeNull()
  })

  it('marks a liquidation price the mark price is close to', async () => {
    await renderTable([{ ...LONG, markPrice: '48000.0', liquidationPrice: '46500.5' }])
    const liq = within(cell(rows()[0], 'position-liquidation')).getByText('46,500.5')
    expect(liq.getAttribute('title')).toBe('The mark price is close to the liquidation price')
  })

  it('closes a position at market after a confirmation: the whole position, on the closing side', async () => {
    await renderTable()
    fireEvent.click(within(rows()[0]).getByRole('button', { name: 'Close the BTCUSDT position at market' }))
    const dialog = await screen.findByTestId('market-close-confirm')
    expect(within(dialog).getByTestId('market-close-body').textContent).toBe('Your long of 10 Cont (≈ 0.010 BTC) will be sold at the best prices in the book now.')
    expect(sentTo(CREATE)).toHaveLength(0)
    fireEvent.click(within(dialog).getByTestId('market-close-confirm-button'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', volume: 10, closePosition: true })
    expect(await screen.findByText('Closing order for BTCUSDT placed')).toBeTruthy()
  })

  it('closes at once when the user turned the confirmation off', async () => {
    await renderTable([SHORT], { confirmClose: false })
    fireEvent.click(screen.getByTestId('position-close-market'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', volume: 4, closePosition: true })
    expect(screen.queryByTestId('market-close-confirm')).toBeNull()
  })

  it('closes with a reduce-only limit order at a price of the user', async () => {
    await renderTable()
    fireEvent.click(within(rows()[0]).getByRole('button', { name: 'Close the BTCUSDT position with a limit order' }))
    const dialog = await screen.findByTestId('limit-close')
    // The last price and the whole position to start with.
    await waitFor(() => expect((within(dialog).getByTestId('limit-close-volume') as HTMLInputElement).value).toBe('10'))
    fireEvent.change(within(dialog).getByTestId('limit-close-price'), { target: { value: '52000' } })
    fireEvent.change(within(dialog).getByTestId('limit-close-volume'), { target: { value: '11' } })
    fireEvent.click(within(dialog).getByTestId('limit-close-confirm'))
    expect((await within(dialog).findByTestId('limit-close-volume-error')).textContent).toBe('A reduce-only order can close at most 10 Cont')
    fireEvent.change(within(dialog).getByTestId('limit-close-volume'), { target: { value: '6' } })
    fireEvent.click(within(dialog).getByTestId('limit-close-confirm'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '52000', volume: 6, timeInForce: 'GTC', reduceOnly: true })
  })

  it("adds margin to an isolated position, and shows the server's refusal to remove it", async () => {
    await renderTable()
    fireEvent.click(screen.getByTestId('position-adjust'))
    let dialog = await screen.findByTestId('adjust-margin')
    expect(within(dialog).getByTestId('adjust-current').textContent).toBe('25.0000 USDT')
    fireEvent.click(within(dialog).getByTestId('adjust-max'))
    expect((within(dialog).getByTestId('adjust-amount') as HTMLInputElement).value).toBe('100.0000')
    fireEvent.change(within(dialog).getByTestId('adjust-amount'), { target: { value: '5' } })
    fireEvent.click(within(dialog).getByTestId('adjust-margin-confirm'))
    await waitFor(() => expect(sentTo('/fe-co-api/position/change_position_margin')).toHaveLength(1))
    expect(sentTo('/fe-co-api/position/change_position_margin')[0]).toMatchObject({ symbol: 'BTCUSDT', amount: '5', type: 1 })
    await waitFor(() => expect(screen.queryByTestId('adjust-margin')).toBeNull())

    answer({ '/fe-co-api/position/change_position_margin': refuse('20320', 'The position needs that margin') })
    fireEvent.click(screen.getByTestId('position-adjust'))
    dialog = await screen.findByTestId('adjust-margin')
    fireEvent.click(within(dialog).getByTestId('adjust-remove'))
    fireEvent.change(within(dialog).getByTestId('adjust-amount'), { target: { value: '30' } })
    fireEvent.click(within(dialog).getByTestId('adjust-margin-confirm'))
    // More than the position's margin is caught here.
    expect((await within(dialog).findByTestId('adjust-amount-error')).textContent).toBe('That is more margin than the position has')
    fireEvent.change(within(dialog).getByTestId('adjust-amount'), { target: { value: '20' } })
    fireEvent.click(within(dialog).getByTestId('adjust-margin-confirm'))
    expect(await screen.findByText('The position needs that margin')).toBeTruthy()
    expect(sentTo('/fe-co-api/position/change_position_margin').at(-1)).toMatchObject({ amount: '20', type: 2 })
    // The dialog stays for another try.
    expect(screen.getByTestId('adjust-margin')).toBeTruthy()
  })

  it('says when there is no position', async () => {
    await renderTable([])
    expect(screen.getByTestId('futures-positions-empty').textContent).toBe('You have no open positions')
  })
})

describe('PositionsPanel', () => {
  it('lists every contract\'s positions from the account, narrows them to the page\'s contract, and closes all after a confirmation', async () => {
    serve({
      '/fe-co-api/position/get_assets_list': ASSETS,
      '/fe-co-api/order/current_order_list': { count: 0, orderList: [] },
      '/fe-co-api/user/get_user_config': CONFIG,
      '/fe-co-api/order/close_all_position': { orders: [] },
    })
    renderWithApp(<PositionsPanel contract={BTCUSDT} contracts={contracts} />)
    await waitFor(() => expect(screen.getByTestId('futures-tab-positions').textContent).toBe('Positions (2)'))
    fireEvent.click(screen.getByRole('checkbox', { name: 'BTCUSDT only' }))
    await waitFor(() => expect(screen.getByTestId('futures-tab-positions').textContent).toBe('Positions (1)'))
    fireEvent.click(screen.getByTestId('futures-close-all'))
    const dialog = await screen.findByTestId('close-all-confirm')
    expect(within(dialog).getByText('All 2 of your positions, on every contract, will be closed at market now.')).toBeTruthy()
    fireEvent.click(within(dialog).getByTestId('close-all-confirm-button'))
    await waitFor(() => expect(sentTo('/fe-co-api/order/close_all_position')).toHaveLength(1))
    expect(sentTo('/fe-co-api/order/close_all_position')[0].symbol).toBeUndefined()
    expect(ACCOUNT.coin).toBe('USDT')
  })

  it("counts the trigger orders in their tab, and shows each position's TP/SL from them", async () => {
    const tp = {
      triggerId: '5',
      symbol: 'BTCUSDT',
      side: '',
      type: 'MARKET',
      price: '',
      volume: 0,
      triggerPrice: '55000.0',
      triggerBy: 'MARK',
      direction: 'RISE',
      closePosition: true,
      reduceOnly: true,
      status: 'NOT_TRIGGERED',
      reason: '',
      ctime: 1,
      mtime: 1,
    }
    serve({
      '/fe-co-api/position/get_assets_list': ASSETS,
      '/fe-co-api/order/current_order_list': { count: 0, orderList: [] },
      '/fe-co-api/order/trigger_order_list': { count: 2, triggerList: [tp, { ...tp, triggerId: '6', symbol: 'ETHUSDT', closePosition: false, volume: 2, side: 'SELL' }] },
      '/fe-co-api/user/get_user_config': CONFIG,
    })
    renderWithApp(<PositionsPanel contract={BTCUSDT} contracts={contracts} />)
    await waitFor(() => expect(screen.getByTestId('futures-tab-triggers').textContent).toBe('Trigger orders (2)'))
    const [long] = await screen.findAllByTestId('position-row')
    await waitFor(() => expect(within(long).getByTestId('position-tp').textContent).toBe('TP 55,000.0'))
    fireEvent.click(screen.getByRole('checkbox', { name: 'BTCUSDT only' }))
    await waitFor(() => expect(screen.getByTestId('futures-tab-triggers').textContent).toBe('Trigger orders (1)'))
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Positions (1)',
      'Open orders (0)',
      'Trigger orders (1)',
      'Order history',
      'Trade history',
      'Position history',
    ])
  })
})
