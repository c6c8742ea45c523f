/**
 * The time window of order and trade history screens (spec §9: the last
 * 180 days). Dates are local calendar days in the 'YYYY-MM-DD' form of a
 * date input; the API takes Unix milliseconds. The server clamps every
 * search to the same window, so these helpers only keep the inputs honest:
 * a user never picks a day the server would silently ignore.
 */

/** How far back history screens reach, in days (spec §9). */
export const HISTORY_WINDOW_DAYS = 180

/** Quick ranges offered next to (or instead of) the date inputs. */
export const HISTORY_PRESETS = [7, 30, 90, 180] as const

const DAY_MS = 86_400_000
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

const pad = (n: number) => String(n).padStart(2, '0')

/** A local calendar day as a date input value, e.g. '2025-03-09'. */
export function toDateInput(ms: number): string {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** Local midnight of a 'YYYY-MM-DD' day; undefined for anything else (including 2025-02-30). */
export function parseDateInput(value: string | undefined): number | undefined {
  const m = value ? DATE_RE.exec(value) : null
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(y, mo - 1, d)
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return undefined
  return date.getTime()
}

/** The earliest and the latest day the date inputs accept: 180 days ago and today. */
export function historyDateBounds(now = Date.now()): { min: string; max: string } {
  return { min: toDateInput(now - HISTORY_WINDOW_DAYS * DAY_MS), max: toDateInput(now) }
}

/** A from/to pair of date input values. */
export interface DateRange {
  from: string
  to: string
}

/**
 * Brings a from/to pair into the history window: a missing or invalid from
 * is the earliest day, a missing or invalid to is today, days outside the
 * window move to its edge, and a from after the to swaps with it.
 */
export function clampDateRange(from: string | undefined, to: string | undefined, now = Date.now()): DateRange {
  const { min, max } = historyDateBounds(now)
  // 'YYYY-MM-DD' strings compare like the days they name.
  const clamp = (v: string | undefined, fallback: string) => {
    if (parseDateInput(v) === undefined) return fallback
    const day = v as string
    return day < min ? min : day > max ? max : day
  }
  const a = clamp(from, min)
  const b = clamp(to, max)
  return a <= b ? { from: a, to: b } : { from: b, to: a }
}

/** The range of the last `days` days, ending today (clamped to the window). */
export function presetRange(days: number, now = Date.now()): DateRange {
  return clampDateRange(toDateInput(now - days * DAY_MS), toDateInput(now), now)
}

/** True when `range` is exactly the preset of `days` days today. */
export function isPresetRange(range: DateRange, days: number, now = Date.now()): boolean {
  const p = presetRange(days, now)
  return p.from === range.from && p.to === range.to
}

/**
 * The API window of a date range: from the start of the first day, but
 * never earlier than exactly 180 days ago, to the end of the last day.
 * `now` is rounded down to the minute so that a query key built from the
 * result stays the same between renders.
 */
export function rangeMillis(range: DateRange, now = Date.now()): { startTime: number; endTime: number } {
  const clamped = clampDateRange(range.from, range.to, now)
  const earliest = Math.floor(now / 60_000) * 60_000 - HISTORY_WINDOW_DAYS * DAY_MS
  const start = parseDateInput(clamped.from) as number
  const end = parseDateInput(clamped.to) as number
  // The end of a local day is the next local midnight minus 1 ms (days
  // are not always 24 h long across daylight-saving changes).
  const toDate = new Date(end)
  const nextMidnight = new Date(toDate.getFullYear(), toDate.getMonth(), toDate.getDate() + 1).getTime()
  return { startTime: Math.max(start, earliest), endTime: nextMidnight - 1 }
}
