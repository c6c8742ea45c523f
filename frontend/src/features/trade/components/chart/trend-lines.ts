import type {
  IChartApi,
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesApi,
  ISeriesPrimitive,
  Logical,
  SeriesAttachedParameter,
  SeriesType,
  Time,
} from 'lightweight-charts'
import type { ChartPoint } from './drawings'

type Target = Parameters<IPrimitivePaneRenderer['draw']>[0]
type Segment = { x1: number; y1: number; x2: number; y2: number; preview: boolean }

/** A trend line to draw: two points, the preview one dashed (the line being drawn, to the crosshair). */
export interface TrendLine {
  a: ChartPoint
  b: ChartPoint
  preview?: boolean
}

class Renderer implements IPrimitivePaneRenderer {
  constructor(
    private readonly segments: Segment[],
    private readonly color: string,
  ) {}

  draw(target: Target) {
    target.useMediaCoordinateSpace(({ context: ctx }) => {
      ctx.save()
      ctx.strokeStyle = this.color
      ctx.fillStyle = this.color
      ctx.lineWidth = 2
      for (const s of this.segments) {
        ctx.setLineDash(s.preview ? [6, 4] : [])
        ctx.beginPath()
        ctx.moveTo(s.x1, s.y1)
        ctx.lineTo(s.x2, s.y2)
        ctx.stroke()
        for (const [x, y] of [
          [s.x1, s.y1],
          [s.x2, s.y2],
        ]) {
          ctx.beginPath()
          ctx.arc(x, y, 3, 0, Math.PI * 2)
          ctx.fill()
        }
      }
      ctx.restore()
    })
  }
}

/**
 * The trend lines of the chart as a series primitive on the main series: the
 * points are kept as times and prices, and turned into coordinates on every
 * redraw (scroll, zoom, resize), so the lines move with the candles.
 */
export class TrendLinesPrimitive implements ISeriesPrimitive<Time> {
  private chart?: IChartApi
  private series?: ISeriesApi<SeriesType>
  private requestUpdate?: () => void
  private lines: TrendLine[] = []
  private color = '#0a52bd'
  private segments: Segment[] = []
  private readonly views: readonly IPrimitivePaneView[]

  constructor(private readonly toLogical: (time: number) => number | undefined) {
    const view: IPrimitivePaneView = {
      zOrder: () => 'top',
      renderer: () => (this.segments.length ? new Renderer(this.segments, this.color) : null),
    }
    this.views = [view]
  }

  attached(param: SeriesAttachedParameter<Time>) {
    this.chart = param.chart as IChartApi
    this.series = param.series
    this.requestUpdate = param.requestUpdate
  }

  detached() {
    this.chart = undefined
    this.series = undefined
    this.requestUpdate = undefined
  }

  /** Replaces the lines and their colour, and redraws. */
  setLines(lines: TrendLine[], color: string) {
    this.lines = lines
    this.color = color
    this.updateAllViews()
    this.requestUpdate?.()
  }

  /** The lines' coordinates now (points off the price scale leave their line out). */
  updateAllViews() {
    const chart = this.chart
    const series = this.series
    if (!chart || !series) {
      this.segments = []
      return
    }
    const ts = chart.timeScale()
    const xy = (p: ChartPoint) => {
      const logical = this.toLogical(p.time)
      const x = logical === undefined ? null : ts.logicalToCoordinate(logical as Logical)
      const y = series.priceToCoordinate(p.price)
      return x === null || y === null ? undefined : { x, y }
    }
    const out: Segment[] = []
    for (const l of this.lines) {
      const a = xy(l.a)
      const b = xy(l.b)
      if (a && b) out.push({ x1: a.x, y1: a.y, x2: b.x, y2: b.y, preview: !!l.preview })
    }
    this.segments = out
  }

  paneViews() {
    return this.views
  }
}
