/**
 * The chart's drawings (horizontal lines and trend lines): their state as a
 * reducer, their storage per pair, and the mapping between a candle time and
 * the chart's logical bar index that anchors them (a trend line keeps its
 * times when the history moves on or the period changes).
 */

/** A point of a drawing: a candle time (Unix seconds, the candle's own id) and a price. */
export interface ChartPoint {
  time: number
  price: number
}

/** A drawing as it is drawn: a horizontal line at a price, or a trend line between two points. */
export type Shape = { kind: 'hline'; price: number } | { kind: 'trend'; a: ChartPoint; b: ChartPoint }

export type Drawing = Shape & { id: string }

export type DrawTool = 'hline' | 'trend'

export interface DrawState {
  /** The tool the next click on the chart uses; none: clicks do not draw. */
  tool?: DrawTool
  /** The first point of a trend line being drawn. */
  pending?: ChartPoint
  drawings: Drawing[]
}

export type DrawAction =
  | { type: 'tool'; tool: DrawTool }
  | { type: 'point'; point: ChartPoint }
  | { type: 'cancel' }
  | { type: 'clear' }
  | { type: 'load'; drawings: Drawing[] }

/** Drawings kept per pair at most (the oldest go first). */
export const MAX_DRAWINGS = 50

function nextId(drawings: Drawing[]): string {
  const max = drawings.reduce((m, d) => Math.max(m, Number(d.id.replace(/\D/g, '')) || 0), 0)
  return `d${max + 1}`
}

function add(state: DrawState, shape: Shape): DrawState {
  const d: Drawing = { ...shape, id: nextId(state.drawings) }
  return { drawings: [...state.drawings, d].slice(-MAX_DRAWINGS) }
}

/**
 * - tool: picks a tool (picking the active one again puts it away) and drops a
 *   half-drawn line;
 * - point: a click on the chart: a horizontal line is placed at once, a trend
 *   line takes two clicks (a second click on the first point is ignored); a
 *   finished drawing puts the tool away, as on TradingView;
 * - cancel (Escape): drops the half-drawn line, or else puts the tool away;
 * - clear: removes every drawing; load: the drawings of another pair.
 */
export function drawReducer(state: DrawState, action: DrawAction): DrawState {
  switch (action.type) {
    case 'tool':
      return { drawings: state.drawings, tool: state.tool === action.tool ? undefined : action.tool }
    case 'point': {
      const p = action.point
      if (!Number.isFinite(p.time) || !Number.isFinite(p.price)) return state
      if (state.tool === 'hline') return add(state, { kind: 'hline', price: p.price })
      if (state.tool !== 'trend') return state
      if (!state.pending) return { ...state, pending: p }
      if (state.pending.time === p.time && state.pending.price === p.price) return state
      return add(state, { kind: 'trend', a: state.pending, b: p })
    }
    case 'cancel':
      if (state.pending) return { drawings: state.drawings, tool: state.tool }
      if (state.tool) return { drawings: state.drawings }
      return state
    case 'clear':
      return state.drawings.length === 0 && !state.pending ? state : { drawings: [], tool: state.tool }
    case 'load':
      return { drawings: action.drawings }
  }
}

/** True when Escape has something to cancel (a half-drawn line or a tool in hand). */
export function canCancel(state: DrawState): boolean {
  return !!state.pending || !!state.tool
}

/** The storage key of a pair's drawings. */
export function drawingsKey(symbol: string): string {
  return `tenger.trade.chartDrawings.${symbol}`
}

const isPoint = (v: unknown): v is ChartPoint =>
  typeof v === 'object' && v !== null && Number.isFinite((v as ChartPoint).time) && Number.isFinite((v as ChartPoint).price)

function isDrawing(v: unknown): v is Drawing {
  if (typeof v !== 'object' || v === null) return false
  const d = v as Record<string, unknown>
  if (typeof d.id !== 'string') return false
  if (d.kind === 'hline') return Number.isFinite(d.price)
  return d.kind === 'trend' && isPoint(d.a) && isPoint(d.b)
}

/** A pair's stored drawings (the valid ones; none when the entry is missing or damaged). */
export function readDrawings(symbol: string): Drawing[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(drawingsKey(symbol)) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter(isDrawing).slice(-MAX_DRAWINGS) : []
  } catch {
    return []
  }
}

/** Stores a pair's drawings (none: the entry is removed). */
export function writeDrawings(symbol: string, drawings: Drawing[]): void {
  try {
    if (drawings.length === 0) localStorage.removeItem(drawingsKey(symbol))
    else localStorage.setItem(drawingsKey(symbol), JSON.stringify(drawings))
  } catch {
    // Storage may be unavailable (private mode): the drawings then last as long as the page.
  }
}

/**
 * The logical index (bar position, fractional between bars) of a time over
 * the candles' times (ascending). Before the first and after the last candle
 * it goes on at `step` seconds a bar, so a point in the empty space right of
 * the last candle stays where it was drawn. Undefined without candles.
 */
export function timeToLogical(times: readonly number[], time: number, step: number): number | undefined {
  const n = times.length
  if (n === 0 || !(step > 0)) return undefined
  if (time <= times[0]) return (time - times[0]) / step
  if (time >= times[n - 1]) return n - 1 + (time - times[n - 1]) / step
  let lo = 0
  let hi = n - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (times[mid] <= time) lo = mid
    else hi = mid
  }
  return lo + (time - times[lo]) / (times[hi] - times[lo])
}

/** The time of a logical index: the inverse of {@link timeToLogical}. */
export function logicalToTime(times: readonly number[], logical: number, step: number): number | undefined {
  const n = times.length
  if (n === 0 || !Number.isFinite(logical)) return undefined
  if (logical <= 0) return times[0] + logical * step
  if (logical >= n - 1) return times[n - 1] + (logical - (n - 1)) * step
  const lo = Math.floor(logical)
  return times[lo] + (logical - lo) * (times[lo + 1] - times[lo])
}

/** Seconds of a candle period ('15min' → 900; a month counts 30 days). */
export function periodSeconds(period: string): number {
  const m = /^(\d+)(min|h|day|week|month)$/.exec(period)
  if (!m) return 60
  const unit = { min: 60, h: 3600, day: 86400, week: 604800, month: 2592000 }[m[2] as 'min']
  return Number(m[1]) * unit
}
