import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { SpotOrder, SpotTrade } from '../api/orders-api'
import type { OrdersSearch } from '../lib/order-filters'
import { OrdersPage } from './orders-page'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
const notifySuccess = vi.hoisted(() => vi.fn())
vi.mock('@/lib/notify', async (orig) => ({ ...(await orig<typeof import('@/lib/notify')>()), notifySuccess }))

const DAY = 86_400_000

function order(i: number, over: Partial<SpotOrder> = {}): SpotOrder {
  return {
    order_id: String(1000 + i),
    symbol: 'btcusdt',
    side: i % 2 ? 'SELL' : 'BUY',
    type: 'LIMIT',
    price: String(20000 + i),
    volume: '0.001',
    deal_volume: '0',
    deal_money: '0',
    avg_price: '0',
    fee: '0',
    fee_coin: 'BTC',
    status: 1,
    status_text: 'NEW',
    created_at: Date.now() - i * 60_000,
    updated_at: Date.now() - i * 60_000,
    ...over,
  }
}

const fill: SpotTrade = {
  trade_id: 't1',
  order_id: '2001',
  symbol: 'btcusdt',
  side: 'BUY',
  role: 'TAKER',
  price: '30100.5',
  volume: '0.0004',
  deal_money: '12.0402',
  fee: '0.0000004',
  fee_coin: 'BTC',
  created_at: Date.now(),
}

const market = {
  market: {
    USDT: {
      'BTC/USDT': { symbol: 'btcusdt', base: 'BTC', quote: 'USDT', showName: 'BTC/USDT', pricePrecision: 2, lotSize: '0.000001' },
      'ETH/USDT': { symbol: 'ethusdt', base: 'ETH', quote: 'USDT', showName: 'ETH/USDT', pricePrecision: 2, lotSize: '0.00001' },
    },
  },
}

let openOrders: SpotOrder[] = []
const history = Array.from({ length: 14 }, (_, i) =>
  order(i, { order_id: String(2000 + i), status: i === 1 ? 4 : 3, deal_volume: i === 1 ? '0' : '0.001', deal_money: '30', avg_price: '30000' }),
)

function route(path: string, body: Record<string, unknown>) {
  switch (path) {
    case '/fe-ex-api/common/public_info_market':
      return market
    case '/fe-ex-api/order/list/new': {
      const list = openOrders.filter((o) => !body.symbol || o.symbol === body.symbol)
      return { count: list.length, orderList: list }
    }
    case '/fe-ex-api/order/entrust_history': {
      const page = Number(body.page)
      const size = Number(body.pageSize)
      const list = history.filter((o) => !body.status || String(o.status) === body.status)
      return { count: list.length, orderList: list.slice((page - 1) * size, page * size) }
    }
    case '/fe-ex-api/order/trade_info_search':
      return { count: 1, tradeList: [fill] }
    case '/fe-ex-api/market/tickers':
      return { tickers: { btcusdt: { open: '96000', close: '97000', rose: '0.01' } }, sparklines: {} }
    case '/fe-ex-api/trade/list_by_order':
      return { count: 1, tradeList: body.order_id === '2001' ? [] : [fill] }
    default:
      return {}
  }
}

function Harness({ initial }: { initial: OrdersSearch }) {
  const [search, setSearch] = useState(initial)
  return (
    <>
      <OrdersPage search={search} onSearch={setSearch} />
      <output data-testid="search">{JSON.stringify(search)}</output>
    </>
  )
}

const calls = (path: string) => apiData.mock.calls.filter((c) => c[0] === path).map((c) => c[1] as Record<string, unknown>)

describe('OrdersPage', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => route(path, body))
    openOrders = Array.from({ length: 12 }, (_, i) => order(i))
    notifySuccess.mockReset()
  })

  it('lists open orders a page at a time and filters them by side', async () => {
    renderWithApp(<Harness initial={{}} />)
    const list = await screen.findByTestId('open-orders')
    expect(within(list).getAllByTestId('open-order')).toHaveLength(10)
    // Filters are labelled form fields.
    expect(screen.getByLabelText('Side')).toBe(screen.getByTestId('filter-side'))
    expect(screen.getByLabelText('Pair')).toBe(screen.getByTestId('filter-pair'))
    expect(screen.getByRole('search', { name: 'Filter orders' })).toBeTruthy()
    const first = within(list).getAllByTestId('open-order')[0]
    expect(first.textContent).toContain('BTC/USDT')
    expect(first.textContent).toContain('20,000.00')
    expect(within(first).getByTestId('order-status').textContent).toBe('Open')
    expect(screen.getByTestId('open-count').textContent).toBe('12 in total')
    // Page 2 holds the other two.
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(within(screen.getByTestId('open-orders')).getAllByTestId('open-order')).toHaveLength(2))
    // The side filter works on the client (the endpoint has none) and goes back to page 1.
    fireEvent.change(screen.getByTestId('filter-side'), { target: { value: 'SELL' } })
    await waitFor(() => expect(screen.getByTestId('open-count').textContent).toBe('6 in total'))
    const rows = within(screen.getByTestId('open-orders')).getAllByTestId('open-order')
    expect(rows).toHaveLength(6)
    expect(rows.every((r) => within(r).getByTestId('order-side').getAttribute('data-side') === 'SELL')).toBe(true)
    expect(JSON.parse(screen.getByTestId('search').textContent ?? '')).toEqual({ side: 'SELL' })
  })

  it('asks the server for one pair when the pair filter is set', async () => {
    renderWithApp(<Harness initial={{}} />)
    await screen.findByTestId('open-orders')
    await waitFor(() => expect(within(screen.getByTestId('filter-pair')).getAllByRole('option')).toHaveLength(3))
    fireEvent.change(screen.getByTestId('filter-pair'), { target: { value: 'ethusdt' } })
    await screen.findByTestId('open-orders-empty')
    expect(calls('/fe-ex-api/order/list/new').at(-1)).toMatchObject({ symbol: 'ethusdt', page: 1, pageSize: 500 })
  })

  it('cancels one order, and all of them after a confirmation', async () => {
    renderWithApp(<Harness initial={{ symbol: 'btcusdt' }} />)
    const list = await screen.findByTestId('open-orders')
    const row = within(list).getAllByTestId('open-order')[0]
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel order 1000' }))
    await waitFor(() => expect(calls('/fe-ex-api/order/cancel')).toEqual([{ symbol: 'btcusdt', order_id: '1000' }]))

    fireEvent.click(screen.getByTestId('orders-cancel-all'))
    const dialog = await screen.findByTestId('cancel-all-dialog')
    expect(dialog.textContent).toContain('All 12 open BTC/USDT orders will be cancelled')
    // An alert dialog read out with its question and what it will do.
    expect(dialog.getAttribute('role')).toBe('alertdialog')
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toContain('All 12 open BTC/USDT orders will be cancelled')
    fireEvent.click(within(dialog).getByTestId('cancel-all-confirm'))
    await waitFor(() => expect(calls('/fe-ex-api/order/cancel_all')).toEqual([{ symbol: 'btcusdt' }]))
    // Only this pair's orders went: the toast says which.
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('All open BTC/USDT orders cancelled'))
  })

  // The cancelled order's row goes away under the focus: the keyboard user lands on the next order, not the page's start.
  it('moves the focus to the next order when the focused one is cancelled', async () => {
    openOrders = [order(0), order(1)]
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path === '/fe-ex-api/order/cancel') {
        openOrders = openOrders.filter((o) => o.order_id !== body.order_id)
        return {}
      }
      return route(path, body)
    })
    renderWithApp(<Harness initial={{}} />)
    const list = await screen.findByTestId('open-orders')
    const button = within(list).getByRole('button', { name: 'Cancel order 1000' })
    act(() => button.focus())
    fireEvent.click(button)
    await waitFor(() => expect(within(screen.getByTestId('open-orders')).getAllByTestId('open-order')).toHaveLength(1))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel order 1001' })))
  })

  it('reduces an open order from the pencil beside its amount', async () => {
    openOrders = [order(0, { volume: '0.01' }), order(1, { type: 'MARKET', price: '0', volume: '0', quote_volume: '50' })]
    renderWithApp(<Harness initial={{}} />)
    const list = await screen.findByTestId('open-orders')
    expect(within(list).getAllByTestId('amend-order')).toHaveLength(1)
    fireEvent.click(within(list).getByRole('button', { name: 'Reduce the amount of order 1000' }))
    const dialog = await screen.findByTestId('amend-dialog')
    fireEvent.change(within(dialog).getByLabelText('New amount'), { target: { value: '0.005' } })
    fireEvent.click(within(dialog).getByTestId('amend-submit'))
    await waitFor(() => expect(calls('/fe-ex-api/order/amend')).toEqual([{ symbol: 'btcusdt', order_id: '1000', volume: '0.005' }]))
    await waitFor(() => expect(screen.queryByTestId('amend-dialog')).toBeNull())
  })

  it("shows an open stop-limit order's stop and whether the last price has reached it", async () => {
    openOrders = [
      order(0, { type: 'STOP_LIMIT', price: '99000', stop_price: '98000' }),
      order(1, { type: 'STOP_LIMIT', side: 'SELL', price: '98000', stop_price: '98500' }),
      order(2),
    ]
    renderWithApp(<Harness initial={{}} />)
    const list = await screen.findByTestId('open-orders')
    const [buy, sell, limit] = within(list).getAllByTestId('open-order')
    expect(within(buy).getByTestId('order-stop').textContent).toContain('Stop ≥ 98,000.00')
    // The last price (97000, from the tickers) is short of the buy's stop and past the sell's.
    await waitFor(() => expect(within(buy).getByTestId('order-stop-state').textContent).toBe('Waiting for the stop'))
    expect(within(sell).getByTestId('order-stop').textContent).toContain('Stop ≤ 98,500.00')
    expect(within(sell).getByTestId('order-stop-state').textContent).toBe('Triggered')
    expect(within(limit).queryByTestId('order-stop')).toBeNull()
  })

  it('says the filters, not the period, leave nothing to show', async () => {
    renderWithApp(<Harness initial={{ tab: 'history', status: 5, side: 'SELL' }} />)
    expect((await screen.findByTestId('order-history-empty')).textContent).toBe('No orders match these filters')
    fireEvent.click(screen.getByTestId('orders-tab-trades'))
    await screen.findByTestId('trade-history')
    fireEvent.change(screen.getByTestId('filter-pair'), { target: { value: 'ethusdt' } })
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) =>
      path === '/fe-ex-api/order/trade_info_search' ? { count: 0, tradeList: [] } : route(path, body),
    )
    fireEvent.change(screen.getByTestId('filter-side'), { target: { value: 'BUY' } })
    expect((await screen.findByTestId('trade-history-empty')).textContent).toBe('No trades match these filters')
  })

  it('says the period is empty when no filter is set', async () => {
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) =>
      path === '/fe-ex-api/order/entrust_history' ? { count: 0, orderList: [] } : route(path, body),
    )
    renderWithApp(<Harness initial={{ tab: 'history' }} />)
    expect((await screen.findByTestId('order-history-empty')).textContent).toBe('No finished orders in this period')
  })

  it('pages through the order history of the last 180 days and filters its status', async () => {
    const before = Date.now()
    renderWithApp(<Harness initial={{ tab: 'history' }} />)
    const list = await screen.findByTestId('order-history')
    expect(within(list).getAllByTestId('history-order')).toHaveLength(10)
    const first = calls('/fe-ex-api/order/entrust_history')[0]
    expect(first).toMatchObject({ page: 1, pageSize: 10 })
    // The window starts exactly 180 days back (to the minute) and is never wider.
    expect(first.startTime as number).toBeGreaterThanOrEqual(Math.floor(before / 60_000) * 60_000 - 180 * DAY)
    expect(first.startTime as number).toBeLessThanOrEqual(Date.now() - 180 * DAY + 60_000)
    expect(first.status).toBeUndefined()
    // Status labels: filled, and cancelled.
    const statuses = within(list).getAllByTestId('order-status').map((s) => s.textContent)
    expect(statuses.slice(0, 2)).toEqual(['Filled', 'Cancelled'])

    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }))
    await waitFor(() => expect(calls('/fe-ex-api/order/entrust_history').at(-1)).toMatchObject({ page: 2 }))
    await waitFor(() => expect(within(screen.getByTestId('order-history')).getAllByTestId('history-order')).toHaveLength(4))

    fireEvent.change(screen.getByTestId('filter-status'), { target: { value: '4' } })
    await waitFor(() => expect(calls('/fe-ex-api/order/entrust_history').at(-1)).toMatchObject({ page: 1, status: '4' }))
    await waitFor(() => expect(within(screen.getByTestId('order-history')).getAllByTestId('history-order')).toHaveLength(1))
    expect(screen.queryByTestId('history-pager')).toBeNull()
  })

  it('falls back to the last page when the asked one no longer exists', async () => {
    renderWithApp(<Harness initial={{ tab: 'history', page: 5 }} />)
    await waitFor(() => expect(JSON.parse(screen.getByTestId('search').textContent ?? '')).toEqual({ tab: 'history', page: 2 }))
    await waitFor(() => expect(within(screen.getByTestId('order-history')).getAllByTestId('history-order')).toHaveLength(4))
  })

  it('chooses the time range like the wallet history: the last 7, 30, 90 or 180 days, in the app language', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<Harness initial={{ tab: 'trades' }} />)
    await screen.findByTestId('trade-history')
    // No browser date input (it shows dates in the browser's locale, not the app's).
    expect(document.querySelector('input[type="date"]')).toBeNull()
    const range = screen.getByLabelText('Хугацаа') as HTMLSelectElement
    expect(range).toBe(screen.getByTestId('filter-range'))
    expect(Array.from(range.options).map((o) => o.textContent)).toEqual(['Сүүлийн 7 хоног', 'Сүүлийн 30 хоног', 'Сүүлийн 90 хоног', 'Сүүлийн 180 хоног'])
    expect(range.value).toBe('180')
    fireEvent.change(range, { target: { value: '7' } })
    await waitFor(() => expect(JSON.parse(screen.getByTestId('search').textContent ?? '')).toEqual({ tab: 'trades', days: 7 }))
    // Trades are searched without a status, from the start of the day 7 days back to the end of today.
    await waitFor(() => {
      const body = calls('/fe-ex-api/order/trade_info_search').at(-1)!
      const today = new Date()
      expect(body.status).toBeUndefined()
      expect(body.startTime).toBe(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 7).getTime())
      expect(body.endTime).toBe(new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1).getTime() - 1)
    })
    // Back to the whole window, which is the default and leaves the address.
    fireEvent.change(range, { target: { value: '180' } })
    await waitFor(() => expect(JSON.parse(screen.getByTestId('search').textContent ?? '')).toEqual({ tab: 'trades' }))
  })

  // jsdom matches no media query, so it renders the phone layout: the tab names stay on one line, sized by their
  // length, the open orders tab with its short name (at 390 px in mn_MN the full names ran out of sight).
  it('fits its three tabs on a phone in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<Harness initial={{}} />)
    await screen.findByTestId('open-orders')
    const tabs = ['open', 'history', 'trades'].map((k) => screen.getByTestId(`orders-tab-${k}`))
    expect(tabs.map((t) => t.textContent)).toEqual(['Нээлттэй', 'Захиалгын түүх', 'Арилжааны түүх'])
    for (const tab of tabs) {
      expect(getComputedStyle(tab).whiteSpace).toBe('nowrap')
      expect(getComputedStyle(tab).flexGrow).toBe('1')
      expect(getComputedStyle(tab).fontSize).toBe('13px')
    }
  })

  // jsdom renders the phone layout (two filters to a row). At 390 px in mn_MN a select as narrow as half the row cut its
  // choice under the arrow ("Сүүлийн 180 хоно"); each keeps at least the width of its longest choice and wraps instead.
  it('never makes a filter narrower than its longest choice on a phone', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<Harness initial={{ tab: 'history' }} />)
    await screen.findByTestId('order-history')
    expect((screen.getByTestId('filter-range') as HTMLSelectElement).selectedOptions[0].textContent).toBe('Сүүлийн 180 хоног')
    for (const id of ['filter-pair', 'filter-side', 'filter-status', 'filter-range']) {
      const field = screen.getByTestId(`${id}-field`)
      expect(field.contains(screen.getByTestId(id))).toBe(true)
      expect(getComputedStyle(field).minWidth, id).toBe('fit-content')
    }
    document.cookie = 'lan=en_US; path=/'
  })

  it('names the time range in English too', async () => {
    renderWithApp(<Harness initial={{ tab: 'history', days: 30 }} />)
    await screen.findByTestId('order-history')
    const range = screen.getByLabelText('Time range') as HTMLSelectElement
    expect(range.value).toBe('30')
    expect(range.selectedOptions[0].textContent).toBe('Last 30 days')
    expect(document.querySelector('input[type="date"]')).toBeNull()
    // A range is a filter the reset button clears.
    fireEvent.click(screen.getByTestId('filter-reset'))
    await waitFor(() => expect(JSON.parse(screen.getByTestId('search').textContent ?? '')).toEqual({ tab: 'history' }))
  })

  it('opens an order with its fills', async () => {
    renderWithApp(<Harness initial={{ tab: 'history', status: 3 }} />)
    const list = await screen.findByTestId('order-history')
    fireEvent.click(within(list).getByRole('button', { name: 'Details of order 2000' }))
    const panel = await screen.findByTestId('order-detail')
    expect(within(panel).getByTestId('order-detail-heading').textContent).toContain('BTC/USDT')
    expect(within(panel).getByTestId('order-detail-order-id').textContent).toContain('2000')
    expect(within(panel).getByTestId('order-detail-avg').textContent).toContain('30,000.00')
    const fills = await within(panel).findAllByTestId('order-fill')
    expect(fills).toHaveLength(1)
    expect(fills[0].textContent).toContain('30,100.50')
    expect(fills[0].textContent).toContain('Taker')
    expect(calls('/fe-ex-api/trade/list_by_order')).toEqual([{ order_id: '2000' }])
    // A finished order has no cancel button.
    expect(within(panel).queryByTestId('order-detail-cancel')).toBeNull()
    // The panel links to the order's own page, which keeps the list's search for its way back.
    const link = within(panel).getByRole('link', { name: 'Open as a page' })
    expect(link.getAttribute('href')).toBe('/order/spot/2000?tab=history&status=3')
  })

  it('shows an error state with a retry when the list fails', async () => {
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path === '/fe-ex-api/order/list/new') throw new Error('Error: offline')
      return route(path, body)
    })
    renderWithApp(<Harness initial={{}} />)
    const alert = await screen.findByTestId('open-orders-error')
    expect(alert.textContent).toContain('Your orders could not be loaded')
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => route(path, body))
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('open-orders')).toBeTruthy()
  })
})

describe('OrdersPage on an MNT pair', () => {
  // BTC/MNT prices have no decimals; MNT amounts have 2 (the coin list's showPrecision).
  const mntMarket = {
    coinList: { MNT: { showPrecision: 2 }, BTC: { showPrecision: 8 } },
    market: { MNT: { 'BTC/MNT': { symbol: 'btcmnt', base: 'BTC', quote: 'MNT', showName: 'BTC/MNT', pricePrecision: 0, priceTick: '1', lotSize: '0.000001' } } },
  }
  const mnt = (i: number, over: Partial<SpotOrder>) => order(i, { symbol: 'btcmnt', price: '334884288', volume: '0.123457', ...over })
  const finished = [
    mnt(0, { order_id: '3000', status: 3, deal_volume: '0.123457', avg_price: '334884000.4', deal_money: '41343773.99', end_reason: 'filled' }),
    mnt(1, { order_id: '3001', status: 5, type: 'POST_ONLY', end_reason: 'post_only_would_take' }),
  ]
  const mntFill: SpotTrade = { ...fill, order_id: '3000', symbol: 'btcmnt', price: '334884288', volume: '0.123457', deal_money: '41343809.543616' }
  beforeEach(() => {
    apiData.mockReset()
    notifySuccess.mockReset()
    openOrders = [mnt(5, { order_id: '3005' }), mnt(6, { order_id: '3006', type: 'MARKET', price: '0', volume: '0', quote_volume: '1000000' })]
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      switch (path) {
        case '/fe-ex-api/common/public_info_market':
          return mntMarket
        case '/fe-ex-api/order/entrust_history':
          return { count: finished.length, orderList: finished }
        case '/fe-ex-api/order/trade_info_search':
        case '/fe-ex-api/trade/list_by_order':
          return { count: 1, tradeList: [mntFill] }
        case '/fe-ex-api/order/detail':
          return finished.find((o) => o.order_id === body.order_id)
        default:
          return route(path, body)
      }
    })
  })

  it('shows totals in tugriks with 2 places, the average price, and why the exchange ended an order', async () => {
    renderWithApp(<Harness initial={{ tab: 'history' }} />)
    const list = await screen.findByTestId('order-history')
    const [filled, rejected] = await within(list).findAllByTestId('history-order')
    await waitFor(() => expect(filled.textContent).toContain('41,343,773.99'))
    expect(filled.textContent).toContain('334,884,000')
    expect(within(filled).queryByTestId('order-reason')).toBeNull()
    expect(within(rejected).getByTestId('order-reason').textContent).toBe('Reason: Would have traded at once (post-only)')
    // The panel says the same, and its fills' totals are tugriks too.
    fireEvent.click(within(list).getByRole('button', { name: 'Details of order 3000' }))
    const panel = await screen.findByTestId('order-detail')
    expect(within(panel).getByTestId('order-detail-total').textContent).toContain('41,343,773.99 MNT')
    expect((await within(panel).findAllByTestId('order-fill'))[0].textContent).toContain('41,343,809.54')
    expect(within(panel).queryByTestId('order-detail-reason')).toBeNull()
  })

  it("names the reason in the order's panel", async () => {
    renderWithApp(<Harness initial={{ tab: 'history' }} />)
    const list = await screen.findByTestId('order-history')
    fireEvent.click(await within(list).findByRole('button', { name: 'Details of order 3001' }))
    const panel = await screen.findByTestId('order-detail')
    expect(within(panel).getByTestId('order-detail-reason').textContent).toContain('Would have traded at once (post-only)')
  })

  it('shows trade totals in tugriks with 2 places', async () => {
    renderWithApp(<Harness initial={{ tab: 'trades' }} />)
    const [row] = await within(await screen.findByTestId('trade-history')).findAllByTestId('history-trade')
    await waitFor(() => expect(row.textContent).toContain('41,343,809.54'))
  })

  it("reduces an open limit order from its panel, then closes the panel (the list shows the new amount)", async () => {
    renderWithApp(<Harness initial={{}} />)
    const list = await screen.findByTestId('open-orders')
    // A market order cannot be amended: no button in its panel.
    fireEvent.click(within(list).getByRole('button', { name: 'Details of order 3006' }))
    let panel = await screen.findByTestId('order-detail')
    expect(within(panel).getByTestId('order-detail-cancel')).toBeTruthy()
    expect(within(panel).queryByTestId('order-detail-amend')).toBeNull()
    fireEvent.click(within(panel).getByTestId('order-detail-close'))
    await waitFor(() => expect(screen.queryByTestId('order-detail')).toBeNull())

    fireEvent.click(within(list).getByRole('button', { name: 'Details of order 3005' }))
    panel = await screen.findByTestId('order-detail')
    fireEvent.click(within(panel).getByTestId('order-detail-amend'))
    const dialog = await screen.findByTestId('amend-dialog')
    expect(within(dialog).getByTestId('amend-current').textContent).toBe('0.123457 BTC')
    fireEvent.change(within(dialog).getByLabelText('New amount'), { target: { value: '0.1' } })
    fireEvent.click(within(dialog).getByTestId('amend-submit'))
    await waitFor(() => expect(calls('/fe-ex-api/order/amend')).toEqual([{ symbol: 'btcmnt', order_id: '3005', volume: '0.1' }]))
    await waitFor(() => expect(screen.queryByTestId('amend-dialog')).toBeNull())
    await waitFor(() => expect(screen.queryByTestId('order-detail')).toBeNull())
  })
})
