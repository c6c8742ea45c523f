import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { CODE_ORDER_NOT_FOUND, isOrderId, OPEN_REFRESH_MS, type SpotOrder } from './orders-api'
import { useOrderDetail } from './use-order-detail'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))

const order: SpotOrder = {
  order_id: '77',
  symbol: 'btcusdt',
  side: 'BUY',
  type: 'LIMIT',
  price: '30000',
  volume: '0.01',
  deal_volume: '0.01',
  deal_money: '300',
  avg_price: '30000',
  status: 3,
  status_text: 'FILLED',
  created_at: 1_700_000_000_000,
}

/** A fresh query cache per render call (not per render: the wrapper re-renders). */
function newWrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>
  }
}

const notFound = () => new ApiError({ code: CODE_ORDER_NOT_FOUND, msg: 'Order not found', data: null })

describe('useOrderDetail', () => {
  // A block body: a function returned from beforeEach would run as its cleanup.
  beforeEach(() => {
    apiData.mockReset()
  })

  it('reads one order by id through /order/detail', async () => {
    apiData.mockResolvedValue(order)
    const { result } = renderHook(() => useOrderDetail('77'), { wrapper: newWrapper() })
    expect(result.current.status).toBe('loading')
    await waitFor(() => expect(result.current.status).toBe('ready'))
    expect(result.current.status === 'ready' && result.current.order).toEqual(order)
    expect(apiData).toHaveBeenCalledTimes(1)
    expect(apiData.mock.calls[0][0]).toBe('/fe-ex-api/order/detail')
    expect(apiData.mock.calls[0][1]).toEqual({ order_id: '77' })
    // Silent: the page, not the request client, decides what to say.
    expect(apiData.mock.calls[0][2]).toMatchObject({ silent: true })
  })

  it('says "not found" for 14014 and does not ask again', async () => {
    apiData.mockImplementation(async () => {
      throw notFound()
    })
    const { result } = renderHook(() => useOrderDetail('78'), { wrapper: newWrapper() })
    await waitFor(() => expect(result.current.status).toBe('notFound'))
    expect(apiData).toHaveBeenCalledTimes(1)
  })

  it('does not send an id that cannot be an order id', async () => {
    for (const id of ['abc', '0', '-1', '1'.repeat(25), '12 34']) {
      const { result } = renderHook(() => useOrderDetail(id), { wrapper: newWrapper() })
      expect(result.current.status, id).toBe('notFound')
    }
    expect(apiData).not.toHaveBeenCalled()
    expect(isOrderId('1'.repeat(24))).toBe(true)
  })

  it('offers a retry when the order could not be read', async () => {
    apiData.mockImplementationOnce(async () => {
      throw new Error('Error: offline')
    })
    const { result } = renderHook(() => useOrderDetail('79'), { wrapper: newWrapper() })
    await waitFor(() => expect(result.current.status).toBe('error'))
    apiData.mockResolvedValueOnce({ ...order, order_id: '79' })
    act(() => {
      if (result.current.status === 'error') result.current.retry()
    })
    await waitFor(() => expect(result.current.status).toBe('ready'))
    expect(apiData).toHaveBeenCalledTimes(2)
  })
})

describe('useOrderDetail refresh', () => {
  beforeEach(() => {
    apiData.mockReset()
    vi.useFakeTimers({ shouldAdvanceTime: true })
  })
  afterEach(() => vi.useRealTimers())

  it('polls an open order, and stops once it has finished', async () => {
    apiData.mockResolvedValue({ ...order, status: 1, deal_volume: '0' })
    const { result } = renderHook(() => useOrderDetail('80'), { wrapper: newWrapper() })
    await waitFor(() => expect(result.current.status).toBe('ready'))
    expect(apiData).toHaveBeenCalledTimes(1)
    apiData.mockResolvedValue(order)
    await act(() => vi.advanceTimersByTimeAsync(OPEN_REFRESH_MS))
    await waitFor(() => expect(result.current.status === 'ready' && result.current.order.status).toBe(3))
    expect(apiData).toHaveBeenCalledTimes(2)
    // Filled now: no more requests.
    await act(() => vi.advanceTimersByTimeAsync(OPEN_REFRESH_MS * 3))
    expect(apiData).toHaveBeenCalledTimes(2)
  })
})
