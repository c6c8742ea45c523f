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
