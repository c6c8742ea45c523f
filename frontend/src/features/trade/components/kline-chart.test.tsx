import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { system } from '@/components/ui/theme'
import { contrast } from '@/test/contrast'
import type { TradePair } from '../api/trade-api'
import { drawingsKey } from './chart/drawings'
import { fakeCharts, type FakeChart } from './chart/lightweight-charts.mock'
import { CHART_TYPE_KEY, INDICATORS_KEY } from './chart/settings'
import { localChartTime } from './format'
import { chartColors, KlineChart } from './kline-chart'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
// The live channels the chart listens to, so the test can push a candle.
const handlers = vi.hoisted(() => new Map<string, (m: { tick?: unknown }) => void>())
vi.mock('../api/use-market-channel', () => ({
  useMarketChannel: (channel: string | undefined, onMessage: (m: { tick?: unknown }) => void) => {
    if (channel) handlers.set(channel, onMessage)
  },
}))
// jsdom has no canvas: the chart library is a stand-in that keeps what it was told.
vi.mock('lightweight-charts', () => import('./chart/lightweight-charts.mock'))

// 30 rising 15-minute candles; candle 5 falls (110 → 105).
const T0 = 1_699_999_200
const CANDLES = Array.from({ length: 30 }, (_, i) => {
  const [open, close] = i === 5 ? [110, 105] : [100 + i, 101 + i]
  return { id: T0 + i * 900, open: String(open), high: String(Math.max(open, close) + 1), low: String(Math.min(open, close) - 1), close: String(close), vol: String(i + 1) }
})
const BOOK = { buys: [['99', '1'], ['98', '2']], asks: [['101', '1.5'], ['103', '0.5']] }

function serve(candles: unknown = CANDLES) {
  apiData.mockImplementation(async (path: string) => {
    if (path.endsWith('/market/kline')) return candles
    if (path.endsWith('/market/depth')) return BOOK
    return {}
  })
}

const text = (id: string) => screen.getByTestId(id).textContent
const chart = (): FakeChart => fakeCharts.last()

/** Renders the chart of the 30 candles and waits for the chart to hold them. */
async function renderLoaded(pair: TradePair = BTC_USDT) {
  serve()
  fakeCharts.reset()
  const r = renderWithApp(<KlineChart pair={pair} />)
  await waitFor(() => expect(chart().main()?.data).toHaveLength(CANDLES.length))
  return r
}

async function openMenu(trigger: string, menu: string) {
  const button = screen.getByTestId(trigger)
  fireEvent.click(button)
  return await screen.findByTestId(menu)
}

beforeEach(() => {
  apiData.mockReset()
  handlers.clear()
  fakeCharts.reset()
})
afterEach(() => {
  document.cookie = 'lan=en_US; path=/'
})

describe('KlineChart states', () => {
  // The chart's canvas fills the same box: a note under it was never seen.
  it('says a pair without candles has none, above the chart, until the first live candle is drawn', async () => {
    serve([])
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    const empty = await screen.findByTestId('kline-empty')
    expect(empty.textContent).toBe('No candles yet')
    expect(getComputedStyle(empty).zIndex).toBe('1')
    const push = handlers.get('market_btcusdt_kline_15min')!
    act(() => push({ tick: { id: 1_700_000_100, open: '1', high: '2', low: '1', close: '2', vol: '0.5' } }))
    await waitFor(() => expect(chart().main().update).toHaveBeenCalledWith(expect.objectContaining({ close: 2 })))
    await waitFor(() => expect(screen.queryByTestId('kline-empty')).toBeNull())
  })

  it('shows its error above the chart', async () => {
    apiData.mockRejectedValue(new Error('Error: Network error'))
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    expect(getComputedStyle(await screen.findByTestId('kline-error')).zIndex).toBe('1')
  })

  // The licence asks for TradingView named with a link to tradingview.com; the library's logo was titled in English only.
  it.each([
    ['en_US', 'Charting by TradingView', 'Charting by TradingView (opens tradingview.com in a new tab)'],
    ['mn_MN', 'TradingView-ийн график', 'TradingView-ийн график (tradingview.com шинэ цонхонд нээгдэнэ)'],
  ])('credits TradingView with a link to tradingview.com in the page language (%s)', async (lan, words, label) => {
    document.cookie = `lan=${lan}; path=/`
    serve([])
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    const link = await screen.findByTestId('kline-attribution')
    expect(link.textContent).toBe(words)
    expect(link.getAttribute('aria-label')).toBe(label)
    expect(link.getAttribute('href')).toBe('https://www.tradingview.com/')
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toContain('noopener')
    // The library's English-only logo is off: one attribution, not two.
    expect(chart().options).toMatchObject({ layout: { attributionLogo: false } })
  })

  // The licence also asks for the NOTICE file's attribution notice: in English as written, in translated words.
  it.each([
    ['en_US', 'Chart library: '],
    ['mn_MN', 'Графикийн сан: '],
  ])("shows the library's NOTICE under the chart and as the link's tooltip (%s)", async (lan, words) => {
    document.cookie = `lan=${lan}; path=/`
    serve([])
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    const notice = `${words}TradingView Lightweight Charts™ Copyright (с) 2025 TradingView, Inc. https://www.tradingview.com/`
    expect((await screen.findByTestId('kline-notice')).textContent).toBe(notice)
    expect(screen.getByTestId('kline-attribution').getAttribute('title')).toBe(notice)
    // Below the chart's canvas, not over the candles.
    expect(screen.getByTestId('kline-canvas').parentElement!.contains(screen.getByTestId('kline-notice'))).toBe(false)
  })
})

describe('KlineChart indicators', () => {
  it('draws MA over the candles and VOL with its averages in a pane below by default', async () => {
    await renderLoaded()
    const c = chart()
    expect(c.main().type).toBe('Candlestick')
    expect(c.inPane(0).map((s) => s.type)).toEqual(['Candlestick', 'Line', 'Line', 'Line'])
    expect(c.inPane(1).map((s) => s.type)).toEqual(['Histogram', 'Line', 'Line'])
    // MA(7) starts at the 7th candle: (101 + 102 + 103 + 104 + 105 + 105 + 107) / 7.
    const ma7 = c.inPane(0)[1].data as { value: number }[]
    expect(ma7).toHaveLength(24)
    expect(ma7[0].value).toBeCloseTo((101 + 102 + 103 + 104 + 105 + 105 + 107) / 7, 10)
    expect(screen.getByTestId('legend-ma')).toBeTruthy()
    expect(screen.getByTestId('legend-vol')).toBeTruthy()
  })

  it('adds RSI in a pane of its own and removes it again, keeping the choice', async () => {
    await renderLoaded()
    const c = chart()
    const menu = await openMenu('indicators-trigger', 'indicators-menu')
    const rsi = within(menu).getByTestId('indicator-rsi')
    expect(rsi.getAttribute('aria-checked')).toBe('false')
    fireEvent.click(rsi)
    await waitFor(() => expect(c.inPane(2)).toHaveLength(1))
    const line = c.inPane(2)[0]
    expect(line.type).toBe('Line')
    expect(line.priceLines.map((l) => l.options.price)).toEqual([70, 30])
    expect(line.data).toHaveLength(CANDLES.length - 14)
    expect(JSON.parse(localStorage.getItem(INDICATORS_KEY)!)).toEqual(['ma', 'vol', 'rsi'])
    // The closes only rise (or stay): no losses, RSI 100.
    expect(text('legend-rsi-14')).toBe('RSI(14) 100.00')

    fireEvent.click(within(menu).getByTestId('indicator-rsi'))
    await waitFor(() => expect(c.inPane(2)).toHaveLength(0))
    expect(c.removed).toContain(line)
    expect(screen.queryByTestId('legend-rsi')).toBeNull()
    expect(JSON.parse(localStorage.getItem(INDICATORS_KEY)!)).toEqual(['ma', 'vol'])
  })

  it('turns MA off and MACD on from the stored choice', async () => {
    localStorage.setItem(INDICATORS_KEY, JSON.stringify(['macd', 'boll']))
    await renderLoaded()
    const c = chart()
    // BOLL's three bands over the candles, MACD (histogram, DIF, DEA) right below them: no VOL pane.
    expect(c.inPane(0).map((s) => s.type)).toEqual(['Candlestick', 'Line', 'Line', 'Line'])
    expect(c.inPane(1).map((s) => s.type)).toEqual(['Histogram', 'Line', 'Line'])
    expect(c.inPane(2)).toHaveLength(0)
    expect(screen.queryByTestId('legend-ma')).toBeNull()
    expect(screen.getByTestId('legend-boll')).toBeTruthy()
    expect(screen.getByTestId('legend-macd')).toBeTruthy()
    fireEvent.click((await openMenu('indicators-trigger', 'indicators-menu')).querySelector('[data-testid=indicator-boll]')!)
    await waitFor(() => expect(c.inPane(0)).toHaveLength(1))
  })

  it('updates the indicators with a live candle', async () => {
    await renderLoaded()
    const c = chart()
    const ma7 = c.inPane(0)[1]
    const last = CANDLES[CANDLES.length - 1]
    act(() => handlers.get('market_btcusdt_kline_15min')!({ tick: { ...last, close: '200', high: '200' } }))
    await waitFor(() => expect(ma7.update).toHaveBeenCalled())
    const expected = (124 + 125 + 126 + 127 + 128 + 129 + 200) / 7
    expect((ma7.update.mock.calls.at(-1)![0] as { value: number }).value).toBeCloseTo(expected, 10)
    expect(text('legend-close')).toBe('C 200.00')
    expect(text('legend-ma-7')).toBe(`MA(7) ${expected.toFixed(2)}`)
  })
})

describe('KlineChart chart types', () => {
  it('switches to a line of closes and keeps the choice', async () => {
    await renderLoaded()
    const c = chart()
    const candles = c.main()
    const menu = await openMenu('chart-type-trigger', 'chart-type-menu')
    fireEvent.click(within(menu).getByTestId('chart-type-line'))
    await waitFor(() => expect(c.main().type).toBe('Line'))
    expect(c.removed).toContain(candles)
    expect((c.main().data[0] as { value: number }).value).toBe(101)
    expect(c.main().options.color).toBe(chartColors('light').accent)
    expect(localStorage.getItem(CHART_TYPE_KEY)).toBe('"line"')
    expect(screen.getByTestId('chart-type-trigger').getAttribute('aria-label')).toBe('Chart type: Line')
  })

  it('draws hollow candles and OHLC bars, above the VOL pane', async () => {
    localStorage.setItem(CHART_TYPE_KEY, '"hollow"')
    localStorage.setItem(INDICATORS_KEY, '["vol"]')
    await renderLoaded()
    const c = chart()
    expect(c.main().type).toBe('Candlestick')
    expect(c.main().options).toMatchObject({ upColor: 'rgba(0,0,0,0)', borderUpColor: chartColors('light').up })
    fireEvent.click(within(await openMenu('chart-type-trigger', 'chart-type-menu')).getByTestId('chart-type-bars'))
    await waitFor(() => expect(c.main().type).toBe('Bar'))
    expect(c.main().data[5]).toMatchObject({ open: 110, close: 105 })
    // The candles' pane never emptied on the way (the VOL pane would have moved up into its place).
    expect(c.inPane(0).map((s) => s.type)).toEqual(['Bar'])
    expect(c.inPane(1).map((s) => s.type)).toEqual(['Histogram', 'Line', 'Line'])
  })
})

describe('KlineChart legend', () => {
  it('shows the candle under the crosshair, and the last one without it', async () => {
    await renderLoaded()
    const colors = chartColors('light')
    // The last candle: 129 → 130.
    expect(text('legend-open')).toBe('O 129.00')
    expect(text('legend-close')).toBe('C 130.00')
    expect(text('legend-change')).toBe('Change +0.78%')
    expect(text('legend-volume')).toBe('Vol(BTC) 30.0000')
    // Over candle 5 (110 → 105): its figures in the down colour, MA(7) not there yet.
    act(() => chart().move({ time: localChartTime(CANDLES[5].id), logical: 5, y: 100 }))
    expect(text('legend-open')).toBe('O 110.00')
    expect(text('legend-high')).toBe('H 111.00')
    expect(text('legend-low')).toBe('L 104.00')
    expect(text('legend-close')).toBe('C 105.00')
    expect(text('legend-change')).toBe('Change -4.55%')
    expect(text('legend-volume')).toBe('Vol(BTC) 6.0000')
    expect(text('legend-ma-7')).toBe('MA(7) —')
    const close = screen.getByTestId('legend-close').querySelector('[data-value]') as HTMLElement
    expect(close.style.color).toBe(hexToRgb(colors.down))
    expect(screen.getByTestId('legend-change').querySelector<HTMLElement>('[data-value]')!.style.color).toBe(hexToRgb(colors.down))
    // Over candle 10: MA(7) of candles 4–10.
    act(() => chart().move({ time: localChartTime(CANDLES[10].id), logical: 10, y: 100 }))
    expect(text('legend-ma-7')).toBe(`MA(7) ${((105 + 105 + 107 + 108 + 109 + 110 + 111) / 7).toFixed(2)}`)
    act(() => chart().move())
    expect(text('legend-open')).toBe('O 129.00')
  })

  it('speaks Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await renderLoaded()
    expect(text('legend-open')).toBe('Нээлт 129.00')
    expect(text('legend-volume')).toBe('Хэмжээ(BTC) 30.0000')
    expect(screen.getByTestId('indicators-trigger').getAttribute('aria-label')).toBe('Индикатор')
  })
})

describe('KlineChart drawings', () => {
  it('places a horizontal line with a click, kept for the pair', async () => {
    const { unmount } = await renderLoaded()
    fireEvent.click(screen.getByTestId('draw-hline'))
    expect(screen.getByTestId('draw-hline').getAttribute('aria-pressed')).toBe('true')
    expect(text('draw-hint')).toBe('Click the chart to place the line. Esc cancels.')
    act(() => chart().click({ logical: 3, y: 123.456 }))
    await waitFor(() => expect(chart().main().priceLines.map((l) => l.options.price)).toEqual([123.46]))
    expect(screen.getByTestId('draw-hline').getAttribute('aria-pressed')).toBe('false')
    expect(screen.queryByTestId('draw-hint')).toBeNull()
    expect(JSON.parse(localStorage.getItem(drawingsKey('btcusdt'))!)).toEqual([{ id: 'd1', kind: 'hline', price: 123.46 }])
    unmount()

    // Another pair has none; this pair has it again.
    const eth = await renderLoaded({ ...BTC_USDT, symbol: 'ethusdt', routeSymbol: 'ETH_USDT', showName: 'ETH/USDT', base: 'ETH' })
    expect(chart().main().priceLines).toEqual([])
    expect(screen.getByTestId('draw-clear')).toHaveProperty('disabled', true)
    eth.unmount()
    await renderLoaded()
    expect(chart().main().priceLines.map((l) => l.options.price)).toEqual([123.46])
    expect(screen.getByTestId('draw-clear')).toHaveProperty('disabled', false)
  })

  it('draws a trend line with two clicks; Escape cancels one in progress; clear removes all', async () => {
    await renderLoaded()
    fireEvent.click(screen.getByTestId('draw-trend'))
    act(() => chart().click({ logical: 2, y: 100 }))
    await waitFor(() => expect(text('draw-hint')).toBe('Click the second point of the line. Esc cancels.'))
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => expect(text('draw-hint')).toBe('Click the first point of the line. Esc cancels.'))
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('draw-hint')).toBeNull())
    expect(screen.getByTestId('draw-trend').getAttribute('aria-pressed')).toBe('false')
    // Clicks without a tool draw nothing.
    act(() => chart().click({ logical: 4, y: 100 }))
    expect(localStorage.getItem(drawingsKey('btcusdt'))).toBeNull()

    fireEvent.click(screen.getByTestId('draw-trend'))
    act(() => chart().click({ logical: 2, y: 100 }))
    await screen.findByText('Click the second point of the line. Esc cancels.')
    act(() => chart().click({ logical: 5, y: 110 }))
    await waitFor(() => expect(localStorage.getItem(drawingsKey('btcusdt'))).not.toBeNull())
    expect(JSON.parse(localStorage.getItem(drawingsKey('btcusdt'))!)).toEqual([
      { id: 'd1', kind: 'trend', a: { time: CANDLES[2].id, price: 100 }, b: { time: CANDLES[5].id, price: 110 } },
    ])
    // The series primitive draws it from candle 2 to candle 5 (x = logical × 10, y = price in the stand-in).
    const primitive = chart().main().primitives[0] as unknown as { updateAllViews(): void; paneViews(): { renderer(): { segments: unknown[] } | null }[] }
    primitive.updateAllViews()
    expect(primitive.paneViews()[0].renderer()!.segments).toEqual([{ x1: 20, y1: 100, x2: 50, y2: 110, preview: false }])

    fireEvent.click(screen.getByTestId('draw-clear'))
    await waitFor(() => expect(localStorage.getItem(drawingsKey('btcusdt'))).toBeNull())
    primitive.updateAllViews()
    expect(primitive.paneViews()[0].renderer()).toBeNull()
  })
})

describe('KlineChart full screen and depth', () => {
  it('lays the chart over the window where the Fullscreen API is missing, and Escape leaves', async () => {
    await renderLoaded()
    const root = screen.getByTestId('kline-chart')
    fireEvent.click(screen.getByRole('button', { name: 'Full screen' }))
    await waitFor(() => expect(root.getAttribute('data-fullscreen')).toBe('fallback'))
    expect(getComputedStyle(root).position).toBe('fixed')
    expect(screen.getByRole('button', { name: 'Exit full screen' })).toBeTruthy()
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => expect(root.getAttribute('data-fullscreen')).toBeNull())
  })

  it('asks the browser for full screen on the chart panel where it can', async () => {
    const request = vi.fn(function (this: HTMLElement) {
      Object.defineProperty(document, 'fullscreenElement', { value: this, configurable: true })
      document.dispatchEvent(new Event('fullscreenchange'))
      return Promise.resolve()
    })
    Object.defineProperty(document, 'fullscreenEnabled', { value: true, configurable: true })
    HTMLElement.prototype.requestFullscreen = request
    try {
      await renderLoaded()
      fireEvent.click(screen.getByRole('button', { name: 'Full screen' }))
      const root = screen.getByTestId('kline-chart')
      await waitFor(() => expect(root.getAttribute('data-fullscreen')).toBe('native'))
      expect(request.mock.contexts[0]).toBe(root)
    } finally {
      delete (HTMLElement.prototype as Partial<HTMLElement>).requestFullscreen
      delete (document as { fullscreenEnabled?: boolean }).fullscreenEnabled
      delete (document as { fullscreenElement?: unknown }).fullscreenElement
    }
  })

  it('switches to the depth chart of the live book and back', async () => {
    await renderLoaded()
    fireEvent.click(screen.getByTestId('chart-view-depth'))
    expect(screen.getByTestId('chart-view-depth').getAttribute('aria-pressed')).toBe('true')
    expect(await screen.findByTestId('depth-bids')).toBeTruthy()
    expect(screen.getByTestId('depth-asks')).toBeTruthy()
    expect(screen.queryByTestId('period-row')).toBeNull()
    expect(screen.queryByTestId('chart-legend')).toBeNull()
    expect(getComputedStyle(screen.getByTestId('kline-canvas')).visibility).toBe('hidden')
    fireEvent.click(screen.getByTestId('chart-view-kline'))
    expect(screen.queryByTestId('depth-chart')).toBeNull()
    expect(screen.getByTestId('period-row')).toBeTruthy()
  })
})

describe('chartColors', () => {
  // The candles use the theme's up and down colours (the light up green is #087f5b since it became readable as text).
  it('matches the theme tokens', () => {
    type Conditional = { _light: string; _dark: string }
    const colors = (system as unknown as { _config: { theme: { semanticTokens: { colors: Record<string, { value: Conditional }> } } } })._config.theme.semanticTokens.colors
    for (const mode of ['light', 'dark'] as const) {
      expect(chartColors(mode).up).toBe(colors.up.value[`_${mode}`])
      expect(chartColors(mode).down).toBe(colors.down.value[`_${mode}`])
    }
  })

  // The legend writes the indicators' values in their lines' colours, and the change in up or down, on the chart's background.
  it.each(['light', 'dark'] as const)('gives every text colour of the legend 4.5:1 on the chart (%s)', (mode) => {
    const c = chartColors(mode)
    for (const color of [...c.lines, c.up, c.down, c.accent, c.text]) expect(contrast(color, c.bg), color).toBeGreaterThanOrEqual(4.5)
  })
})

function hexToRgb(hex: string) {
  const n = parseInt(hex.slice(1), 16)
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`
}
