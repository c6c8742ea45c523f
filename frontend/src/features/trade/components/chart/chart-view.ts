import {
  AreaSeries,
  BarSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type MouseEventParams,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts'
import type { Kline } from '../../api/trade-api'
import { computeIndicators, type IndicatorSeries, type IndicatorValues, type OhlcvBar } from '../../lib/indicators'
import { chartPriceFormatter, localChartTime } from '../format'
import { withAlpha, type ChartColors } from './colors'
import { logicalToTime, timeToLogical, type ChartPoint, type Drawing } from './drawings'
import { SUB_INDICATORS, type ChartType, type IndicatorId } from './settings'
import { TrendLinesPrimitive, type TrendLine } from './trend-lines'

/** A candle as the chart draws it: its id (bucket start, Unix seconds), the chart's time (local wall clock) and numbers. */
export interface ChartBar extends OhlcvBar {
  id: number
  time: UTCTimestamp
}

/** A candle of the API as a chart bar; undefined when its numbers are not numbers. */
export function toChartBar(k: Kline): ChartBar | undefined {
  const bar = {
    id: k.id,
    time: localChartTime(k.id) as UTCTimestamp,
    open: Number(k.open),
    high: Number(k.high),
    low: Number(k.low),
    close: Number(k.close),
    vol: Number(k.vol),
  }
  const ok = Number.isFinite(k.id) && [bar.open, bar.high, bar.low, bar.close, bar.vol].every(Number.isFinite)
  return ok ? bar : undefined
}

/** The history as chart bars, oldest first, one per time. */
export function toChartBars(list: readonly Kline[] | undefined): ChartBar[] {
  const byId = new Map<number, ChartBar>()
  for (const k of list ?? []) {
    const b = toChartBar(k)
    if (b) byId.set(b.id, b)
  }
  return [...byId.values()].sort((a, b) => a.id - b.id)
}

/**
 * The bars with a live candle: it replaces the last bar of its time or comes
 * after it; a candle older than the last bar is ignored (undefined).
 */
export function mergeBar(bars: readonly ChartBar[], bar: ChartBar): ChartBar[] | undefined {
  const last = bars[bars.length - 1]
  if (!last || bar.id > last.id) return [...bars, bar]
  if (bar.id === last.id) return [...bars.slice(0, -1), bar]
  return undefined
}

type Point = { time: UTCTimestamp; value: number; color?: string }

/** A labelled horizontal line at a price over the candles (a contract's mark price); `price` a decimal string. */
export interface ChartPriceLine {
  price: string
  title: string
}

/** One series of an indicator: how its values come out of the candles and indicators. */
interface Spec {
  kind: 'line' | 'histogram'
  /** The series' value at candle i (undefined: none there). */
  value: (i: number) => number | undefined
  color: (i: number) => string
}

interface Built {
  id: IndicatorId
  series: ISeriesApi<SeriesType>
  spec: Spec
}

type MainSeries = ISeriesApi<'Candlestick'> | ISeriesApi<'Bar'> | ISeriesApi<'Line'> | ISeriesApi<'Area'>

/** What the chart tells its owner. */
export interface ChartViewEvents {
  /** The candle under the crosshair (its index in the bars), undefined when the crosshair left. */
  onHover: (index: number | undefined) => void
  /** A click in the candles' pane, as a candle time and a price. */
  onClick: (point: ChartPoint) => void
}

/**
 * The trade chart on lightweight-charts: the main series in the chart type,
 * indicator series (overlays in pane 0, VOL, MACD and RSI each in its own pane
 * below, in that order), drawings, and the crosshair and clicks. The React
 * component says what it wants (type, indicators, colours, bars, drawings)
 * and the view applies the difference.
 */
export class ChartView {
  readonly chart: IChartApi
  private main?: MainSeries
  private type?: ChartType
  private built: Built[] = []
  private indicators: IndicatorId[] = []
  private colors?: ChartColors
  private bars: ChartBar[] = []
  private calc: IndicatorValues = computeIndicators([])
  private step = 60
  private readonly index = new Map<number, number>()
  private readonly trend: TrendLinesPrimitive
  private hlines: IPriceLine[] = []
  private priceLine?: { price: number; title: string }
  private priceLineApi?: IPriceLine
  private drawings: Drawing[] = []
  private pending?: ChartPoint
  private hoverPoint?: ChartPoint

  constructor(
    el: HTMLElement,
    private readonly pair: { pricePrecision: number; priceTick: string },
    private readonly events: ChartViewEvents,
  ) {
    // The library's own attribution (a logo titled in English only) gives way to the component's link, in the page's language.
    this.chart = createChart(el, {
      autoSize: true,
      layout: { attributionLogo: false },
      timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 6, barSpacing: 8 },
    })
    this.trend = new TrendLinesPrimitive((t) => timeToLogical(this.times(), t, this.step))
    this.chart.subscribeCrosshairMove(this.handleMove)
    this.chart.subscribeClick(this.handleClick)
  }

  destroy() {
    this.chart.unsubscribeCrosshairMove(this.handleMove)
    this.chart.unsubscribeClick(this.handleClick)
    this.chart.remove()
  }

  /** The candles' ids (Unix seconds), ascending: what drawings are anchored to. */
  private ids: number[] = []

  private times() {
    return this.ids
  }

  private readonly handleMove = (p: MouseEventParams<Time>) => {
    const i = p.point && p.time !== undefined ? this.index.get(p.time as number) : undefined
    this.events.onHover(i)
    if (this.pending) {
      this.hoverPoint = p.point && p.paneIndex === 0 ? this.pointAt(p) : undefined
      this.drawTrend()
    }
  }

  private readonly handleClick = (p: MouseEventParams<Time>) => {
    if (!p.point || (p.paneIndex !== undefined && p.paneIndex !== 0)) return
    const point = this.pointAt(p)
    if (point) this.events.onClick(point)
  }

  /** The time and price of a mouse point in the candles' pane (the time of the candle under it). */
  private pointAt(p: MouseEventParams<Time>): ChartPoint | undefined {
    if (!p.point || !this.main) return undefined
    const logical = p.logical ?? this.chart.timeScale().coordinateToLogical(p.point.x)
    const price = this.main.coordinateToPrice(p.point.y)
    const time = logical === null || logical === undefined ? undefined : logicalToTime(this.times(), Math.round(logical), this.step)
    if (time === undefined || price === null) return undefined
    return { time, price: Number(price.toFixed(this.pair.pricePrecision)) }
  }

  setColors(colors: ChartColors) {
    if (this.colors === colors) return
    this.colors = colors
    this.chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: colors.bg }, textColor: colors.text, panes: { separatorColor: colors.grid } },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    })
    if (this.type) this.buildMain(this.type)
    this.buildIndicators()
  }

  setType(type: ChartType) {
    if (this.type === type) return
    this.type = type
    this.buildMain(type)
  }

  setIndicators(ids: readonly IndicatorId[]) {
    if (ids.length === this.indicators.length && ids.every((id, i) => id === this.indicators[i])) return
    this.indicators = [...ids]
    this.buildIndicators()
  }

  /**
   * The candles (with the seconds of their period and their indicators). A change of the last
   * candle or one more candle updates the chart's last bars; any other change
   * sets all the data again.
   */
  setBars(bars: ChartBar[], step: number, calc: IndicatorValues = computeIndicators(bars)) {
    const prev = this.bars
    this.step = step
    this.bars = bars
    this.ids = bars.map((b) => b.id)
    this.calc = calc
    this.index.clear()
    bars.forEach((b, i) => this.index.set(b.time, i))
    const grew = bars.length - prev.length
    const live = (grew === 0 || grew === 1) && prev.length <= bars.length && (prev.length < 2 || bars[prev.length - 2] === prev[prev.length - 2])
    if (!live || (prev.length > 0 && bars[0] !== prev[0])) {
      this.setAllData()
    } else {
      for (let i = Math.max(prev.length - 1, 0); i < bars.length; i++) this.updateAt(i)
    }
    this.drawTrend()
  }

  /** The labelled price line (a contract's mark price), or none: dotted, in the first indicator colour, with its label on the price axis. */
  setPriceLine(line: ChartPriceLine | undefined) {
    const price = line ? Number(line.price) : NaN
    const next = line && Number.isFinite(price) && price > 0 ? { price, title: line.title } : undefined
    if (next?.price === this.priceLine?.price && next?.title === this.priceLine?.title) return
    this.priceLine = next
    this.drawPriceLine()
  }

  private drawPriceLine() {
    const main = this.main
    const c = this.colors
    if (!main || !c) return
    const line = this.priceLine
    if (!line) {
      if (this.priceLineApi) main.removePriceLine(this.priceLineApi)
      this.priceLineApi = undefined
      return
    }
    const options = { price: line.price, title: line.title, color: c.lines[0], lineWidth: 1 as const, lineStyle: LineStyle.Dotted, axisLabelVisible: true }
    if (this.priceLineApi) this.priceLineApi.applyOptions(options)
    else this.priceLineApi = main.createPriceLine(options)
  }

  /** The drawings and the first point of a trend line being drawn. */
  setDrawings(drawings: Drawing[], pending: ChartPoint | undefined) {
    this.drawings = drawings
    if (!pending) this.hoverPoint = undefined
    this.pending = pending
    this.drawHlines()
    this.drawTrend()
  }

  private mainPoint(i: number) {
    const b = this.bars[i]
    return this.type === 'line' || this.type === 'area'
      ? { time: b.time, value: b.close }
      : { time: b.time, open: b.open, high: b.high, low: b.low, close: b.close }
  }

  private point(spec: Spec, i: number): Point | undefined {
    const value = spec.value(i)
    if (value === undefined || !Number.isFinite(value)) return undefined
    return spec.kind === 'histogram' ? { time: this.bars[i].time, value, color: spec.color(i) } : { time: this.bars[i].time, value }
  }

  private setAllData() {
    ;(this.main as ISeriesApi<'Candlestick'> | undefined)?.setData(this.bars.map((_, i) => this.mainPoint(i)) as never)
    for (const b of this.built) this.setSeriesData(b)
  }

  private setSeriesData(b: Built) {
    const points: Point[] = []
    for (let i = 0; i < this.bars.length; i++) {
      const p = this.point(b.spec, i)
      if (p) points.push(p)
    }
    b.series.setData(points as never)
  }

  private updateAt(i: number) {
    try {
      ;(this.main as ISeriesApi<'Candlestick'> | undefined)?.update(this.mainPoint(i) as never)
      for (const b of this.built) {
        const p = this.point(b.spec, i)
        if (p) b.series.update(p as never)
      }
    } catch {
      // A bar the library refuses (older than its last) is left out.
    }
  }

  private buildMain(type: ChartType) {
    const c = this.colors
    if (!c) return
    const priceFormat = {
      type: 'custom' as const,
      minMove: Number(this.pair.priceTick) || 0.01,
      formatter: chartPriceFormatter(this.pair.pricePrecision),
    }
    const candle = { upColor: c.up, downColor: c.down, borderUpColor: c.up, borderDownColor: c.down, wickUpColor: c.up, wickDownColor: c.down }
    let main: MainSeries
    if (type === 'candles') main = this.chart.addSeries(CandlestickSeries, { ...candle, priceFormat }, 0)
    // Rising candles drawn as their outline only.
    else if (type === 'hollow') main = this.chart.addSeries(CandlestickSeries, { ...candle, upColor: 'rgba(0,0,0,0)', priceFormat }, 0)
    else if (type === 'bars') main = this.chart.addSeries(BarSeries, { upColor: c.up, downColor: c.down, thinBars: false, priceFormat }, 0)
    else if (type === 'line') main = this.chart.addSeries(LineSeries, { color: c.accent, lineWidth: 2, priceFormat }, 0)
    else
      main = this.chart.addSeries(
        AreaSeries,
        { lineColor: c.accent, topColor: withAlpha(c.accent, 0x66), bottomColor: withAlpha(c.accent, 0x05), lineWidth: 2, priceFormat },
        0,
      )
    // The old series goes once the new one holds pane 0 (an empty pane 0 would be removed, and the pane below would take its place).
    if (this.main) {
      this.main.detachPrimitive(this.trend)
      this.chart.removeSeries(this.main)
      this.hlines = []
      this.priceLineApi = undefined
    }
    main.priceScale().applyOptions({ scaleMargins: { top: 0.1, bottom: 0.1 } })
    // Drawn under the indicator lines of the pane.
    main.setSeriesOrder(0)
    main.attachPrimitive(this.trend)
    this.main = main
    ;(main as ISeriesApi<'Candlestick'>).setData(this.bars.map((_, i) => this.mainPoint(i)) as never)
    this.drawHlines()
    this.drawPriceLine()
    this.drawTrend()
  }

  /** The series of each active indicator, with the values read from the latest indicators. */
  private specs(id: IndicatorId, c: ChartColors): Spec[] {
    const line = (s: () => IndicatorSeries, color: string): Spec => ({ kind: 'line', value: (i) => s()[i], color: () => color })
    switch (id) {
      case 'ma':
        return [0, 1, 2].map((k) => line(() => this.calc.ma[k], c.lines[k]))
      case 'ema':
        return [0, 1, 2].map((k) => line(() => this.calc.ema[k], c.lines[k]))
      case 'boll':
        return [line(() => this.calc.boll.upper, c.lines[1]), line(() => this.calc.boll.mid, c.lines[0]), line(() => this.calc.boll.lower, c.lines[2])]
      case 'vol':
        return [
          {
            kind: 'histogram',
            value: (i) => this.bars[i].vol,
            color: (i) => withAlpha(this.bars[i].close >= this.bars[i].open ? c.up : c.down, 0x80),
          },
          line(() => this.calc.vol[0], c.lines[0]),
          line(() => this.calc.vol[1], c.lines[1]),
        ]
      case 'macd':
        return [
          { kind: 'histogram', value: (i) => this.calc.macd.hist[i], color: (i) => ((this.calc.macd.hist[i] ?? 0) >= 0 ? c.up : c.down) },
          line(() => this.calc.macd.dif, c.lines[0]),
          line(() => this.calc.macd.dea, c.lines[1]),
        ]
      case 'rsi':
        return [line(() => this.calc.rsi, c.lines[1])]
    }
  }

  private buildIndicators() {
    const c = this.colors
    if (!c) return
    for (const b of this.built) this.chart.removeSeries(b.series)
    this.built = []
    const places = Math.min(this.pair.pricePrecision + 2, 8)
    let pane = 0
    for (const id of this.indicators) {
      const sub = (SUB_INDICATORS as readonly string[]).includes(id)
      if (sub) pane += 1
      const paneIndex = sub ? pane : 0
      const priceFormat =
        id === 'vol'
          ? { type: 'volume' as const }
          : id === 'rsi'
            ? { type: 'price' as const, precision: 2, minMove: 0.01 }
            : id === 'macd'
              ? { type: 'price' as const, precision: places, minMove: 10 ** -places }
              : { type: 'custom' as const, minMove: Number(this.pair.priceTick) || 0.01, formatter: chartPriceFormatter(this.pair.pricePrecision) }
      for (const spec of this.specs(id, c)) {
        const common = { priceFormat, lastValueVisible: false, priceLineVisible: false }
        const series: ISeriesApi<SeriesType> =
          spec.kind === 'histogram'
            ? this.chart.addSeries(HistogramSeries, common, paneIndex)
            : this.chart.addSeries(
                LineSeries,
                {
                  ...common,
                  color: spec.color(0),
                  lineWidth: 1,
                  crosshairMarkerVisible: false,
                  // RSI keeps its 0–100 scale.
                  autoscaleInfoProvider: id === 'rsi' ? () => ({ priceRange: { minValue: 0, maxValue: 100 } }) : undefined,
                },
                paneIndex,
              )
        if (id === 'rsi') {
          for (const price of [70, 30]) {
            series.createPriceLine({ price, color: c.text, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: false, title: '' })
          }
        }
        const built = { id, series, spec }
        this.built.push(built)
        this.setSeriesData(built)
      }
    }
    // The candles get most of the height; each lower pane a share of it.
    const panes = this.chart.panes()
    panes.forEach((p, i) => p.setStretchFactor(i === 0 ? Math.max(2, 4 - panes.length) : 1))
  }

  private drawHlines() {
    const main = this.main
    const c = this.colors
    if (!main || !c) return
    for (const l of this.hlines) main.removePriceLine(l)
    this.hlines = this.drawings.flatMap((d) =>
      d.kind === 'hline'
        ? [main.createPriceLine({ price: d.price, color: c.accent, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: true, title: '' })]
        : [],
    )
  }

  private drawTrend() {
    const c = this.colors
    if (!c) return
    const lines: TrendLine[] = this.drawings.flatMap((d) => (d.kind === 'trend' ? [{ a: d.a, b: d.b }] : []))
    if (this.pending) lines.push({ a: this.pending, b: this.hoverPoint ?? this.pending, preview: true })
    this.trend.setLines(lines, c.accent)
  }
}
