import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { tickerQuery, type OrderView, type TradeView } from '../api/trade-api'
import { BTC_USDT } from '../test-pair'
import { PANEL_PAGE_SIZE, UserOrders } from './user-orders'
import { screenWidth } from '@/test/screen-width'

const apiData = vi.hoisted(() => vi.fn())
const notifySuccess = vi.hoisted(() => vi.fn())
const notifyError = vi.hoisted(() => vi.fn())
vi.mock('@/lib/notify', async (orig) => ({ ...(await orig<typeof import('@/lib/notify')>()), notifySuccess, notifyError }))
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const DAY = 86_400_000
const pair = BTC_USDT

const order = (i: number, status: number): OrderView => ({
  order_id: String(i),
  symbol: 'btcusdt',
  side: 'BUY',
  type: 'LIMIT',
  price: '25000',
  volume: '0.001',
  deal_volume: status === 3 ? '0.001' : '0',
  deal_money: '0',
  avg_price: '0',
  status,
  status_text: '',
  created_at: Date.now(),
})

const trade = (i: number): TradeView => ({
  trade_id: `t${i}`,
  order_id: String(i),
  symbol: 'btcusdt',
  side: 'SELL',
  role: 'MAKER',
  price: '26000',
  volume: '0.002',
  deal_money: '52',
  fee: '0.052',
  fee_coin: 'USDT',
  created_at: Date.now(),
})

const page = <T,>(all: T[], body: Record<string, unknown>) => all.slice((Number(body.page) - 1) * Number(body.pageSize), Number(body.page) * Number(body.pageSize))

const calls = (path: string) => apiData.mock.calls.filter((c) => c[0] === path).map((c) => c[1] as Record<string, unknown>)

let openList: OrderView[] = []

describe('UserOrders on the trade page', () => {
  beforeEach(() => {
    openList = Array.from({ length: 13 }, (_, i) => order(i, 1))
    notifySuccess.mockReset()
    notifyError.mockReset()
    apiData.mockReset()
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path.endsWith('/order/list/new')) return { count: openList.length, orderList: page(openList, body) }
      if (path.endsWith('/order/entrust_history')) {
        // The newest: a market buy cut short after a part filled.
        const all = [{ ...order(99, 4), deal_volume: '0.0004' }, ...Array.from({ length: 24 }, (_, i) => order(100 + i, 3))]
        return { count: all.length, orderList: page(all, body) }
      }
      if (path.endsWith('/order/trade_info_search')) {
        // Fills whose totals have more places than shown: they round half up, as on the orders pages.
        const all = [...Array.from({ length: 3 }, (_, i) => ({ ...trade(i), role: i === 1 ? 'TAKER' : 'MAKER' })), { ...trade(3), price: '97123.456', volume: '0.000065', deal_money: '6.335' }, { ...trade(4), deal_money: '1145.7051' }]
        return { count: all.length, tradeList: page(all, body) }
      }
      return {}
    })
  })

  it('pages the open orders through the server', async () => {
    renderWithApp(<UserOrders pair={pair} />)
    const list = await screen.findByTestId('open-orders-table')
    expect(within(list).getAllByTestId('order-row')).toHaveLength(PANEL_PAGE_SIZE)
    expect(calls('/fe-ex-api/order/list/new')[0]).toEqual({ symbol: 'btcusdt', page: 1, pageSize: PANEL_PAGE_SIZE })
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(within(screen.getByTestId('open-orders-table')).getAllByTestId('order-row')).toHaveLength(3))
    expect(calls('/fe-ex-api/order/list/new').at(-1)).toMatchObject({ page: 2 })
    // The full orders page is one link away, with this pair chosen.
    expect(screen.getByTestId('orders-view-all').getAttribute('href')).toBe('/order/spot?tab=open&symbol=btcusdt')
  })

  it('searches the order history within the last 180 days, a page at a time, and narrows the range', async () => {
    // The window is taken when the panel renders (to the minute): compare with that moment, not a later one.
    const started = Date.now()
    renderWithApp(<UserOrders pair={pair} />)
    fireEvent.click(await screen.findByTestId('tab-order-history'))
    const list = await screen.findByTestId('order-history-table')
    expect(within(list).getAllByTestId('order-row')).toHaveLength(10)
    expect(within(list).getAllByTestId('order-row')[0].textContent).toContain('Partly filled, cancelled')
    expect(within(list).getAllByTestId('order-row')[1].textContent).toContain('Filled')
    const first = calls('/fe-ex-api/order/entrust_history')[0]
    expect(first).toMatchObject({ symbol: 'btcusdt', page: 1, pageSize: PANEL_PAGE_SIZE })
    expect(first.startTime as number).toBeGreaterThanOrEqual(started - 180 * DAY - 60_000)
    expect(first.startTime as number).toBeLessThanOrEqual(Date.now() - 180 * DAY + 60_000)
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }))
    await waitFor(() => expect(within(screen.getByTestId('order-history-table')).getAllByTestId('order-row')).toHaveLength(5))
    expect(screen.getByTestId('orders-view-all').getAttribute('href')).toBe('/order/spot?tab=history&symbol=btcusdt')

    // A shorter range starts over on page 1 with a later start.
    fireEvent.change(screen.getByTestId('orders-range'), { target: { value: '7' } })
    await waitFor(() => expect(calls('/fe-ex-api/order/entrust_history').at(-1)).toMatchObject({ page: 1 }))
    const last = calls('/fe-ex-api/order/entrust_history').at(-1)!
    expect(last.startTime as number).toBeGreaterThan(Date.now() - 8 * DAY)
  })

  it('lists the trades without a pager when they fit on one page', async () => {
    renderWithApp(<UserOrders pair={pair} />)
    fireEvent.click(await screen.findByTestId('tab-trade-history'))
    const list = await screen.findByTestId('trade-history-table')
    expect(within(list).getAllByTestId('trade-row')).toHaveLength(5)
    expect(screen.queryByTestId('trade-history-pager')).toBeNull()
    const rows = within(list).getAllByTestId('trade-row')
    expect(rows[0].textContent).toContain('0.05200000 USDT')
    // Whether the fill made or took liquidity, as the orders pages show it.
    expect(rows[0].textContent).toContain('Maker')
    expect(rows[1].textContent).toContain('Taker')
    expect(rows[0].textContent).toContain('26,000.00')
    // Totals round half up like every other screen (6.335 -> 6.34, not 6.33) and group thousands.
    expect(rows[3].textContent).toContain('97,123.46')
    expect(rows[3].textContent).toContain('6.34')
    expect(rows[3].textContent).not.toContain('6.33')
    expect(rows[4].textContent).toContain('1,145.71')
  })

  it("shows a stop-limit order's stop under its price, and whether it still waits for it", async () => {
    openList = [
      { ...order(1, 1), type: 'STOP_LIMIT', price: '99000', stop_price: '98000' },
      { ...order(2, 1), type: 'STOP_LIMIT', side: 'SELL', price: '98000', stop_price: '98500' },
      { ...order(3, 1), type: 'MARKET', price: '0', volume: '0', quote_volume: '10000000' },
    ]
    const { queryClient } = renderWithApp(<UserOrders pair={{ ...pair, quotePlaces: 6 }} />)
    // The header keeps the ticker; the panel reads the last price from it (97000: the sell's stop at 98500 is passed).
    queryClient.setQueryData(tickerQuery(pair.symbol).queryKey, { open: '0', high: '0', low: '0', close: '97000', vol: '0', amount: '0', rose: '0' })
    const list = await screen.findByTestId('open-orders-table')
    const [buy, sell, market] = within(list).getAllByTestId('order-row')
    expect(within(buy).getByTestId('order-stop').textContent).toContain('Stop ≥ 98,000.00')
    await waitFor(() => expect(within(buy).getByTestId('order-stop-state').textContent).toBe('Waiting for the stop'))
    expect(within(sell).getByTestId('order-stop').textContent).toContain('Stop ≤ 98,500.00')
    expect(within(sell).getByTestId('order-stop-state').getAttribute('data-state')).toBe('triggered')
    expect(within(market).queryByTestId('order-stop')).toBeNull()
    // A market buy's budget at its coin's places, not the price's.
    expect(market.textContent).toContain('10,000,000.000000 USDT')
  })

  it("asks before cancelling all of the pair's orders, and names the pair when done", async () => {
    renderWithApp(<UserOrders pair={pair} />)
    await screen.findByTestId('open-orders-table')
    fireEvent.click(screen.getByTestId('cancel-all'))
    const dialog = await screen.findByTestId('cancel-all-dialog')
    expect(dialog.textContent).toContain('All 13 open BTC/USDT orders will be cancelled')
    expect(calls('/fe-ex-api/order/cancel_all')).toEqual([])
    // Keeping them closes the dialog and cancels nothing.
    fireEvent.click(within(dialog).getByTestId('cancel-all-keep'))
    await waitFor(() => expect(screen.queryByTestId('cancel-all-dialog')).toBeNull())
    expect(calls('/fe-ex-api/order/cancel_all')).toEqual([])

    fireEvent.click(screen.getByTestId('cancel-all'))
    fireEvent.click(within(await screen.findByTestId('cancel-all-dialog')).getByTestId('cancel-all-confirm'))
    await waitFor(() => expect(calls('/fe-ex-api/order/cancel_all')).toEqual([{ symbol: 'btcusdt' }]))
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('All open BTC/USDT orders cancelled'))
    await waitFor(() => expect(screen.queryByTestId('cancel-all-dialog')).toBeNull())
  })

  it('says so when a cancel or a cancel-all cannot reach the exchange (the server is down), and not for a refused one', async () => {
    renderWithApp(<UserOrders pair={pair} />)
    await screen.findByTestId('open-orders-table')
    const fail = (path: string, error: Error) => {
      const normal = apiData.getMockImplementation()!
      apiData.mockImplementation(async (p: string, body: Record<string, unknown>) => {
        if (p === path) throw error
        return normal(p, body)
      })
    }
    fail('/fe-ex-api/order/cancel', new Error('Error: Network error'))
    fireEvent.click(screen.getAllByTestId('cancel-order')[0])
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('The exchange could not be reached. Check your open orders and try again.'))
    expect(notifySuccess).not.toHaveBeenCalled()

    notifyError.mockReset()
    const { ApiError } = await import('@/lib/request-client')
    fail('/fe-ex-api/order/cancel_all', new ApiError({ code: '14015', msg: 'The order is already finished', data: null }))
    fireEvent.click(screen.getByTestId('cancel-all'))
    fireEvent.click(within(await screen.findByTestId('cancel-all-dialog')).getByTestId('cancel-all-confirm'))
    await waitFor(() => expect(calls('/fe-ex-api/order/cancel_all')).toHaveLength(1))
    await waitFor(() => expect(screen.queryByTestId('cancel-all-dialog')).toBeNull())
    // The request client has shown the server's message already.
    expect(notifyError).not.toHaveBeenCalled()
  })

  it('cancels an order once however often its button is pressed, and frees the button when the list has moved on', async () => {
    renderWithApp(<UserOrders pair={pair} />)
    await screen.findByTestId('open-orders-table')
    const first = () => screen.getAllByTestId('cancel-order')[0]
    const id = openList[0].order_id
    // The engine cancels asynchronously: the refreshed list no longer has it.
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path.endsWith('/order/cancel')) {
        openList = openList.filter((o) => o.order_id !== body.order_id)
        return {}
      }
      if (path.endsWith('/order/list/new')) return { count: openList.length, orderList: page(openList, body) }
      return {}
    })
    // Clicks of the same moment, before the page has drawn the waiting button, then later ones.
    const button = first()
    act(() => {
      button.click()
      button.click()
      button.click()
    })
    fireEvent.click(first())
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Order cancelled'))
    expect(calls('/fe-ex-api/order/cancel')).toEqual([{ symbol: 'btcusdt', order_id: id }])
    await waitFor(() => expect(first().hasAttribute('disabled')).toBe(false))
    // The next order's button works as before.
    fireEvent.click(first())
    await waitFor(() => expect(calls('/fe-ex-api/order/cancel')).toHaveLength(2))
    expect(calls('/fe-ex-api/order/cancel')[1].order_id).not.toBe(id)
  })
})

describe('UserOrders for keyboard users', () => {
  beforeEach(() => {
    openList = [order(1, 1), order(2, 1)]
    apiData.mockReset()
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path.endsWith('/order/cancel')) {
        openList = openList.filter((o) => o.order_id !== body.order_id)
        return {}
      }
      if (path.endsWith('/order/list/new')) return { count: openList.length, orderList: page(openList, body) }
      return {}
    })
  })

  // The cancelled order's row goes away under the focus: without help the browser drops it to the start of the page.
  it('moves the focus to the next order when the focused one is cancelled, then to the tab', async () => {
    renderWithApp(<UserOrders pair={pair} />)
    await screen.findByTestId('open-orders-table')
    const [first, second] = screen.getAllByTestId('cancel-order')
    act(() => first.focus())
    fireEvent.click(first)
    await waitFor(() => expect(screen.getAllByTestId('cancel-order')).toHaveLength(1))
    await waitFor(() => expect(document.activeElement).toBe(second))
    fireEvent.click(second)
    await screen.findByTestId('open-orders-empty')
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('tab-open-orders')))
  })

  it('leaves the focus alone when the user has moved it elsewhere', async () => {
    renderWithApp(<UserOrders pair={pair} />)
    await screen.findByTestId('open-orders-table')
    const [first] = screen.getAllByTestId('cancel-order')
    act(() => first.focus())
    fireEvent.click(first)
    act(() => screen.getByTestId('orders-view-all').focus())
    await waitFor(() => expect(screen.getAllByTestId('cancel-order')).toHaveLength(1))
    expect(document.activeElement).toBe(screen.getByTestId('orders-view-all'))
  })
})

describe('UserOrders tabs on a phone', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async () => ({ count: 0, orderList: [], tradeList: [] }))
  })

  // jsdom has no layout and matches no media query, so it renders the phone
  // layout: the names stay on one line, sized by their length, with the short
  // name of the open orders tab (at 390 px in mn_MN they then fit one row;
  // the full "Нээлттэй захиалга" made all three wrap onto two lines).
  it.each([
    ['mn_MN', ['Нээлттэй', 'Захиалгын түүх', 'Арилжааны түүх']],
    ['en_US', ['Open orders', 'Order history', 'Trade history']],
  ])('keeps the three tab names on one line (%s)', async (lan, names) => {
    document.cookie = `lan=${lan}; path=/`
    try {
      renderWithApp(<UserOrders pair={pair} />)
      await screen.findByTestId('user-orders-tabs')
      const tabs = ['tab-open-orders', 'tab-order-history', 'tab-trade-history'].map((id) => screen.getByTestId(id))
      expect(tabs.map((t) => t.textContent)).toEqual(names)
      for (const tab of tabs) {
        expect(getComputedStyle(tab).whiteSpace).toBe('nowrap')
        expect(getComputedStyle(tab).flexBasis).toBe('auto')
      }
    } finally {
      document.cookie = 'lan=en_US; path=/'
    }
  })
})

describe('UserOrders on a desktop', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) =>
      path.endsWith('/order/list/new') ? { count: 2, orderList: page([order(1, 1), { ...order(2, 2), deal_volume: '0.0004' }], body) } : { count: 0, orderList: [], tradeList: [] },
    )
  })
  afterEach(() => {
    vi.restoreAllMocks()
    document.cookie = 'lan=en_US; path=/'
  })

  // At 1024 px the panel is 386 px wide beside the book and the form: "Нээлттэй захиалга" pushed "Арилжааны түүх" out
  // of sight, and a table showed three of its columns.
  it('fits its tabs and shows the open orders as cards below 1280 px (mn_MN)', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    screenWidth(1024)
    renderWithApp(<UserOrders pair={pair} />)
    const list = await screen.findByTestId('open-orders-table')
    expect(list.getAttribute('data-layout')).toBe('cards')
    const tabs = ['tab-open-orders', 'tab-order-history', 'tab-trade-history'].map((id) => screen.getByTestId(id))
    expect(tabs.map((t) => t.textContent)).toEqual(['Нээлттэй', 'Захиалгын түүх', 'Арилжааны түүх'])
    for (const tab of tabs) expect(getComputedStyle(tab).flexGrow).toBe('1')
  })

  // At 1280 px the table has 616 px: with a status column Filled and Status slid under the pinned Cancel column.
  it('shows the open orders as a table without a status column from 1280 px', async () => {
    screenWidth(1280)
    renderWithApp(<UserOrders pair={pair} />)
    const list = await screen.findByTestId('open-orders-table')
    expect(list.getAttribute('data-layout')).toBe('table')
    const headers = within(list).getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers).toEqual(['Time', 'Side / Type', 'Price', 'Amount', 'Filled', 'Actions'])
    expect(screen.getByTestId('tab-open-orders').textContent).toBe('Open orders')
    // A part-filled order says so in its Filled column.
    expect(within(list).getAllByTestId('order-row')[1].textContent).toContain('0.000400')
    // The time takes two short lines: the date over the clock.
    const time = within(list).getAllByTestId('order-row')[0].querySelectorAll('td')[0]
    expect(time.querySelectorAll('span > span')).toHaveLength(2)
  })

  // In mn_MN the open orders showed four columns (side, type, time, price) before scrolling sideways: the time
  // leads and the type goes under the side (a two-part heading takes two lines), so that all fit the 616 px.
  it('fits time, side, price, amount, filled and Cancel in the 1280 px table (mn_MN)', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    screenWidth(1280)
    renderWithApp(<UserOrders pair={pair} />)
    const list = await screen.findByTestId('open-orders-table')
    expect(list.getAttribute('data-layout')).toBe('table')
    expect(within(list).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Цаг', 'Чиглэл / Төрөл', 'Үнэ', 'Тоо хэмжээ', 'Биелсэн', 'Үйлдэл'])
    const side = within(list).getAllByTestId('order-row')[0].querySelectorAll('td')[1]
    expect(side.textContent).toBe('АвахЛимит')
    // A long type may wrap under the side rather than widen the column.
    expect(getComputedStyle(within(side).getByTestId('order-type-line')).whiteSpace).toBe('normal')
  })
})

describe('UserOrders on an MNT pair, and the history as the orders page shows it', () => {
  // BTC/MNT prices have no decimals; MNT amounts have 2 (the coin list's showPrecision).
  const btcMnt = { ...BTC_USDT, symbol: 'btcmnt', routeSymbol: 'BTC_MNT', showName: 'BTC/MNT', quote: 'MNT', pricePrecision: 0, priceTick: '1', minNotional: '5000', quotePlaces: 2 }
  const history: OrderView[] = [
    { ...order(1, 3), symbol: 'btcmnt', price: '334884288', volume: '0.123457', deal_volume: '0.123457', avg_price: '334884000.4', deal_money: '41343773.99', end_reason: 'filled' },
    { ...order(2, 5), symbol: 'btcmnt', type: 'POST_ONLY', price: '334000000', end_reason: 'post_only_would_take' },
    { ...order(3, 4), symbol: 'btcmnt', price: '334000000', end_reason: 'cancelled' },
  ]
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/order/entrust_history')) return { count: history.length, orderList: history }
      if (path.endsWith('/order/trade_info_search'))
        return { count: 1, tradeList: [{ ...trade(1), symbol: 'btcmnt', price: '334884288', volume: '0.123457', deal_money: '41343809.543616', fee: '41343.8095', fee_coin: 'MNT' }] }
      return { count: 0, orderList: [] }
    })
  })
  afterEach(() => {
    vi.restoreAllMocks()
    document.cookie = 'lan=en_US; path=/'
  })

  it("shows a fill's total in tugriks with 2 places, not the price's none", async () => {
    renderWithApp(<UserOrders pair={btcMnt} />)
    fireEvent.click(await screen.findByTestId('tab-trade-history'))
    const [row] = within(await screen.findByTestId('trade-history-table')).getAllByTestId('trade-row')
    expect(row.textContent).toContain('334,884,288')
    expect(row.textContent).toContain('41,343,809.54')
  })

  it.each([
    ['en_US', 'Average price', 'Reason: Would have traded at once (post-only)'],
    ['mn_MN', 'Дундаж үнэ', 'Шалтгаан: Шууд биелэх байсан (зөвхөн мэйкер)'],
  ])('shows the average price and why the exchange ended an order on a phone card (%s)', async (lan, avgLabel, reason) => {
    document.cookie = `lan=${lan}; path=/`
    renderWithApp(<UserOrders pair={btcMnt} />)
    fireEvent.click(await screen.findByTestId('tab-order-history'))
    const list = await screen.findByTestId('order-history-table')
    expect(list.getAttribute('data-layout')).toBe('cards')
    const [filled, rejected, cancelled] = within(list).getAllByTestId('order-row')
    expect(filled.textContent).toContain(avgLabel)
    expect(filled.textContent).toContain('334,884,000')
    expect(within(filled).queryByTestId('order-reason')).toBeNull()
    expect(within(rejected).getByTestId('order-reason').textContent).toBe(reason)
    // Nothing traded: no average price; the user's own cancel needs no reason.
    expect(rejected.textContent).toContain('—')
    expect(within(cancelled).queryByTestId('order-reason')).toBeNull()
  })

  it('puts the reason under the status in the desktop table', async () => {
    screenWidth(1280)
    renderWithApp(<UserOrders pair={btcMnt} />)
    fireEvent.click(await screen.findByTestId('tab-order-history'))
    const list = await screen.findByTestId('order-history-table')
    expect(list.getAttribute('data-layout')).toBe('table')
    // Six columns, to fit the panel's 616 px at 1280 px: the type under the side, the average price under the price.
    expect(within(list).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Side / Type', 'Price / Average', 'Amount', 'Filled', 'Status'])
    const [filled, rejected] = within(list).getAllByTestId('order-row')
    expect(filled.querySelectorAll('td')[1].textContent).toBe('BuyLimit')
    expect(rejected.querySelectorAll('td')[1].textContent).toBe('BuyPost-only')
    expect(within(filled.querySelectorAll('td')[2]).getByTestId('order-avg-price').textContent).toBe('334,884,000')
    expect(filled.querySelectorAll('td')[2].textContent).toBe('334,884,288334,884,000')
    // Nothing traded: no average price.
    expect(within(rejected).getByTestId('order-avg-price').textContent).toBe('—')
    const status = rejected.querySelectorAll('td')[5]
    expect(status.textContent).toBe('RejectedWould have traded at once (post-only)')
    // Should a table still be too wide, the status stays in view at the end while the others scroll under it.
    expect(status.getAttribute('data-sticky')).toBe('true')
  })

  it('names the merged columns in Mongolian, each part as the catalogue names it alone (mn_MN)', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    screenWidth(1280)
    renderWithApp(<UserOrders pair={btcMnt} />)
    fireEvent.click(await screen.findByTestId('tab-order-history'))
    const list = await screen.findByTestId('order-history-table')
    expect(within(list).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Цаг', 'Чиглэл / Төрөл', 'Үнэ / Дундаж', 'Тоо хэмжээ', 'Биелсэн', 'Төлөв'])
  })
})
