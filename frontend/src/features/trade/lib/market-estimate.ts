/**
 * What a market order would do against the order book as it stands: the
 * levels it would take (the asks for a buy, the bids for a sell, best
 * first), the average price it would fill at, what it would cost or bring,
 * and whether the book holds enough to fill it. Exact decimal arithmetic on
 * the book's strings (never floats), so a figure never drifts by a rounding.
 *
 * It is an estimate: the book moves between the look and the match, and the
 * book the page has is its top levels only (the depth query's 50).
 */
import { cmpDec, divDec, floorToStep, formatDec, mulDec, parseDec, placesOf, subDec, type Dec } from '@/lib/decimal'
import { percentText, type OrderSide } from './order-form'

/** A level of the book: [price, quantity] as the API sends them. */
export type BookLevel = readonly [string, string]

/**
 * What is to be matched: a base amount (a sell, or a buy by amount) or a
 * quote total to spend (a buy by total).
 */
export type MarketQuantity = { amount: string; total?: undefined } | { total: string; amount?: undefined }

/** Options of {@link estimateMarket}. */
export interface EstimateOptions {
  /** The pair's lot: a fill is a whole number of lots (a buy by total buys whole lots only). */
  lot?: string
  /**
   * Quote coin the order may spend at most (a buy by amount: the funds the
   * server holds for it). The walk stops where they run out.
   */
  budget?: string
}

/** The estimate of a market order. All figures are exact decimal strings, without trailing zeros. */
export interface MarketEstimate {
  /** Base amount that would fill ('0' when nothing would). */
  amount: string
  /** Quote amount it would cost (a buy) or bring (a sell). */
  total: string
  /** total ÷ amount (cut at 18 places); undefined when nothing would fill. */
  avgPrice?: string
  /** The best price on the side it takes from (the first level); undefined for an empty side. */
  bestPrice?: string
  /** The book's levels end before the order is filled (the rest would be cancelled). */
  short: boolean
  /** A buy by amount whose budget runs out before the amount is bought. */
  fundsOut: boolean
}

const AVG_PLACES = 18

function positive(v: string | number | undefined): Dec | undefined {
  const d = parseDec(v)
  return d && d.units > 0n ? d : undefined
}

const min = (a: Dec, b: Dec): Dec => (cmpDec(a, b) <= 0 ? a : b)
const add = (a: Dec, b: Dec): Dec => subDec(a, { units: -b.units, scale: b.scale })
/** A decimal without trailing zeros ('1.50' → '1.5', '2.0' → '2'). */
const str = (d: Dec): string => formatDec(d, placesOf(formatDec(d, d.scale)))

/**
 * Walks `levels` (best first: the asks for a buy, the bids for a sell) with
 * a market order for `qty`. Undefined when the quantity is not a positive
 * number. An empty book gives an estimate with nothing filled and `short`.
 * Levels that are not positive numbers are skipped.
 */
export function estimateMarket(levels: readonly BookLevel[], qty: MarketQuantity, options: EstimateOptions = {}): MarketEstimate | undefined {
  const lot = positive(options.lot)
  const lotPlaces = lot ? placesOf(options.lot) : 8
  const byTotal = qty.total !== undefined
  const wanted = positive(byTotal ? qty.total : qty.amount)
  if (!wanted) return undefined
  const budget = byTotal ? undefined : parseDec(options.budget)
  // What is left to match: quote to spend (by total, or the budget) and base to buy or sell (by amount).
  let quoteLeft: Dec | undefined = byTotal ? wanted : budget && budget.units >= 0n ? budget : undefined
  let baseLeft: Dec | undefined = byTotal ? undefined : wanted
  let filled: Dec = { units: 0n, scale: 0 }
  let total: Dec = { units: 0n, scale: 0 }
  let bestPrice: string | undefined
  let stoppedBy: 'filled' | 'funds' | undefined
  for (const [p, q] of levels) {
    const price = positive(p)
    const size = positive(q)
    if (!price || !size) continue
    bestPrice ??= str(price)
    let take = baseLeft ? min(size, baseLeft) : size
    if (quoteLeft) {
      // What the quote left buys here, in whole lots.
      const raw = divDec(quoteLeft, price, lotPlaces)!
      const affordable = lot ? floorToStep(raw, lot) : raw
      if (cmpDec(affordable, take) < 0) {
        take = affordable
        stoppedBy = byTotal ? 'filled' : 'funds'
      }
    }
    if (take.units > 0n) {
      const cost = mulDec(take, price)
      filled = add(filled, take)
      total = add(total, cost)
      if (quoteLeft) quoteLeft = subDec(quoteLeft, cost)
      if (baseLeft) baseLeft = subDec(baseLeft, take)
    }
    if (stoppedBy) break
    if (baseLeft && baseLeft.units <= 0n) {
      stoppedBy = 'filled'
      break
    }
  }
  // A buy by total that ran through every level with funds left over that
  // would still buy a lot there ran short of the book; dust below a lot is
  // what any buy by total leaves.
  let short = !stoppedBy
  if (short && byTotal && quoteLeft && bestPrice !== undefined) {
    const last = [...levels].reverse().find(([p, q]) => positive(p) && positive(q))
    const price = last ? positive(last[0]) : undefined
    const step = lot ?? { units: 1n, scale: lotPlaces }
    short = !price || cmpDec(divDec(quoteLeft, price, lotPlaces)!, step) >= 0
  }
  return {
    amount: str(filled),
    total: str(total),
    avgPrice: filled.units > 0n ? str(divDec(total, filled, AVG_PLACES)!) : undefined,
    bestPrice,
    short,
    fundsOut: stoppedBy === 'funds',
  }
}

/**
 * How far the estimate's average price is from the best price, against the
 * order (a buy paying more, a sell getting less), when that is more than
 * `percent` % of the best price: the slippage in percent at 2 places
 * (rounded half up), or undefined when it is within (exactly `percent` %
 * is within) or there is nothing to compare. Compared exactly: 100 × total
 * against (100 ± percent) × best × amount.
 */
export function slippageBeyond(side: OrderSide, est: MarketEstimate | undefined, percent: number): string | undefined {
  const best = positive(est?.bestPrice)
  const amount = positive(est?.amount)
  const total = parseDec(est?.total)
  if (!est || !best || !amount || !total) return undefined
  const atBest = mulDec(best, amount)
  const hundred: Dec = { units: 100n, scale: 0 }
  const limit = mulDec(atBest, parseDec(String(side === 'BUY' ? 100 + percent : 100 - percent))!)
  const scaled = mulDec(total, hundred)
  const beyond = side === 'BUY' ? cmpDec(scaled, limit) > 0 : cmpDec(scaled, limit) < 0
  if (!beyond) return undefined
  const diff = side === 'BUY' ? subDec(total, atBest) : subDec(atBest, total)
  return percentText(diff, atBest)
}
