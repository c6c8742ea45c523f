/**
 * A stand-in for lightweight-charts in component tests (jsdom has no canvas):
 * `vi.mock('lightweight-charts', () => import('./chart/lightweight-charts.mock'))`.
 * It keeps what the chart was told: the series alive per pane with their
 * options, data and price lines, the attached primitives, and lets a test
 * move the crosshair or click (`fakeCharts.last().move(...)`).
 */
import { vi } from 'vitest'

type Handler = (p: Record<string, unknown>) => void

export class FakeSeries {
  readonly setData = vi.fn((data: unknown[]) => {
    this.data = data
  })
  readonly update = vi.fn()
  readonly applyOptions = vi.fn((o: Record<string, unknown>) => Object.assign(this.options, o))
  readonly priceLines: { options: Record<string, unknown> }[] = []
  readonly primitives: { attached?: (p: unknown) => void; detached?: () => void; updateAllViews?: () => void; paneViews?: () => readonly unknown[] }[] = []
  data: unknown[] = []
  options: Record<string, unknown>

  constructor(
    readonly chart: FakeChart,
    readonly type: string,
    options: Record<string, unknown> | undefined,
    public paneIndex: number,
  ) {
    this.options = { ...options }
  }

  priceScale() {
    return { applyOptions: vi.fn() }
  }
  createPriceLine(options: Record<string, unknown>) {
    const line = { options, applyOptions: vi.fn() }
    this.priceLines.push(line)
    return line
  }
  removePriceLine(line: { options: Record<string, unknown> }) {
    const i = this.priceLines.indexOf(line)
    if (i >= 0) this.priceLines.splice(i, 1)
  }
  attachPrimitive(p: FakeSeries['primitives'][number]) {
    this.primitives.push(p)
    p.attached?.({ chart: this.chart, series: this, requestUpdate: () => {} })
  }
  detachPrimitive(p: FakeSeries['primitives'][number]) {
    const i = this.primitives.indexOf(p)
    if (i >= 0) this.primitives.splice(i, 1)
    p.detached?.()
  }
  setSeriesOrder() {}
  /** y pixels are prices (y 100 is price 100), as in a chart scaled 1:1. */
  coordinateToPrice(y: number) {
    return y
  }
  priceToCoordinate(price: number) {
    return price
  }
}

export class FakeChart {
  readonly series: FakeSeries[] = []
  readonly removed: FakeSeries[] = []
  readonly applyOptions = vi.fn()
  readonly remove = vi.fn()
  private moves: Handler[] = []
  private clicks: Handler[] = []
  private stretch: number[] = []

  constructor(
    readonly el: unknown,
    readonly options: Record<string, unknown> | undefined,
  ) {}

  addSeries(type: string, options?: Record<string, unknown>, paneIndex = 0) {
    const s = new FakeSeries(this, type, options, paneIndex)
    this.series.push(s)
    return s
  }
  /** As the library does, a pane left empty goes (unless it is the only one) and the panes below move up. */
  removeSeries(s: FakeSeries) {
    const panes = this.panes().length
    const i = this.series.indexOf(s)
    if (i >= 0) this.series.splice(i, 1)
    this.removed.push(s)
    if (panes > 1 && !this.series.some((x) => x.paneIndex === s.paneIndex)) {
      for (const x of this.series) if (x.paneIndex > s.paneIndex) x.paneIndex -= 1
    }
  }
  panes() {
    const count = Math.max(0, ...this.series.map((s) => s.paneIndex)) + 1
    return Array.from({ length: count }, (_, i) => ({
      setStretchFactor: (f: number) => {
        this.stretch[i] = f
      },
      getStretchFactor: () => this.stretch[i] ?? 1,
    }))
  }
  /** x pixels are logical indexes × 10. */
  timeScale() {
    return { logicalToCoordinate: (l: number) => l * 10, coordinateToLogical: (x: number) => x / 10 }
  }
  subscribeCrosshairMove(h: Handler) {
    this.moves.push(h)
  }
  unsubscribeCrosshairMove(h: Handler) {
    this.moves = this.moves.filter((x) => x !== h)
  }
  subscribeClick(h: Handler) {
    this.clicks.push(h)
  }
  unsubscribeClick(h: Handler) {
    this.clicks = this.clicks.filter((x) => x !== h)
  }
  /** The crosshair over candle `logical` (time `time`) at price y, or (no arguments) off the chart. */
  move(at?: { time?: number; logical?: number; y?: number; paneIndex?: number }) {
    const p = at ? { time: at.time, logical: at.logical, point: { x: (at.logical ?? 0) * 10, y: at.y ?? 0 }, paneIndex: at.paneIndex ?? 0, seriesData: new Map() } : { seriesData: new Map() }
    for (const h of this.moves) h(p)
  }
  click(at: { time?: number; logical: number; y: number; paneIndex?: number }) {
    const p = { time: at.time, logical: at.logical, point: { x: at.logical * 10, y: at.y }, paneIndex: at.paneIndex ?? 0, seriesData: new Map() }
    for (const h of this.clicks) h(p)
  }
  /** The main series (the one of pane 0 that shows its last value: the indicators' lines do not). */
  main() {
    return this.series.find((s) => s.paneIndex === 0 && s.options.lastValueVisible !== false)!
  }
  inPane(i: number) {
    return this.series.filter((s) => s.paneIndex === i)
  }
}

/** Every chart created, the last one last. */
export const fakeCharts = {
  all: [] as FakeChart[],
  last(): FakeChart {
    const c = this.all[this.all.length - 1]
    if (!c) throw new Error('no chart was created')
    return c
  },
  reset() {
    this.all.length = 0
  },
}

export const createChart = vi.fn((el: unknown, options?: Record<string, unknown>) => {
  const c = new FakeChart(el, options)
  fakeCharts.all.push(c)
  return c
})

export const CandlestickSeries = 'Candlestick'
export const BarSeries = 'Bar'
export const LineSeries = 'Line'
export const AreaSeries = 'Area'
export const HistogramSeries = 'Histogram'
export const ColorType = { Solid: 'solid', VerticalGradient: 'gradient' }
export const LineStyle = { Solid: 0, Dotted: 1, Dashed: 2, LargeDashed: 3, SparseDotted: 4 }
