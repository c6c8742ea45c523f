import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
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

describe('OrderBook precision steps', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/ticker') ? ticker : { buys: [], asks: [] }))
  })

  // BTC/MNT merges on 1, 10,000 and 100,000 MNT: the choices read like every other amount on the page.
  it('names the steps grouped in thousands', async () => {
    renderWithApp(<OrderBook pair={{ ...pair, symbol: 'btcmnt', quote: 'MNT', priceTick: '1', pricePrecision: 0, depthSteps: ['1', '10000', '100000'] }} onPick={() => {}} />)
    const select = await screen.findByRole('combobox', { name: 'Price grouping' })
    expect(Array.from((select as HTMLSelectElement).options, (o) => [o.value, o.textContent])).toEqual([
      ['0', '1'],
      ['1', '10,000'],
      ['2', '100,000'],
    ])
  })
})

describe('OrderBook by keyboard', () => {
  const book = {
    asks: [
      ['101.00', '0.25'],
      ['102.00', '0.5'],
      ['103.00', '1'],
    ],
    buys: [
      ['100.00', '0.5'],
      ['99.00', '2'],
    ],
  }
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/ticker') ? ticker : book))
  })

  // 24 levels were 24 Tab stops between the chart and the order form.
  it('is one Tab stop, at the best ask, with the arrow keys between levels and Enter picking one', async () => {
    const onPick = vi.fn()
    renderWithApp(<OrderBook pair={pair} onPick={onPick} />)
    await screen.findAllByTestId('book-buy')
    const asks = within(screen.getByRole('group', { name: 'Sell orders' })).getAllByRole('button')
    const bids = within(screen.getByRole('group', { name: 'Buy orders' })).getAllByRole('button')
    const all = [...asks, ...bids]
    // Asks show highest first: the best ask (101) sits last, next to the spread.
    expect(asks.map((b) => b.textContent)).toEqual(['103.001.000000', '102.000.500000', '101.000.250000'])
    expect(all.filter((b) => b.tabIndex === 0)).toEqual([asks[2]])
    act(() => asks[2].focus())
    fireEvent.keyDown(asks[2], { key: 'ArrowDown' })
    expect(document.activeElement).toBe(bids[0])
    // The stop follows the focus, so Tab comes back to where the user was.
    await waitFor(() => expect(all.filter((b) => b.tabIndex === 0)).toEqual([bids[0]]))
    fireEvent.keyDown(bids[0], { key: 'End' })
    expect(document.activeElement).toBe(bids[1])
    fireEvent.keyDown(bids[1], { key: 'Home' })
    expect(document.activeElement).toBe(asks[0])
    fireEvent.keyDown(asks[0], { key: 'ArrowUp' })
    expect(document.activeElement).toBe(asks[0])
    fireEvent.click(asks[0])
    expect(onPick).toHaveBeenCalledWith('103.00')
  })
})
