import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import type { OrderView } from '../api/trade-api'
import { BTC_USDT } from '../test-pair'
import { UserOrders } from './user-orders'

const apiData = vi.hoisted(() => vi.fn())
const notifySuccess = vi.hoisted(() => vi.fn())
const notifyError = vi.hoisted(() => vi.fn())
vi.mock('@/lib/notify', async (orig) => ({ ...(await orig<typeof import('@/lib/notify')>()), notifySuccess, notifyError }))
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const market = {
  market: {
    USDT: {
      'BTC/USDT': { symbol: 'btcusdt', base: 'BTC', quote: 'USDT', showName: 'BTC/USDT', pricePrecision: 2, volumePrecision: 6, priceTick: '0.01', lotSize: '0.000001', minQty: '0.00001', minNotional: '5' },
    },
  },
}

const order = (over: Partial<OrderView>): OrderView => ({
  order_id: '501',
  symbol: 'btcusdt',
  side: 'SELL',
  type: 'LIMIT',
  price: '60000',
  volume: '0.01',
  deal_volume: '0.002',
  deal_money: '120',
  avg_price: '60000',
  status: 2,
  status_text: '',
  created_at: Date.now(),
  ...over,
})

let open: OrderView[] = []
let amendAnswer: () => unknown = () => ({})

const calls = (path: string) => apiData.mock.calls.filter((c) => c[0] === path).map((c) => c[1] as Record<string, unknown>)

describe('Amending an open order on the trade page', () => {
  beforeEach(() => {
    open = [order({}), order({ order_id: '502', type: 'MARKET', price: '0', volume: '0', quote_volume: '50', deal_volume: '0', status: 1 })]
    amendAnswer = () => {
      open = open.map((o) => (o.order_id === '501' ? { ...o, volume: '0.005' } : o))
      return {}
    }
    notifySuccess.mockReset()
    notifyError.mockReset()
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/common/public_info_market')) return market
      if (path.endsWith('/order/list/new')) return { count: open.length, orderList: open }
      if (path.endsWith('/order/amend')) return amendAnswer()
      return {}
    })
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  it('reduces the amount from a pencil beside it, checked before it is sent, by keyboard', async () => {
    renderWithApp(<UserOrders pair={BTC_USDT} />)
    await screen.findByTestId('open-orders-table')
    // The market order has nothing to amend: one pencil, named by its order.
    const pencils = screen.getAllByRole('button', { name: 'Reduce the amount of order 501' })
    expect(pencils).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Reduce the amount of order 502' })).toBeNull()
    act(() => pencils[0].focus())
    fireEvent.click(pencils[0])
    const dialog = await screen.findByRole('dialog')
    expect(dialog.getAttribute('data-testid')).toBe('amend-dialog')
    // Titled and described by the order it changes.
    expect(dialog.getAttribute('aria-labelledby') && document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe("Reduce the order's amount")
    const described = () => document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent
    await waitFor(() => expect(described()).toContain('BTC/USDT'))
    expect(described()).toContain('60,000.00 USDT')
    await waitFor(() => expect(within(dialog).getByTestId('amend-current').textContent).toBe('0.010000 BTC'))
    const input = within(dialog).getByLabelText('New amount')

    // Input it cleans says why: letters are dropped, decimals beyond the lot are cut (and announced).
    fireEvent.change(input, { target: { value: 'x0.0055' } })
    expect((input as HTMLInputElement).value).toBe('0.0055')
    expect(within(dialog).getByTestId('amend-amount-notice').textContent).toBe('Only digits and one decimal point')
    fireEvent.change(input, { target: { value: '0.00551234' } })
    expect((input as HTMLInputElement).value).toBe('0.005512')
    expect(within(dialog).getByTestId('amend-amount-notice').textContent).toBe('At most 6 decimals for this pair')
    expect(dialog.querySelector('[aria-live="polite"]')?.textContent).toBe('At most 6 decimals for this pair')
    fireEvent.change(input, { target: { value: '0.0055' } })
    expect(within(dialog).queryByTestId('amend-amount-notice')).toBeNull()

    // Not below what has filled; Enter submits the form.
    fireEvent.change(input, { target: { value: '0.002' } })
    fireEvent.submit(input.closest('form')!)
    expect((await within(dialog).findByTestId('amend-amount-error')).textContent).toBe('Enter less than the current amount (0.01) and more than the filled part (0.002)')
    // What is left to fill must be worth 5 USDT at the order's price.
    fireEvent.change(input, { target: { value: '0.00205' } })
    fireEvent.submit(input.closest('form')!)
    await waitFor(() => expect(within(dialog).getByTestId('amend-amount-error').textContent).toBe('What is left to fill must be worth at least 5 USDT'))
    expect(calls('/fe-ex-api/order/amend')).toEqual([])

    fireEvent.change(input, { target: { value: '0.005' } })
    fireEvent.submit(input.closest('form')!)
    await waitFor(() => expect(calls('/fe-ex-api/order/amend')).toEqual([{ symbol: 'btcusdt', order_id: '501', volume: '0.005' }]))
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Order amount reduced'))
    await waitFor(() => expect(screen.queryByTestId('amend-dialog')).toBeNull())
    await waitFor(() => expect(screen.getAllByTestId('order-row')[0].textContent).toContain('0.005000'))
  })

  it('stays open when the exchange refuses it, and says so when it cannot be reached', async () => {
    amendAnswer = () => {
      throw new ApiError({ code: '14020', msg: 'refused', data: null })
    }
    renderWithApp(<UserOrders pair={BTC_USDT} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Reduce the amount of order 501' }))
    const dialog = await screen.findByTestId('amend-dialog')
    const input = within(dialog).getByLabelText('New amount')
    fireEvent.change(input, { target: { value: '0.005' } })
    fireEvent.click(within(dialog).getByTestId('amend-submit'))
    await waitFor(() => expect(calls('/fe-ex-api/order/amend')).toHaveLength(1))
    // The request client showed the server's reason; the dialog waits for another amount.
    expect(screen.getByTestId('amend-dialog')).toBeTruthy()
    expect(notifyError).not.toHaveBeenCalled()
    amendAnswer = () => {
      throw new Error('Error: Network error')
    }
    fireEvent.click(within(dialog).getByTestId('amend-submit'))
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('The exchange could not be reached. Check your open orders and try again.'))
    expect(screen.getByTestId('amend-dialog')).toBeTruthy()
    // Keep as is closes it without a change.
    fireEvent.click(within(dialog).getByTestId('amend-keep'))
    await waitFor(() => expect(screen.queryByTestId('amend-dialog')).toBeNull())
    expect(notifySuccess).not.toHaveBeenCalled()
  })

  it('speaks Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<UserOrders pair={BTC_USDT} />)
    fireEvent.click(await screen.findByRole('button', { name: '501 захиалгын тоо хэмжээг багасгах' }))
    const dialog = await screen.findByTestId('amend-dialog')
    expect(within(dialog).getByText('Захиалгын тоо хэмжээг багасгах')).toBeTruthy()
    const input = within(dialog).getByLabelText('Шинэ тоо хэмжээ')
    await waitFor(() => expect(within(dialog).getByTestId('amend-current').textContent).toBe('0.010000 BTC'))
    fireEvent.change(input, { target: { value: '0.02' } })
    fireEvent.submit(input.closest('form')!)
    expect((await within(dialog).findByTestId('amend-amount-error')).textContent).toBe(
      'Шинэ тоо хэмжээ одоогийн тоо хэмжээнээс (0.01) бага, биелсэн хэмжээнээс (0.002) их байх ёстой',
    )
    expect(within(dialog).getByRole('button', { name: 'Багасгах' })).toBeTruthy()
  })
})
