import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { FuturesOrder, FuturesTrade } from '../api/futures-api'
import type { FuturesOrdersSearch } from '../lib/search'
import { futuresTexts } from '../lib/texts'
import { PUBLIC_INFO } from '../test-fixtures'
import { sentTo, serve } from '../test-server'
import { FuturesOrdersPage } from './futures-orders-page'
import { reasonKey, statusKey } from './order-lists'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const order: FuturesOrder = {
  orderId: '1001',
  clientOid: 'c1',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '49000.0',
  volume: 10,
  dealVolume: 4,
  avgPrice: '49000.0',
  fee: '0.0392',
  realizedPnl: '0',
  reduceOnly: false,
  closePosition: false,
  liquidation: false,
  status: 'PARTIALLY_FILLED',
  reason: '',
  ctime: 1_700_000_000_000,
  mtime: 1_700_000_000_000,
}

const trade: FuturesTrade = { tradeId: 't1', orderId: '1002', symbol: 'ETHUSDT', side: 'SELL', price: '3000.00', volume: 3, fee: '0.045', realizedPnl: '-1.5', role: 'TAKER', liquidation: false, ctime: 1_700_000_000_000 }

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  screenWidth(1280)
  serve({
    '/fe-co-api/common/public_info': PUBLIC_INFO,
    '/fe-co-api/order/current_order_list': { count: 45, orderList: [order] },
    '/fe-co-api/order/history_order_list': {
      count: 2,
      orderList: [
        { ...order, orderId: '1003', status: 'CANCELED', reason: 'post_only', dealVolume: 0, reduceOnly: true, timeInForce: 'POST_ONLY' },
        { ...order, orderId: '1004', type: 'MARKET', price: '', status: 'FILLED', dealVolume: 10, realizedPnl: '12.5', closePosition: true },
      ],
    },
    '/fe-co-api/order/his_trade_list': { count: 1, tradeList: [trade] },
    '/fe-co-api/order/order_cancel': { ...order, status: 'CANCELED' },
    '/fe-co-api/account_statistics': (b: Record<string, unknown>) =>
      b.days === 30
        ? { coin: 'USDT', days: 30, from: 1_697_408_000_000, to: 1_700_000_000_000, realizedPnl: '-40', fee: '12.5', funding: '-1.25', netPnl: '-53.75', trades: 210, volume: '1250000.5' }
        : { coin: 'USDT', days: b.days, from: 1_699_395_200_000, to: 1_700_000_000_000, realizedPnl: '125.5', fee: '3.2', funding: '0.75', netPnl: '123.05', trades: 14, volume: '65000' },
  })
})

afterEach(() => {
  vi.restoreAllMocks()
  act(() => toaster.remove())
})

function renderPage(search: FuturesOrdersSearch = {}, onSearch = vi.fn()) {
  renderWithApp(
    <>
      <FuturesOrdersPage search={search} onSearch={onSearch} />
      <Toaster />
    </>,
  )
  return onSearch
}

describe('FuturesOrdersPage', () => {
  it('lists the open orders of every contract with Cancel, a page at a time', async () => {
    const onSearch = renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Futures orders' })).toBeTruthy()
    const [row] = await screen.findAllByTestId('futures-order-row')
    expect(within(row).getByTestId('order-filled').textContent).toBe('4 / 10 Cont')
    expect(within(row).getByText('Limit · Good till cancelled')).toBeTruthy()
    expect(sentTo('/fe-co-api/order/current_order_list')[0]).toMatchObject({ page: 1, pageSize: 20 })
    expect(sentTo('/fe-co-api/order/current_order_list')[0].symbol).toBeUndefined()
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel BTCUSDT order 1001' }))
    await waitFor(() => expect(sentTo('/fe-co-api/order/order_cancel')).toHaveLength(1))
    expect(sentTo('/fe-co-api/order/order_cancel')[0]).toMatchObject({ symbol: 'BTCUSDT', orderId: '1001' })
    expect(await screen.findByText('Order cancelled')).toBeTruthy()
    // 45 orders are three pages of 20.
    fireEvent.click(within(screen.getByTestId('futures-open-orders-pager')).getByRole('button', { name: 'Next page' }))
    expect(onSearch).toHaveBeenCalledWith({ page: 2 })
  })

  it("shows the history's status, why the exchange ended an order, and the realized PnL", async () => {
    renderPage({ tab: 'history', symbol: 'BTCUSDT' })
    const rows = await screen.findAllByTestId('futures-order-row')
    expect(sentTo('/fe-co-api/order/history_order_list')[0]).toMatchObject({ symbol: 'BTCUSDT', page: 1, pageSize: 20 })
    expect(within(rows[0]).getByTestId('order-status').textContent).toBe('Cancelled')
    expect(within(rows[0]).getByTestId('order-reason').textContent).toBe('Would have traded at once (post only)')
    expect(within(rows[0]).getByText('Reduce only')).toBeTruthy()
    expect(within(rows[1]).getByTestId('order-status').textContent).toBe('Filled')
    expect(within(rows[1]).getByText('Close position')).toBeTruthy()
    expect(within(rows[1]).getByText('+12.5000')).toBeTruthy()
  })

  it('lists the trades with their fee and realized PnL, and narrows to one contract', async () => {
    const onSearch = renderPage({ tab: 'trades' })
    const [row] = await screen.findAllByTestId('futures-trade-row')
    expect(within(row).getByText('ETHUSDT')).toBeTruthy()
    expect(within(row).getByText('3 Cont')).toBeTruthy()
    expect(within(row).getByText('0.0450 USDT')).toBeTruthy()
    expect(within(row).getByText('-1.5000')).toBeTruthy()
    expect(within(row).getByText('Taker')).toBeTruthy()
    await waitFor(() => expect(screen.getByRole('option', { name: 'ETHUSDT' })).toBeTruthy())
    fireEvent.change(screen.getByRole('combobox', { name: 'Contract' }), { target: { value: 'ETHUSDT' } })
    expect(onSearch).toHaveBeenCalledWith({ tab: 'trades', symbol: 'ETHUSDT', page: undefined })
  })
})

describe('FuturesOrdersPage results and the other lists', () => {
  it('shows the results of the last 7 days, and of 1 or 30 days at a switch', async () => {
    renderPage()
    const stats = await screen.findByTestId('futures-stats')
    await waitFor(() => expect(within(stats).getByTestId('stats-net').textContent).toBe('+123.0500 USDT'))
    expect(sentTo('/fe-co-api/account_statistics')[0]).toEqual(expect.objectContaining({ coin: 'USDT', days: 7 }))
    expect(within(stats).getByTestId('stats-realized').textContent).toBe('+125.5000 USDT')
    expect(within(stats).getByTestId('stats-fees').textContent).toBe('3.2000 USDT')
    expect(within(stats).getByTestId('stats-funding').textContent).toBe('+0.7500 USDT')
    expect(within(stats).getByTestId('stats-trades').textContent).toBe('14')
    expect(within(stats).getByTestId('stats-volume').textContent).toBe('65,000.00 USDT')
    expect(within(stats).getByTestId('futures-stats-7d').getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(within(stats).getByRole('button', { name: '30D' }))
    await waitFor(() => expect(within(stats).getByTestId('stats-net').textContent).toBe('-53.7500 USDT'))
    expect(sentTo('/fe-co-api/account_statistics').at(-1)).toEqual(expect.objectContaining({ days: 30 }))
    expect(within(stats).getByTestId('stats-trades').textContent).toBe('210')
  })

  it('has the trigger orders, their history and the position history as tabs', async () => {
    serve({
      '/fe-co-api/common/public_info': PUBLIC_INFO,
      '/fe-co-api/order/trigger_order_list': { count: 0, triggerList: [] },
      '/fe-co-api/order/history_trigger_order_list': { count: 0, triggerList: [] },
      '/fe-co-api/position/history_position_list': { count: 0, positionList: [] },
    })
    const onSearch = renderPage({ tab: 'triggers' })
    expect(await screen.findByTestId('futures-trigger-orders-empty')).toBeTruthy()
    expect(sentTo('/fe-co-api/order/trigger_order_list')[0]).toMatchObject({ page: 1, pageSize: 20 })
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent)
    expect(tabs).toEqual(['Open orders', 'Trigger orders', 'Order history', 'Trigger history', 'Trade history', 'Position history'])
    fireEvent.click(screen.getByRole('tab', { name: 'Position history' }))
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ tab: 'positionHistory', page: undefined }))
  })
})

describe('order texts', () => {
  it('says a cancelled order that had filled in part so, and why the exchange ended one', () => {
    expect(statusKey({ status: 'CANCELED', dealVolume: 2 })).toBe('status.partCanceled')
    expect(statusKey({ status: 'FILLED', dealVolume: 2 })).toBe('status.FILLED')
    expect(reasonKey({ status: 'CANCELED', reason: 'canceled' })).toBeUndefined()
    expect(reasonKey({ status: 'CANCELED', reason: 'fok' })).toBe('reasons.fok')
    expect(reasonKey({ status: 'REJECTED', reason: 'new_reason' })).toBe('reasons.other')
    expect(reasonKey({ status: 'FILLED', reason: 'x' })).toBeUndefined()
  })
})
