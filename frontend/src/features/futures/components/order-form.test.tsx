import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import { futuresTexts } from '../lib/texts'
import { ACCOUNT, BTC_TIERS, BTCUSDT, CONFIG, LONG, MARKET } from '../test-fixtures'
import { answer, refuse, sentTo, serve } from '../test-server'
import { FuturesOrderForm, outcomeKey } from './order-form'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
const session = vi.hoisted(() => ({ signedIn: true }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () =>
    session.signedIn
      ? { user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }
      : { user: null, isSignedIn: false, isLoading: false, refetch: vi.fn() },
}))

const CREATE = '/fe-co-api/order/order_create'

function placed(body: Record<string, unknown>) {
  return { orderId: '9001', clientOid: body.clientOid, symbol: body.symbol, side: body.side, type: body.type, timeInForce: body.timeInForce ?? '', price: body.price ?? '', volume: body.volume, dealVolume: 0, avgPrice: '', fee: '0', realizedPnl: '0', reduceOnly: !!body.reduceOnly, closePosition: false, liquidation: false, status: 'NEW', reason: '', ctime: 1, mtime: 1 }
}

function routes(over: Record<string, unknown> = {}) {
  return {
    '/fe-co-api/user/get_user_config': CONFIG,
    '/fe-co-api/position/get_assets_list': { accountList: [ACCOUNT], positionList: [] },
    '/fe-co-api/order/current_order_list': { count: 0, orderList: [] },
    '/fe-co-api/common/get_ladder_info': BTC_TIERS,
    '/fe-co-api/market/ticker': { open: '49000', high: '51000', low: '48000', close: '50000.0', vol: '12.5', amount: '625000', rose: '0.0204' },
    '/fe-co-api/common/public_market_info': MARKET,
    [CREATE]: placed,
    ...over,
  }
}

const input = (id: string) => screen.getByTestId(id) as HTMLInputElement
const type = (id: string, value: string) => fireEvent.change(input(id), { target: { value } })

async function renderForm(props: Partial<React.ComponentProps<typeof FuturesOrderForm>> = {}) {
  const result = renderWithApp(
    <>
      <FuturesOrderForm contract={BTCUSDT} {...props} />
      <Toaster />
    </>,
  )
  if (session.signedIn) await waitFor(() => expect(screen.getByTestId('futures-available').textContent).toBe('100.0000 USDT'))
  return result
}

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  session.signedIn = true
  serve(routes())
})

afterEach(() => {
  act(() => toaster.remove())
})

describe('FuturesOrderForm', () => {
  it('shows the cost and maximum of each side and places a limit order in whole contracts', async () => {
    await renderForm()
    await waitFor(() => expect(screen.getByTestId('futures-leverage').textContent).toBe('20×'))
    expect(screen.getByTestId('futures-margin-mode').textContent).toBe('Cross')
    type('futures-price', '50000')
    type('futures-volume', '10')
    expect(screen.getByTestId('futures-volume-base').textContent).toBe('≈ 0.010 BTC')
    // 10 × 0.001 × 50,000 = 500 USDT: 25 of margin at 20× and 0.25 of taker fee; 100 USDT opens 39 at most.
    expect(screen.getByTestId('futures-cost-buy').textContent).toBe('Cost 25.2500 USDT')
    expect(screen.getByTestId('futures-max-buy').textContent).toBe('Max 39 Cont')
    expect(screen.getByTestId('futures-max-sell').textContent).toBe('Max 39 Cont')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '50000', volume: 10, timeInForce: 'GTC', reduceOnly: false })
    expect(typeof sentTo(CREATE)[0].clientOid).toBe('string')
    expect(await screen.findByText('Order placed')).toBeTruthy()
    await waitFor(() => expect(input('futures-volume').value).toBe(''))
  })

  it('says what is wrong before anything is sent: a missing price and size', async () => {
    await renderForm()
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    expect((await screen.findByTestId('futures-price-error')).textContent).toBe('Enter a price')
    expect(screen.getByTestId('futures-volume-error').textContent).toBe('Enter the size in contracts')
    expect(sentTo(CREATE)).toHaveLength(0)
  })

  it('keeps the size in whole contracts and the price on the tick', async () => {
    // A contract on a 0.5 grid with a minimum of 5 contracts.
    await renderForm({ contract: { ...BTCUSDT, priceTick: '0.5', minQty: 5 } })
    type('futures-price', '50000.3')
    type('futures-volume', '1.5')
    // The field keeps no decimals of a contract and says why.
    expect(input('futures-volume').value).toBe('1.')
    expect(screen.getByTestId('futures-volume-notice').textContent).toBe('Whole contracts only')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    expect((await screen.findByTestId('futures-price-error')).textContent).toBe('The price must be a multiple of 0.5')
    expect(screen.getByTestId('futures-volume-error').textContent).toBe('The size must be a whole number of contracts')
    type('futures-volume', '3')
    expect(screen.getByTestId('futures-volume-error').textContent).toBe('The minimum size is 5 Cont')
    type('futures-price', '50000.5')
    type('futures-volume', '5')
    expect(screen.queryByTestId('futures-price-error')).toBeNull()
    expect(screen.queryByTestId('futures-volume-error')).toBeNull()
    expect(sentTo(CREATE)).toHaveLength(0)
  })

  it('refuses an order whose cost is more than is available', async () => {
    await renderForm()
    type('futures-price', '50000')
    type('futures-volume', '40')
    expect(screen.getByTestId('futures-cost-buy').textContent).toBe('Cost 101.0000 USDT')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    expect((await screen.findByTestId('futures-volume-error')).textContent).toBe("Not enough available USDT for this order's cost")
    expect(sentTo(CREATE)).toHaveLength(0)
  })

  it("shows the server's message when it refuses the order, and keeps what was typed", async () => {
    answer({ [CREATE]: refuse('20310', 'Leverage too high for this position size') })
    await renderForm()
    type('futures-price', '50000')
    type('futures-volume', '10')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    expect(await screen.findByText('Leverage too high for this position size')).toBeTruthy()
    expect(screen.getByTestId('toast-error')).toBeTruthy()
    expect(input('futures-volume').value).toBe('10')
  })

  it('fills each side with its share of its own maximum from the slider', async () => {
    await renderForm()
    type('futures-price', '50000')
    fireEvent.click(screen.getByTestId('futures-percent-25'))
    expect(screen.getByTestId('futures-volume-percent').textContent).toBe('25% of the maximum: Buy 9 Cont, Sell 9 Cont')
    expect(screen.getByTestId('futures-percent-value').textContent).toBe('25%')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ side: 'SELL', volume: 9 })
  })

  it('sends a market order without a price, valued at the book for its cost', async () => {
    await renderForm({ best: { bid: '49990', ask: '50010' } })
    fireEvent.click(screen.getByTestId('futures-type-market'))
    expect(screen.queryByTestId('futures-price')).toBeNull()
    type('futures-volume', '2')
    // 2 × 0.001 × 50,010 = 100.02: 5.001 of margin and 0.05001 of fee.
    expect(screen.getByTestId('futures-cost-buy').textContent).toBe('Cost 5.0510 USDT')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    const body = sentTo(CREATE)[0]
    expect(body).toMatchObject({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', volume: 2, reduceOnly: false })
    expect(body.price).toBeUndefined()
    expect(body.timeInForce).toBeUndefined()
  })

  it('sends the chosen time in force and reduce-only, within what the position can close', async () => {
    answer({ '/fe-co-api/position/get_assets_list': { accountList: [ACCOUNT], positionList: [LONG] } })
    await renderForm()
    fireEvent.change(screen.getByTestId('futures-tif'), { target: { value: 'POST_ONLY' } })
    fireEvent.click(screen.getByRole('checkbox', { name: 'Reduce only' }))
    type('futures-price', '51000')
    type('futures-volume', '12')
    // A long of 10 can be reduced by 10 at most.
    await waitFor(() => expect(screen.getByTestId('futures-max-sell').textContent).toBe('Max 10 Cont'))
    expect(screen.getByTestId('futures-max-buy').textContent).toBe('Max 0 Cont')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    expect((await screen.findByTestId('futures-volume-error')).textContent).toBe('A reduce-only order can close at most 10 Cont')
    type('futures-volume', '10')
    fireEvent.click(screen.getByTestId('futures-submit-sell'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    expect(sentTo(CREATE)[0]).toMatchObject({ side: 'SELL', type: 'LIMIT', price: '51000', volume: 10, timeInForce: 'POST_ONLY', reduceOnly: true })
  })

  it('asks before sending while confirmations are on, and "Don\'t ask again" turns them off on the server', async () => {
    answer({ '/fe-co-api/user/get_user_config': { ...CONFIG, pageConfig: { closeConfirm: '1' } }, '/fe-co-api/user/edit_user_page_config': {} })
    await renderForm()
    type('futures-price', '50000')
    type('futures-volume', '10')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    const dialog = await screen.findByTestId('futures-confirm')
    expect(within(dialog).getByText('BTCUSDT · Buy / Long · Limit')).toBeTruthy()
    expect(within(dialog).getByTestId('futures-confirm-size').textContent).toBe('10 Cont ≈ 0.010 BTC')
    expect(within(dialog).getByTestId('futures-confirm-cost').textContent).toBe('25.2500 USDT')
    expect(sentTo(CREATE)).toHaveLength(0)
    fireEvent.click(within(dialog).getByRole('checkbox', { name: "Don't ask again" }))
    await waitFor(() => expect(screen.getByTestId('futures-confirm-dont-ask').getAttribute('data-state')).toBe('checked'))
    fireEvent.click(screen.getByTestId('futures-confirm-send'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    await waitFor(() => expect(sentTo('/fe-co-api/user/edit_user_page_config')).toHaveLength(1))
    expect(sentTo('/fe-co-api/user/edit_user_page_config')[0].pageConfig).toEqual({ closeConfirm: '1', orderConfirm: '0' })
  })

  it('offers to open the futures account when the user has none', async () => {
    let opened = false
    answer({
      '/fe-co-api/user/get_user_config': () => ({ ...CONFIG, openContract: opened }),
      '/fe-co-api/user/open_contract': () => {
        opened = true
        return { ...CONFIG, openContract: true }
      },
    })
    await renderForm()
    fireEvent.click(await screen.findByTestId('futures-open-account-button'))
    await waitFor(() => expect(screen.queryByTestId('futures-open-account')).toBeNull())
    expect(sentTo('/fe-co-api/user/open_contract')).toHaveLength(1)
  })

  it('shows visitors the form with a sign-in prompt instead of the buttons, and asks nothing private', async () => {
    session.signedIn = false
    await renderForm()
    const prompt = await screen.findByTestId('futures-signin')
    expect(within(prompt).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/auth/login?redirect=%2Ffutures%2FBTCUSDT')
    expect(screen.getByTestId('futures-price')).toBeTruthy()
    expect(screen.queryByTestId('futures-submit-buy')).toBeNull()
    expect(sentTo('/fe-co-api/user/get_user_config')).toHaveLength(0)
    expect(sentTo('/fe-co-api/position/get_assets_list')).toHaveLength(0)
  })

  it('shows one side with a switch when the phone opens it for that side, and values the maximum at the last price before a price is typed', async () => {
    await renderForm({ side: 'SELL' })
    expect(screen.queryByTestId('futures-submit-buy')).toBeNull()
    await waitFor(() => expect(screen.getByTestId('futures-max-sell').textContent).toBe('Max 39 Cont'))
    fireEvent.click(screen.getByTestId('futures-side-buy'))
    expect(screen.getByTestId('futures-submit-buy')).toBeTruthy()
    expect(screen.queryByTestId('futures-submit-sell')).toBeNull()
  })

  it('sets a take-profit and a stop-loss closing the position, tied to the order placed, each checked for the side first', async () => {
    const TRIGGER = '/fe-co-api/order/condition_create'
    answer({ [TRIGGER]: (b: Record<string, unknown>) => ({ triggerId: String(b.triggerPrice), symbol: b.symbol, status: 'NOT_TRIGGERED' }) })
    await renderForm()
    type('futures-price', '49000')
    type('futures-volume', '10')
    // Not with reduce-only: a reduce-only order only closes.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Reduce only' }))
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'TP/SL' }) as HTMLInputElement).disabled).toBe(true))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Reduce only' }))
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'TP/SL' }) as HTMLInputElement).disabled).toBe(false))
    fireEvent.click(screen.getByRole('checkbox', { name: 'TP/SL' }))
    const fields = await screen.findByTestId('futures-tpsl-fields')
    // The mark is 50,010: a buy's take-profit must be above it, its stop-loss below it and below the order's price.
    type('futures-tp', '50000')
    type('futures-sl', '49500')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    expect((await within(fields).findByTestId('futures-tp-error')).textContent).toBe('Must be above the mark price (50,010.0)')
    expect(within(fields).getByTestId('futures-sl-error').textContent).toBe('Must be below the order price (49,000.0)')
    expect(sentTo(CREATE)).toHaveLength(0)
    type('futures-tp', '52000')
    type('futures-sl', '47000')
    // Each price shows what the position would make there: 10 Cont of 0.001 BTC bought at 49,000.
    expect(within(fields).getByTestId('futures-tp-pnl').textContent).toBe('+30.0000 USDT')
    expect(within(fields).getByTestId('futures-sl-pnl').textContent).toBe('-20.0000 USDT')
    fireEvent.click(screen.getByTestId('futures-tpsl-by-last'))
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    await waitFor(() => expect(sentTo(TRIGGER)).toHaveLength(2))
    expect(sentTo(CREATE)).toHaveLength(1)
    // Both tied to the order placed: armed by its fill, cancelled if it ends unfilled.
    expect(sentTo(TRIGGER)[0]).toMatchObject({ symbol: 'BTCUSDT', triggerPrice: '52000', triggerBy: 'LAST', closePosition: true, parentOrderId: '9001' })
    expect(sentTo(TRIGGER)[1]).toMatchObject({ symbol: 'BTCUSDT', triggerPrice: '47000', triggerBy: 'LAST', closePosition: true, parentOrderId: '9001' })
    expect(sentTo(TRIGGER)[0].side).toBeUndefined()
    expect(await screen.findByText('Take-profit and stop-loss set')).toBeTruthy()
    await waitFor(() => expect(input('futures-tp').value).toBe(''))
  })

  it("keeps the order when the server refuses its stop-loss, with the server's words", async () => {
    const TRIGGER = '/fe-co-api/order/condition_create'
    answer({ [TRIGGER]: refuse('18021', 'The price is already at the trigger price') })
    await renderForm()
    type('futures-price', '49000')
    type('futures-volume', '2')
    fireEvent.click(screen.getByRole('checkbox', { name: 'TP/SL' }))
    await screen.findByTestId('futures-tpsl-fields')
    type('futures-sl', '48000')
    fireEvent.click(screen.getByTestId('futures-submit-buy'))
    await waitFor(() => expect(sentTo(TRIGGER)).toHaveLength(1))
    expect(await screen.findByText('The price is already at the trigger price')).toBeTruthy()
    expect(await screen.findByText('Order placed')).toBeTruthy()
    expect(screen.queryByText('Take-profit and stop-loss set')).toBeNull()
  })

  it('labels its controls for assistive technology', async () => {
    await renderForm()
    expect(screen.getByRole('textbox', { name: 'Price' })).toBe(input('futures-price'))
    expect(screen.getByRole('textbox', { name: 'Size' })).toBe(input('futures-volume'))
    expect(screen.getByRole('combobox', { name: 'Time in force' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Leverage: 20×. Change' })).toBeTruthy()
    expect(screen.getByRole('slider', { name: 'Share of the maximum' })).toBeTruthy()
    expect(screen.getByTestId('futures-type-limit').getAttribute('aria-pressed')).toBe('true')
  })
})

describe('outcomeKey', () => {
  it('explains an order the engine ended at once without a fill', () => {
    expect(outcomeKey({ status: 'CANCELED', reason: 'post_only', dealVolume: 0 })).toBe('form.outcome.post_only')
    expect(outcomeKey({ status: 'REJECTED', reason: 'weird', dealVolume: 0 })).toBe('form.outcome.rejected')
    expect(outcomeKey({ status: 'CANCELED', reason: 'fok', dealVolume: 2 })).toBeUndefined()
    expect(outcomeKey({ status: 'NEW', reason: '', dealVolume: 0 })).toBeUndefined()
    expect(outcomeKey(undefined)).toBeUndefined()
  })
})
