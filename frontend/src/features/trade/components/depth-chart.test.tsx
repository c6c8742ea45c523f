import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { chartColors } from './chart/colors'
import { cumulate, DepthChart, depthModel, totalAt } from './depth-chart'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
const handlers = vi.hoisted(() => new Map<string, (m: { tick?: unknown }) => void>())
vi.mock('../api/use-market-channel', () => ({
  useMarketChannel: (channel: string | undefined, onMessage: (m: { tick?: unknown }) => void) => {
    if (channel) handlers.set(channel, onMessage)
  },
}))

// Bids 99 × 1 and 98 × 2, asks 101 × 1.5 and 103 × 0.5: mid 100; the bids reach 2 below it, the asks 3 above,
// so the chart shows 98 … 102 and the ask at 103 is beyond its right edge.
const BOOK = {
  buys: [
    ['99', '1'],
    ['98', '2'],
  ] as [string, string][],
  asks: [
    ['103', '0.5'],
    ['101', '1.5'],
  ] as [string, string][],
}

describe('depth model', () => {
  it('cumulates each side from its best price', () => {
    expect(cumulate(BOOK.buys, 'bids')).toEqual([
      { price: 99, total: 1 },
      { price: 98, total: 3 },
    ])
    expect(cumulate(BOOK.asks, 'asks')).toEqual([
      { price: 101, total: 1.5 },
      { price: 103, total: 2 },
    ])
    // Rows that are not numbers, or empty, are left out.
    expect(cumulate([['x', '1'], ['5', '0'], ['4', '2']], 'bids')).toEqual([{ price: 4, total: 2 }])
  })

  it('centres the range on the mid price, as wide as the shallower side', () => {
    expect(depthModel(BOOK)).toMatchObject({ mid: 100, min: 98, max: 102, maxTotal: 3 })
    expect(depthModel({ buys: [], asks: [] })).toBeUndefined()
    // One side only: centred on its best price.
    expect(depthModel({ buys: [['10', '1'], ['8', '1']], asks: [] })).toMatchObject({ mid: 10, min: 8, max: 12, maxTotal: 2 })
  })

  it('reads the cumulative amount at a price', () => {
    const bids = cumulate(BOOK.buys, 'bids')
    const asks = cumulate(BOOK.asks, 'asks')
    expect([99.5, 99, 98.5, 98, 90].map((p) => totalAt(bids, p, 'bids'))).toEqual([0, 1, 1, 3, 3])
    expect([100, 101, 102, 103].map((p) => totalAt(asks, p, 'asks'))).toEqual([0, 1.5, 1.5, 2])
  })
})

/** The corners of an SVG path of M, V and H commands. */
function corners(d: string): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = []
  let x = 0
  let y = 0
  for (const [, cmd, args] of d.matchAll(/([MVHZ])([^MVHZ]*)/g)) {
    if (cmd === 'M') [x, y] = args.split(',').map(Number)
    else if (cmd === 'V') y = Number(args)
    else if (cmd === 'H') x = Number(args)
    else continue
    out.push({ x, y })
  }
  return out
}

describe('DepthChart', () => {
  beforeEach(() => {
    apiData.mockReset()
    handlers.clear()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/depth') ? BOOK : {}))
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  it('draws the bids stepping left and the asks stepping right from the mid price, in the up and down colours', async () => {
    renderWithApp(<DepthChart pair={BTC_USDT} height={300} />)
    const bids = await screen.findByTestId('depth-bids')
    const asks = screen.getByTestId('depth-asks')
    const colors = chartColors('light')
    expect(bids.getAttribute('stroke')).toBe(colors.up)
    expect(asks.getAttribute('stroke')).toBe(colors.down)
    expect(screen.getByTestId('depth-bids-area').getAttribute('fill')).toBe(`${colors.up}33`)
    expect(screen.getByTestId('depth-asks-area').getAttribute('fill')).toBe(`${colors.down}33`)

    const b = corners(bids.getAttribute('d')!)
    const a = corners(asks.getAttribute('d')!)
    const base = b[0].y
    const mid = Number(screen.getByTestId('depth-mid').querySelector('line')!.getAttribute('x1'))
    // Each side starts on the base line at its best price, either side of the mid price, and goes outwards.
    expect(a[0].y).toBe(base)
    expect(b[0].x).toBeLessThan(mid)
    expect(a[0].x).toBeGreaterThan(mid)
    expect(b.map((p) => p.x)).toEqual([...b.map((p) => p.x)].sort((x, y) => y - x))
    expect(a.map((p) => p.x)).toEqual([...a.map((p) => p.x)].sort((x, y) => x - y))
    // The mid price halfway between the edges; best bid 99 and best ask 101 as far from it.
    const left = b[b.length - 1].x
    const right = a[a.length - 1].x
    expect(mid).toBeCloseTo((left + right) / 2, 6)
    expect(mid - b[0].x).toBeCloseTo(a[0].x - mid, 6)
    // Heights: bids 1 then 3 (the top of the chart less its headroom), asks 1.5 only (103 is beyond the edge).
    const h = (y: number) => base - y
    expect(b.map((p) => Number((h(p.y) / h(b[b.length - 1].y)).toFixed(6)))).toEqual([0, 1 / 3, 1 / 3, 1, 1].map((v) => Number(v.toFixed(6))))
    expect(h(a[a.length - 1].y) / h(b[b.length - 1].y)).toBeCloseTo(0.5, 6)
    expect(a).toHaveLength(3) // base, up to 1.5, across to the edge
    // The price axis from 98 to 102 and the mid price marked.
    expect(screen.getAllByTestId('depth-x-label').map((e) => e.textContent)).toEqual(['98.00', '99.00', '100.00', '101.00', '102.00'])
    expect(screen.getByTestId('depth-mid').textContent).toBe('Mid 100.00')
    expect(screen.getByTestId('depth-svg').getAttribute('aria-label')).toContain('best bid 99.00, best ask 101.00')
  })

  it('reads the price and cumulative amount under the pointer and with the arrow keys', async () => {
    renderWithApp(<DepthChart pair={BTC_USDT} height={300} />)
    const svg = await screen.findByTestId('depth-svg')
    const b = corners(screen.getByTestId('depth-bids').getAttribute('d')!)
    const left = b[b.length - 1].x
    const mid = Number(screen.getByTestId('depth-mid').querySelector('line')!.getAttribute('x1'))
    const xOf = (price: number) => left + ((price - 98) / 4) * 2 * (mid - left)
    expect(screen.getByTestId('depth-readout').textContent).toBe('Point at the chart to read the depth')

    fireEvent.pointerMove(svg, { clientX: xOf(98.5) })
    expect(screen.getByTestId('depth-readout').textContent).toBe('BidsPrice 98.50Total (BTC) 1.000000')
    expect(screen.getByTestId('depth-cursor')).toBeTruthy()
    fireEvent.pointerMove(svg, { clientX: xOf(101.5) })
    expect(screen.getByTestId('depth-readout-price').textContent).toBe('101.50')
    expect(screen.getByTestId('depth-readout-total').textContent).toBe('1.500000')
    fireEvent.pointerLeave(svg)
    expect(screen.queryByTestId('depth-cursor')).toBeNull()

    // Keyboard: from the mid price one step (a fiftieth of the range) at a time; Home goes to the left edge.
    expect(svg.getAttribute('tabindex')).toBe('0')
    fireEvent.keyDown(svg, { key: 'ArrowLeft' })
    expect(screen.getByTestId('depth-readout-price').textContent).toBe('99.92')
    fireEvent.keyDown(svg, { key: 'Home' })
    expect(screen.getByTestId('depth-readout').textContent).toBe('BidsPrice 98.00Total (BTC) 3.000000')
    fireEvent.keyDown(svg, { key: 'Escape' })
    expect(screen.queryByTestId('depth-cursor')).toBeNull()
  })

  it('follows the live book', async () => {
    renderWithApp(<DepthChart pair={BTC_USDT} height={300} />)
    await screen.findByTestId('depth-bids')
    act(() => handlers.get('market_btcusdt_depth_step0')!({ tick: { buys: [['199', '2']], asks: [['201', '2']] } }))
    await waitFor(() => expect(screen.getByTestId('depth-mid').textContent).toBe('Mid 200.00'))
  })

  it('says an empty book is empty, in Mongolian too', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    apiData.mockResolvedValue({ buys: [], asks: [] })
    renderWithApp(<DepthChart pair={BTC_USDT} height={300} />)
    expect((await screen.findByTestId('depth-empty')).textContent).toBe('Захиалгын дэвтэр хоосон байна')
    expect(screen.queryByTestId('depth-bids')).toBeNull()
  })
})
