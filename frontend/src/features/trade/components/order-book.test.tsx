import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { OrderBook } from './order-book'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('../api/use-market-channel', () => ({ useMarketChannel: () => {} }))

const pair = BTC_USDT

const ticker = { open: '100', high: '101', low: '99', close: '100.5', vol: '1', amount: '100', rose: '0.005' }

describe('OrderBook states', () => {
  beforeEach(() => {
    apiData.mockReset()
  })

  it('says the book could not be loaded and retries, instead of calling it empty', async () => {
    let depthCalls = 0
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/market/ticker')) return ticker
      if (path.endsWith('/market/depth')) {
        depthCalls += 1
        if (depthCalls === 1) throw new ApiError({ code: '500', msg: 'Server error', data: null })
        return { buys: [['100.00', '0.5']], asks: [['101.00', '0.25']] }
      }
      return {}
    })
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} />)
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-testid')).toBe('book-error')
    expect(alert.textContent).toContain('The order book could not be loaded')
    expect(screen.queryByTestId('book-empty')).toBeNull()
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('book-buy')).toBeTruthy()
    expect(screen.getByTestId('book-sell').textContent).toContain('101.00')
    expect(screen.queryByTestId('book-error')).toBeNull()
    expect(depthCalls).toBe(2)
  })

  it('calls an empty book empty', async () => {
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/market/ticker')) return ticker
      if (path.endsWith('/market/depth')) return { buys: [], asks: [] }
      return {}
    })
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} />)
    expect((await screen.findByTestId('book-empty')).textContent).toBe('The order book is empty')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows the error in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/market/depth')) throw new ApiError({ code: '500', msg: 'Server error', data: null })
      return ticker
    })
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Захиалгын дэвтрийг ачаалж чадсангүй')
    await waitFor(() => expect(within(alert).getByRole('button', { name: 'Дахин оролдох' })).toBeTruthy())
  })
})
