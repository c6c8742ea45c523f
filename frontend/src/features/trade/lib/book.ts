/**
 * The order book's arithmetic and layout rules, apart from React: the
 * cumulative totals and depth bars of its levels, the spread, the sides and
 * row counts of its views, and how many rows fit a measured height. Amounts
 * are decimal strings summed exactly (never through a float).
 */
import { cmpDec, divDec, fixed, formatDec, mulDec, parseDec, roundDec, subDec, type Dec } from '@/lib/decimal'

/** Which sides the book shows: both (asks above the spread, bids below), or one side only with twice the rows. */
export type BookView = 'both' | 'bids' | 'asks'

/** The most levels per side in the both view (a one-side view shows twice as many). */
export const MAX_LEVELS = 20
/** Levels per side in the both view when the book is not given a height to fill. */
export const DEFAULT_LEVELS = 12
/** Height in px of every book and trade row, levels and placeholders alike. */
export const ROW_HEIGHT = 20
/** Height in px of the row between the sides: the last price and the spread. */
export const SPREAD_HEIGHT = 32

/** One level as the book shows it. */
export interface BookLevel {
  price: string
  amount: string
  /** The amounts of this level and every better one on its side, exactly (the base coin; Binance's "Total"). */
  total: string
  /** total ÷ the largest total shown, 0..1: the width of the depth bar. */
  depth: number
}

const ZERO: Dec = { units: 0n, scale: 0 }

/** a + b exactly. */
function addDec(a: Dec, b: Dec): Dec {
  return subDec(a, { units: -b.units, scale: b.scale })
}

function text(d: Dec): string {
  return formatDec(d, d.scale)
}

/** A whole count of levels per side, 1..MAX_LEVELS (DEFAULT_LEVELS for no number). */
export function clampLevels(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_LEVELS
  return Math.max(1, Math.min(MAX_LEVELS, Math.floor(n)))
}

/** Rows of each side in a view: both shows n a side, one side shows 2n of that side and none of the other. */
export function sideCounts(view: BookView, perSide: number): { asks: number; bids: number } {
  const n = clampLevels(perSide)
  if (view === 'asks') return { asks: 2 * n, bids: 0 }
  if (view === 'bids') return { asks: 0, bids: 2 * n }
  return { asks: n, bids: n }
}

/**
 * Levels per side (both view) that fit a levels area `height` px tall: its
 * 2n rows and the spread row. Without a measured height (not laid out yet,
 * or jsdom) the `fallback`.
 */
export function levelsThatFit(height: number | undefined, fallback: number | undefined): number {
  if (!height || height <= 0) return clampLevels(fallback)
  return clampLevels((height - SPREAD_HEIGHT) / (2 * ROW_HEIGHT))
}

/** Rows of ROW_HEIGHT that fit `height` px, 1..max; the fallback without a measured height. */
export function rowsThatFit(height: number | undefined, fallback: number, max: number): number {
  const n = !height || height <= 0 ? fallback : Math.floor(height / ROW_HEIGHT)
  return Math.max(1, Math.min(max, Number.isFinite(n) ? Math.floor(n) : 1))
}

/** The first `count` levels of a side (best first) with their running totals; depth still 0. */
export function cumulate(levels: readonly (readonly [string, string])[] | undefined, count: number): BookLevel[] {
  let sum = ZERO
  return (levels ?? []).slice(0, Math.max(0, count)).map(([price, amount]) => {
    // An amount that is not a number adds nothing (and shows as '—').
    sum = addDec(sum, parseDec(amount) ?? ZERO)
    return { price, amount, total: text(sum), depth: 0 }
  })
}

/**
 * The levels a view shows, best first on each side, with running totals and
 * depth bars against the largest total shown on either side (so the bars of
 * the two sides compare).
 */
export function bookSides(
  book: { asks?: readonly (readonly [string, string])[]; buys?: readonly (readonly [string, string])[] } | undefined,
  counts: { asks: number; bids: number },
): { asks: BookLevel[]; bids: BookLevel[] } {
  const asks = cumulate(book?.asks, counts.asks)
  const bids = cumulate(book?.buys, counts.bids)
  const max = [asks.at(-1), bids.at(-1)].reduce<Dec>((m, l) => {
    const d = l ? parseDec(l.total) : undefined
    return d && cmpDec(d, m) > 0 ? d : m
  }, ZERO)
  const withDepth = (l: BookLevel): BookLevel => {
    const d = max.units > 0n ? divDec(parseDec(l.total) ?? ZERO, max, 4) : undefined
    return { ...l, depth: d ? Math.max(0, Math.min(1, Number(text(d)))) : 0 }
  }
  return { asks: asks.map(withDepth), bids: bids.map(withDepth) }
}

/** The first n items followed by undefined up to n: a fixed count of rows whatever the data. */
export function padRows<T>(items: readonly T[], n: number): (T | undefined)[] {
  return Array.from({ length: Math.max(0, n) }, (_, i) => items[i])
}

/**
 * The spread of a book: best ask − best bid at the prices' `places`
 * (grouped like every price), and as a percentage of the mid price at two
 * places ('<0.01%' for a spread too small to show). Undefined without both
 * sides.
 */
export function spreadOf(bestAsk: string | undefined, bestBid: string | undefined, places: number): { value: string; percent: string } | undefined {
  const ask = parseDec(bestAsk)
  const bid = parseDec(bestBid)
  if (!ask || !bid) return undefined
  const diff = subDec(ask, bid)
  const value = fixed(text(diff), places)
  // (ask − bid) ÷ ((ask + bid) ÷ 2) × 100 = 200 (ask − bid) ÷ (ask + bid)
  const ratio = divDec(mulDec(diff, { units: 200n, scale: 0 }), addDec(ask, bid), 6)
  if (!ratio) return { value, percent: '—' }
  const pct = roundDec(ratio, 2)
  const percent = pct.units === 0n && diff.units > 0n ? '<0.01%' : `${fixed(text(pct), 2)}%`
  return { value, percent }
}
