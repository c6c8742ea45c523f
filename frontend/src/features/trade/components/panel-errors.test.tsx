import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { KlineChart } from './kline-chart'
import { OrderForm } from './order-form'
import { RecentTrades } from './recent-trades'
import { TradePage } from './trade-page'
import { UserOrders } from './user-orders'

// A panel whose data could not be read says so and offers a retry: it never
// passes the failure off as "no trades yet", "no open orders", a zero
// balance or a blank chart.

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))
vi.mock('../api/use-market-channel', () => ({ useMarketChannel: () => {} }))
// jsdom has no canvas: the chart library is a stub that takes the bars.
vi.mock('lightweight-charts', () => import('./chart/lightweight-charts.mock'))

const pair = BTC_USDT
const down = () => new Error('Error: Network error')

/** Answers every call, failing `failing` once per entry in `failures` (by path suffix). */
function serve(failing: string, failures: number, answers: Record<string, unknown>) {
  let failed = 0
  apiData.mockImplementation(async (path: string) => {
    if (path.endsWith(failing) && failed < failures) {
      failed += 1
      throw down()
    }
    const key = Object.keys(answers).find((k) => path.endsWith(k))
    return key ? answers[key] : {}
  })
}

describe('trade panels that could not load', () => {
  beforeEach(() => {
    apiData.mockReset()
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  it('the chart says its candles could not be loaded and reads them again', async () => {
    serve('/market/kline', 1, { '/market/kline': [{ id: 1_700_000_000, open: '1', high: '2', low: '1', close: '2', vol: '3' }] })
    renderWithApp(<KlineChart pair={pair} />)
    const alert = await screen.findByTestId('kline-error')
    expect(alert.getAttribute('role')).toBe('alert')
    expect(alert.textContent).toContain('The chart could not be loaded')
    expect(screen.queryByTestId('kline-empty')).toBeNull()
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.queryByTestId('kline-error')).toBeNull())
    expect(screen.queryByTestId('kline-empty')).toBeNull()
    expect(apiData.mock.calls.filter((c) => c[0] === '/fe-ex-api/market/kline')).toHaveLength(2)
  })

  it('recent trades that could not be loaded are not "no trades yet"', async () => {
    serve('/market/trades', 1, { '/market/trades': [{ id: '1', side: 'BUY', price: '100', vol: '0.5', ts: Date.now() }] })
    renderWithApp(<RecentTrades pair={pair} />)
    const alert = await screen.findByTestId('trades-error')
    expect(alert.textContent).toContain('Recent trades could not be loaded')
    expect(screen.queryByTestId('trades-empty')).toBeNull()
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('market-trade')).toBeTruthy()
    // A named list the keyboard can scroll; each trade says its side in words, not by colour alone.
    const list = screen.getByRole('region', { name: 'Recent trades' })
    expect(list.tabIndex).toBe(0)
    expect(within(list).getByTestId('market-trade').textContent).toMatch(/^Buy 100\.00/)
  })

  it('says it in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    serve('/market/trades', 1, {})
    renderWithApp(<RecentTrades pair={pair} />)
    const alert = await screen.findByTestId('trades-error')
    expect(alert.textContent).toContain('Сүүлийн арилжааг ачаалж чадсангүй')
    expect(within(alert).getByRole('button', { name: 'Дахин оролдох' })).toBeTruthy()
  })

  it('a balance that could not be read is unknown, not zero, and can be read again', async () => {
    serve('/finance/v5/account_balance', 1, { '/finance/v5/account_balance': { coinList: [{ coin: 'USDT', normal: '250', freeze: '0' }] } })
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('Could not be loaded'))
    expect(screen.getByTestId('available-balance').textContent).not.toContain('0.00')
    // A submit meanwhile is not refused for a balance nobody knows.
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect(screen.queryByText('Insufficient balance')).toBeNull()
    fireEvent.click(screen.getByTestId('available-balance-retry'))
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('250.00 USDT'))
    expect(screen.queryByTestId('available-balance-retry')).toBeNull()
  })

  it('open orders that could not be read are not "no open orders"', async () => {
    serve('/order/list/new', 1, { '/order/list/new': { count: 0, orderList: [] } })
    renderWithApp(<UserOrders pair={pair} />)
    const alert = await screen.findByTestId('open-orders-table-error')
    expect(alert.textContent).toContain('Your orders could not be loaded')
    expect(screen.queryByTestId('open-orders-empty')).toBeNull()
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('open-orders-empty')).toBeTruthy()
  })

  it('the order and trade history say so too', async () => {
    serve('/order/entrust_history', 1, {})
    renderWithApp(<UserOrders pair={pair} />)
    await screen.findByTestId('open-orders-empty')
    fireEvent.click(screen.getByTestId('tab-order-history'))
    expect((await screen.findByTestId('order-history-table-error')).textContent).toContain('Your orders could not be loaded')
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/order/trade_info_search')) throw down()
      return {}
    })
    fireEvent.click(screen.getByTestId('tab-trade-history'))
    expect(await screen.findByTestId('trade-history-table-error')).toBeTruthy()
    expect(screen.queryByTestId('trade-history-empty')).toBeNull()
  })

  it('the page offers to read the pairs again when they could not be loaded, and is not "no such pair"', async () => {
    const market = { market: { USDT: { 'BTC/USDT': { base: 'BTC', quote: 'USDT', symbol: 'btcusdt', showName: 'BTC/USDT' } } } }
    let calls = 0
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/common/public_info_market')) {
        calls += 1
        if (calls === 1) throw new ApiError({ code: '10001', msg: 'System busy', data: null })
        return market
      }
      throw down()
    })
    renderWithApp(<TradePage symbol="BTC_USDT" />)
    const alert = await screen.findByTestId('trade-error')
    expect(alert.textContent).toContain('could not be loaded')
    expect(screen.queryByTestId('trade-not-found')).toBeNull()
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.queryByTestId('trade-error')).toBeNull())
    expect(screen.queryByTestId('trade-not-found')).toBeNull()
    expect(calls).toBe(2)
  })
})
