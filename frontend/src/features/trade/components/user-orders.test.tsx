import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { OrderView, TradeView } from '../api/trade-api'
import { BTC_USDT } from '../test-pair'
import { PANEL_PAGE_SIZE, UserOrders } from './user-orders'

const apiData = vi.hoisted(() => vi.fn())
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

describe('UserOrders on the trade page', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path.endsWith('/order/list/new')) {
        const all = Array.from({ length: 13 }, (_, i) => order(i, 1))
        return { count: all.length, orderList: page(all, body) }
      }
      if (path.endsWith('/order/entrust_history')) {
        // The newest: a market buy cut short after a part filled.
        const all = [{ ...order(99, 4), deal_volume: '0.0004' }, ...Array.from({ length: 24 }, (_, i) => order(100 + i, 3))]
        return { count: all.length, orderList: page(all, body) }
      }
      if (path.endsWith('/order/trade_info_search')) {
        const all = Array.from({ length: 3 }, (_, i) => trade(i))
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
    renderWithApp(<UserOrders pair={pair} />)
    fireEvent.click(await screen.findByTestId('tab-order-history'))
    const list = await screen.findByTestId('order-history-table')
    expect(within(list).getAllByTestId('order-row')).toHaveLength(10)
    expect(within(list).getAllByTestId('order-row')[0].textContent).toContain('Partly filled, cancelled')
    expect(within(list).getAllByTestId('order-row')[1].textContent).toContain('Filled')
    const first = calls('/fe-ex-api/order/entrust_history')[0]
    expect(first).toMatchObject({ symbol: 'btcusdt', page: 1, pageSize: PANEL_PAGE_SIZE })
    expect(first.startTime as number).toBeGreaterThanOrEqual(Date.now() - 180 * DAY - 60_000)
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
    expect(within(list).getAllByTestId('trade-row')).toHaveLength(3)
    expect(screen.queryByTestId('trade-history-pager')).toBeNull()
    expect(within(list).getAllByTestId('trade-row')[0].textContent).toContain('0.05200000 USDT')
  })
})
