import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { depthQuery } from '../api/trade-api'
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
    // Price, amount and the total from the best ask outward.
    expect(asks.map((b) => b.textContent)).toEqual(['103.001.0000001.750000', '102.000.5000000.750000', '101.000.2500000.250000'])
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

describe('OrderBook columns, spread and views', () => {
  const book = {
    asks: [
      ['101.00', '0.1'],
      ['102.00', '0.2'],
      ['103.00', '1.25'],
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

  const rowsOf = (testId: string) => Array.from(screen.getByTestId(testId).querySelectorAll('[data-row]'))
  const cells = (row: Element) => Array.from(row.querySelectorAll('span'), (s) => s.textContent)

  it('shows price, amount and the cumulative total in the base coin, with units in the headers', async () => {
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} />)
    await screen.findAllByTestId('book-buy')
    const book = screen.getByTestId('order-book')
    expect(within(book).getByText('Price (USDT)')).toBeTruthy()
    expect(within(book).getByText('Amount (BTC)')).toBeTruthy()
    expect(within(book).getByText('Total (BTC)')).toBeTruthy()
    // 0.1 + 0.2 summed as decimals, not floats; the totals grow from the best level (next to the spread) outward.
    expect(screen.getAllByTestId('book-sell').map(cells)).toEqual([
      ['103.00', '1.250000', '1.550000'],
      ['102.00', '0.200000', '0.300000'],
      ['101.00', '0.100000', '0.100000'],
    ])
    expect(screen.getAllByTestId('book-buy').map(cells)).toEqual([
      ['100.00', '0.500000', '0.500000'],
      ['99.00', '2.000000', '2.500000'],
    ])
    // The bars follow the totals, against the largest total shown (2.5).
    const bar = (row: HTMLElement) => (row.firstElementChild as HTMLElement).style.width || getComputedStyle(row.firstElementChild as HTMLElement).width
    expect(screen.getAllByTestId('book-buy').map(bar)).toEqual(['20%', '100%'])
    expect(screen.getAllByTestId('book-sell').map(bar)).toEqual(['62%', '12%', '4%'])
    // Screen readers hear what each figure is.
    expect(screen.getAllByTestId('book-buy')[1].getAttribute('aria-label')).toBe('Price 99.00 USDT, amount 2.000000 BTC, total 2.500000 BTC')
  })

  it('shows the last price and the spread between the sides', async () => {
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} />)
    await screen.findAllByTestId('book-buy')
    await waitFor(() => expect(screen.getByTestId('book-last').textContent).toBe('100.50'))
    // 101 − 100 = 1.00, of the mid 100.5 that is 0.995%.
    expect(screen.getByTestId('book-spread').textContent).toBe('Spread 1.00 (1.00%)')
    const sides = screen.getByTestId('book-asks').parentElement!
    expect(Array.from(sides.children).indexOf(screen.getByTestId('book-spread').parentElement!)).toBe(1)
  })

  it('switches between both sides, bids only and asks only, with twice the rows of one side', async () => {
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} rows={4} />)
    await screen.findAllByTestId('book-buy')
    const both = screen.getByRole('button', { name: 'Buy and sell orders' })
    const bidsOnly = screen.getByRole('button', { name: 'Buy orders only' })
    const asksOnly = screen.getByRole('button', { name: 'Sell orders only' })
    expect([both, bidsOnly, asksOnly].map((b) => b.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false'])
    expect(rowsOf('book-asks')).toHaveLength(4)
    expect(rowsOf('book-bids')).toHaveLength(4)

    fireEvent.click(screen.getByTestId('book-view-bids'))
    expect(bidsOnly.getAttribute('aria-pressed')).toBe('true')
    expect(both.getAttribute('aria-pressed')).toBe('false')
    expect(screen.queryByTestId('book-asks')).toBeNull()
    expect(screen.queryByTestId('book-sell')).toBeNull()
    expect(rowsOf('book-bids')).toHaveLength(8)
    expect(screen.getAllByTestId('book-buy')).toHaveLength(2)
    // The spread row heads the bids.
    expect(screen.getByTestId('book-spread')).toBeTruthy()

    fireEvent.click(screen.getByTestId('book-view-asks'))
    expect(asksOnly.getAttribute('aria-pressed')).toBe('true')
    expect(screen.queryByTestId('book-bids')).toBeNull()
    expect(rowsOf('book-asks')).toHaveLength(8)
    // The empty places are on top; the best ask stays last, next to the spread, and is the Tab stop.
    const asks = rowsOf('book-asks')
    expect(asks.slice(0, 5).every((r) => !r.hasAttribute('data-level'))).toBe(true)
    expect(asks[7].textContent).toContain('101.00')
    expect((asks[7] as HTMLButtonElement).tabIndex).toBe(0)

    fireEvent.click(screen.getByTestId('book-view-both'))
    expect(rowsOf('book-asks')).toHaveLength(4)
    expect(rowsOf('book-bids')).toHaveLength(4)
  })

  it('shows at most 20 levels a side', async () => {
    const many = Array.from({ length: 50 }, (_, i): [string, string] => [String(200 + i), '1'])
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/ticker') ? ticker : { asks: many, buys: many.map(([p, v]) => [String(Number(p) - 150), v]) }))
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} rows={30} />)
    await screen.findAllByTestId('book-buy')
    expect(screen.getAllByTestId('book-sell')).toHaveLength(20)
    expect(screen.getAllByTestId('book-buy')).toHaveLength(20)
    fireEvent.click(screen.getByTestId('book-view-asks'))
    expect(screen.getAllByTestId('book-sell')).toHaveLength(40)
  })

  it('keeps its rows when the live book shrinks, the empty places hidden and out of the keyboard', async () => {
    const { queryClient } = renderWithApp(<OrderBook pair={pair} onPick={() => {}} rows={5} />)
    await screen.findAllByTestId('book-buy')
    expect(rowsOf('book-asks')).toHaveLength(5)
    expect(rowsOf('book-bids')).toHaveLength(5)
    act(() => queryClient.setQueryData(depthQuery(pair.symbol, 0).queryKey, { asks: [['101.00', '0.1']], buys: [] }))
    await waitFor(() => expect(screen.queryAllByTestId('book-buy')).toHaveLength(0))
    expect(screen.getAllByTestId('book-sell')).toHaveLength(1)
    expect(rowsOf('book-asks')).toHaveLength(5)
    expect(rowsOf('book-bids')).toHaveLength(5)
    for (const row of rowsOf('book-bids')) {
      expect(row.getAttribute('aria-hidden')).toBe('true')
      expect(row.tagName).not.toBe('BUTTON')
      expect(row.hasAttribute('tabindex')).toBe(false)
    }
    // One side gone: the spread cannot be worked out.
    expect(screen.getByTestId('book-spread').textContent).toBe('Spread —')
  })

  it('clicking a level fills the price', async () => {
    const onPick = vi.fn()
    renderWithApp(<OrderBook pair={pair} onPick={onPick} />)
    fireEvent.click((await screen.findAllByTestId('book-buy'))[1])
    expect(onPick).toHaveBeenCalledWith('99.00')
    fireEvent.click(screen.getAllByTestId('book-sell')[2])
    expect(onPick).toHaveBeenLastCalledWith('101.00')
  })

  it('fills its parent: as many rows as fit the measured height', async () => {
    // 2 × 5 rows of 20 px and the 32 px spread row fit 240 px.
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 240, width: 280 } as DOMRect)
    try {
      renderWithApp(<OrderBook pair={pair} onPick={() => {}} rows={12} fill />)
      await screen.findAllByTestId('book-buy')
      await waitFor(() => expect(rowsOf('book-asks')).toHaveLength(5))
      expect(rowsOf('book-bids')).toHaveLength(5)
    } finally {
      rect.mockRestore()
    }
  })

  it('falls back to the rows asked for where nothing is measured', async () => {
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} rows={7} fill />)
    await screen.findAllByTestId('book-buy')
    expect(rowsOf('book-asks')).toHaveLength(7)
    expect(rowsOf('book-bids')).toHaveLength(7)
  })

  it('says it in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<OrderBook pair={pair} onPick={() => {}} />)
    await screen.findAllByTestId('book-buy')
    await waitFor(() => expect(within(screen.getByTestId('order-book')).getByText('Нийт (BTC)')).toBeTruthy())
    expect(within(screen.getByTestId('order-book')).getByText('Тоо хэмжээ (BTC)')).toBeTruthy()
    expect(screen.getByTestId('book-spread').textContent).toBe('Зөрүү 1.00 (1.00%)')
    expect(screen.getByRole('button', { name: 'Зөвхөн авах захиалга' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Авах захиалга' })).toBeTruthy()
  })
})
