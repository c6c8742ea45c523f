import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { ApiError } from '@/lib/request-client'
import type { SpotOrder, SpotTrade } from '../api/orders-api'
import { OrderPage } from './order-page'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
const notify = vi.hoisted(() => ({ notifyError: vi.fn(), notifySuccess: vi.fn() }))
vi.mock('@/lib/notify', () => notify)

const filled: SpotOrder = {
  order_id: '3001',
  client_order_id: 'my-bot-7',
  symbol: 'btcusdt',
  side: 'BUY',
  type: 'LIMIT',
  price: '30000',
  volume: '0.002',
  deal_volume: '0.002',
  deal_money: '60.2087',
  avg_price: '30100',
  fee: '0.000002',
  fee_coin: 'BTC',
  status: 3,
  status_text: 'FILLED',
  created_at: new Date(2024, 4, 1, 9, 30, 0).getTime(),
  updated_at: new Date(2024, 4, 1, 9, 31, 0).getTime(),
}

const fills: SpotTrade[] = [
  { trade_id: 't1', order_id: '3001', symbol: 'btcusdt', side: 'BUY', role: 'MAKER', price: '30000', volume: '0.001', deal_money: '30', fee: '0.000001', fee_coin: 'BTC', created_at: filled.created_at },
  { trade_id: 't2', order_id: '3001', symbol: 'btcusdt', side: 'BUY', role: 'TAKER', price: '30200', volume: '0.001', deal_money: '30.2087', fee: '0.000001', fee_coin: 'BTC', created_at: filled.updated_at! },
]

const market = {
  market: { USDT: { 'BTC/USDT': { symbol: 'btcusdt', base: 'BTC', quote: 'USDT', showName: 'BTC/USDT', pricePrecision: 2, lotSize: '0.000001' } } },
}

let orders: Record<string, SpotOrder> = {}

async function route(path: string, body: Record<string, unknown>) {
  switch (path) {
    case '/fe-ex-api/common/public_info_market':
      return market
    case '/fe-ex-api/order/detail': {
      const o = orders[String(body.order_id)]
      if (!o) throw new ApiError({ code: '14014', msg: 'Order not found', data: null })
      return o
    }
    case '/fe-ex-api/trade/list_by_order':
      return { count: 0, tradeList: fills.filter((f) => f.order_id === body.order_id) }
    case '/fe-ex-api/order/cancel':
      return null
    case '/fe-ex-api/order/amend':
      orders[String(body.order_id)] = { ...orders[String(body.order_id)], volume: String(body.volume) }
      return null
    default:
      return {}
  }
}

const calls = (path: string) => apiData.mock.calls.filter((c) => c[0] === path).map((c) => c[1] as Record<string, unknown>)

describe('OrderPage', () => {
  beforeEach(() => {
    apiData.mockReset()
    notify.notifyError.mockReset()
    notify.notifySuccess.mockReset()
    apiData.mockImplementation((path: string, body: Record<string, unknown>) => route(path, body))
    orders = { '3001': filled, '3002': { ...filled, order_id: '3002', client_order_id: undefined, deal_volume: '0', deal_money: '0', avg_price: '0', fee: '0', status: 1, status_text: 'NEW' } }
  })

  it("shows an order's fields and fills, with a back link to the list as it was filtered", async () => {
    renderWithApp(<OrderPage orderId="3001" search={{ tab: 'history', status: 3, page: 2 }} />)
    expect(await screen.findByRole('heading', { level: 1, name: 'Order details' })).toBeTruthy()
    const heading = await screen.findByTestId('order-detail-heading')
    await waitFor(() => expect(heading.textContent).toContain('BTC/USDT'))
    expect(within(heading).getByTestId('order-side').textContent).toBe('Buy')
    expect(within(heading).getByTestId('order-status').textContent).toBe('Filled')
    const summary = screen.getByRole('region', { name: 'Order summary' })
    expect(within(summary).getByTestId('order-detail-order-id').textContent).toContain('3001')
    expect(within(summary).getByTestId('order-detail-price').textContent).toContain('30,000.00')
    expect(within(summary).getByTestId('order-detail-amount').textContent).toContain('0.002000')
    expect(within(summary).getByTestId('order-detail-avg').textContent).toContain('30,100.00')
    // Totals round half up, as on the trade page (60.2087 -> 60.21, not 60.20).
    expect(within(summary).getByTestId('order-detail-total').textContent).toContain('60.21 USDT')
    expect(within(summary).getByTestId('order-detail-fee').textContent).toContain('0.00000200 BTC')
    expect(within(summary).getByTestId('order-detail-created').textContent).toContain('2024-05-01 09:30:00')
    expect(within(summary).getByTestId('order-detail-client-id').textContent).toContain('my-bot-7')

    const rows = await screen.findAllByTestId('order-fill')
    expect(rows).toHaveLength(2)
    expect(rows[0].textContent).toContain('Maker')
    expect(rows[1].textContent).toContain('30,200.00')
    expect(rows[1].textContent).toContain('30.21')
    expect(rows[1].textContent).toContain('0.00000100 BTC')
    expect(calls('/fe-ex-api/order/detail')).toEqual([{ order_id: '3001' }])
    expect(calls('/fe-ex-api/trade/list_by_order')).toEqual([{ order_id: '3001' }])

    expect(screen.getByTestId('order-back').getAttribute('href')).toBe('/order/spot?tab=history&status=3&page=2')
    expect(screen.getByTestId('order-trade-link').getAttribute('href')).toBe('/trade/BTC_USDT')
    // A finished order cannot be cancelled.
    expect(screen.queryByTestId('order-page-cancel')).toBeNull()
    expect(notify.notifyError).not.toHaveBeenCalled()
  })

  it('shows a loading state until the order arrives', async () => {
    let answer: (o: SpotOrder) => void = () => {}
    apiData.mockImplementation((path: string, body: Record<string, unknown>) =>
      path === '/fe-ex-api/order/detail' ? new Promise<SpotOrder>((resolve) => (answer = resolve)) : route(path, body),
    )
    renderWithApp(<OrderPage orderId="3001" search={{}} />)
    expect(await screen.findByRole('status', { name: 'Loading the order…' })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Order details')
    expect(screen.queryByTestId('order-detail-heading')).toBeNull()
    answer(filled)
    expect(await screen.findByTestId('order-detail-heading')).toBeTruthy()
    expect(screen.queryByTestId('order-page-loading')).toBeNull()
  })

  it('says clearly when the order is not found, without an error toast', async () => {
    renderWithApp(<OrderPage orderId="999999" search={{}} />)
    const box = await screen.findByTestId('order-not-found')
    expect(within(box).getByRole('heading', { level: 1 }).textContent).toBe('Order not found')
    expect(box.textContent).toContain('There is no order 999999 in your account')
    expect(within(box).getByRole('link', { name: 'Back to your orders' }).getAttribute('href')).toBe('/order/spot')
    expect(calls('/fe-ex-api/order/detail')).toHaveLength(1)
    // Its fills are not asked for, and nothing is toasted.
    expect(calls('/fe-ex-api/trade/list_by_order')).toHaveLength(0)
    expect(notify.notifyError).not.toHaveBeenCalled()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('does not ask the server about an address that cannot be an order id', async () => {
    renderWithApp(<OrderPage orderId="not-an-order" search={{ tab: 'open' }} />)
    expect(await screen.findByTestId('order-not-found')).toBeTruthy()
    expect(screen.getByTestId('order-not-found-back').getAttribute('href')).toBe('/order/spot?tab=open')
    expect(calls('/fe-ex-api/order/detail')).toHaveLength(0)
  })

  it('shows one error toast and a retry when the order cannot be loaded', async () => {
    apiData.mockImplementation(async (path: string, body: Record<string, unknown>) => {
      if (path === '/fe-ex-api/order/detail') throw new Error('Error: offline')
      return route(path, body)
    })
    renderWithApp(<OrderPage orderId="3001" search={{}} />)
    const alert = await screen.findByTestId('order-page-error')
    expect(alert.textContent).toContain('The order could not be loaded')
    expect(notify.notifyError).toHaveBeenCalledTimes(1)
    expect(notify.notifyError).toHaveBeenCalledWith('The order could not be loaded')
    apiData.mockImplementation((path: string, body: Record<string, unknown>) => route(path, body))
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('order-detail-heading')).toBeTruthy()
    expect(notify.notifyError).toHaveBeenCalledTimes(1)
  })

  it('cancels an open order from its page', async () => {
    renderWithApp(<OrderPage orderId="3002" search={{}} />)
    await screen.findByTestId('order-detail-heading')
    expect(await screen.findByTestId('order-fills-empty')).toBeTruthy()
    expect(screen.getByTestId('order-detail-price').textContent).toContain('30,000.00')
    expect(screen.getByTestId('order-detail-avg').textContent).toContain('—')
    const before = calls('/fe-ex-api/order/detail').length
    orders['3002'] = { ...orders['3002'], status: 4, status_text: 'CANCELLED' }
    fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }))
    await waitFor(() => expect(calls('/fe-ex-api/order/cancel')).toEqual([{ symbol: 'btcusdt', order_id: '3002' }]))
    expect(notify.notifySuccess).toHaveBeenCalledWith('Order cancelled')
    // The order is read again and shows its new state.
    await waitFor(() => expect(screen.getByTestId('order-status').textContent).toBe('Cancelled'))
    expect(calls('/fe-ex-api/order/detail').length).toBeGreaterThan(before)
    expect(screen.queryByTestId('order-page-cancel')).toBeNull()
  })

  it('reduces an open limit order from its page and shows the new amount', async () => {
    renderWithApp(<OrderPage orderId="3002" search={{}} />)
    await screen.findByTestId('order-detail-heading')
    await waitFor(() => expect(screen.getByTestId('order-detail-amount').textContent).toContain('0.002000'))
    fireEvent.click(screen.getByTestId('order-page-amend'))
    const dialog = await screen.findByTestId('amend-dialog')
    fireEvent.change(within(dialog).getByLabelText('New amount'), { target: { value: '0.001' } })
    fireEvent.click(within(dialog).getByTestId('amend-submit'))
    await waitFor(() => expect(calls('/fe-ex-api/order/amend')).toEqual([{ symbol: 'btcusdt', order_id: '3002', volume: '0.001' }]))
    await waitFor(() => expect(screen.queryByTestId('amend-dialog')).toBeNull())
    await waitFor(() => expect(screen.getByTestId('order-detail-amount').textContent).toContain('0.001000'))
  })

  it('offers no amend for a finished order nor for an open market order', async () => {
    orders['3003'] = { ...orders['3002'], order_id: '3003', type: 'MARKET', price: '0' }
    const first = renderWithApp(<OrderPage orderId="3001" search={{}} />)
    await screen.findByTestId('order-detail-heading')
    expect(screen.queryByTestId('order-page-amend')).toBeNull()
    first.unmount()
    renderWithApp(<OrderPage orderId="3003" search={{}} />)
    await screen.findByTestId('order-page-cancel')
    expect(screen.queryByTestId('order-page-amend')).toBeNull()
  })

  // BTC/MNT prices have no decimals; the total is tugriks, with MNT's 2 places.
  it('shows the total of an MNT pair in tugriks and why the exchange ended the order', async () => {
    apiData.mockImplementation((path: string, body: Record<string, unknown>) =>
      path === '/fe-ex-api/common/public_info_market'
        ? {
            coinList: { MNT: { showPrecision: 2 } },
            market: { MNT: { 'BTC/MNT': { symbol: 'btcmnt', base: 'BTC', quote: 'MNT', showName: 'BTC/MNT', pricePrecision: 0, priceTick: '1', lotSize: '0.000001' } } },
          }
        : route(path, body),
    )
    orders['3004'] = { ...filled, order_id: '3004', symbol: 'btcmnt', price: '334884288', avg_price: '334884288', deal_volume: '0.000015', deal_money: '5023.26432', status: 4, status_text: 'CANCELLED', end_reason: 'stp' }
    renderWithApp(<OrderPage orderId="3004" search={{}} />)
    await waitFor(() => expect(screen.getByTestId('order-detail-total').textContent).toContain('5,023.26 MNT'))
    expect(screen.getByTestId('order-detail-avg').textContent).toContain('334,884,288')
    expect(screen.getByTestId('order-detail-reason').textContent).toContain('Would have traded with your own order')
  })
})
