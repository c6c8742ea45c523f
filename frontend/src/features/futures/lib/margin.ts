/**
 * The margin arithmetic of a futures order, as the engine's risk stage does
 * it (internal/risk Futures.Place, internal/perp): exact decimals, never
 * floats.
 *
 * - notional = contracts × contract value × price;
 * - an order holds the initial margin of what it opens (notional ÷
 *   leverage, rounded up to the margin coin's 8 engine places) plus the
 *   taker fee of its whole notional (rounded up too): that is its cost;
 * - the part of an order that can only close the position (what the
 *   user's other orders on the same side leave of it) needs no margin, only
 *   its fee;
 * - a position may not grow beyond the largest notional of the tiers that
 *   allow the chosen leverage.
 */
import { cmpDec, divDec, floorToStep, formatDec, mulDec, parseDec, subDec, type Dec } from '@/lib/decimal'
import type { OrderSide, Tier } from '../api/futures-api'

/** The engine keeps margin-coin money to 8 places (USDT 10^-8). */
export const MONEY_PLACES = 8

const ZERO: Dec = { units: 0n, scale: 0 }

function add(a: Dec, b: Dec): Dec {
  return subDec(a, { units: -b.units, scale: b.scale })
}

function int(n: number | bigint): Dec {
  return { units: BigInt(n), scale: 0 }
}

/** d rounded up (towards +∞) to `places` decimals. */
export function ceilTo(d: Dec, places: number): Dec {
  if (d.scale <= places) return d
  const div = 10n ** BigInt(d.scale - places)
  let q = d.units / div
  if (d.units % div !== 0n && d.units > 0n) q += 1n
  return { units: q, scale: places }
}

/** A Dec as a plain decimal string at its own scale. */
export function text(d: Dec): string {
  return formatDec(d, d.scale)
}

/** contracts × contract value × price; undefined when the price or the contract value is not a number. */
export function notionalOf(volume: number, price: string | undefined, contractValue: string): Dec | undefined {
  const p = parseDec(price)
  const cv = parseDec(contractValue)
  if (!p || !cv || !Number.isFinite(volume)) return undefined
  return mulDec(mulDec(int(Math.trunc(volume)), cv), p)
}

/** notional ÷ leverage, rounded up to the money places. */
export function initialMargin(notional: Dec, leverage: number): Dec {
  const lev = int(Math.max(1, Math.trunc(leverage)))
  const q = divDec(notional, lev, MONEY_PLACES)!
  return cmpDec(mulDec(q, lev), notional) < 0 ? add(q, { units: 1n, scale: MONEY_PLACES }) : q
}

/** notional × rate, rounded up to the money places. */
export function feeOf(notional: Dec, rate: string): Dec {
  const r = parseDec(rate)
  if (!r || r.units <= 0n) return ZERO
  return ceilTo(mulDec(notional, r), MONEY_PLACES)
}

/** What an order of a contract needs to know about the user's position and orders on it. */
export interface Exposure {
  /** The position in contracts: positive long, negative short, 0 flat. */
  position: number
  /** Unfilled contracts of the user's open orders on the order's side. */
  openSameSide: number
}

/** Contracts of an order that can only close the position (they need no margin). */
export function closableOf(side: OrderSide, exposure: Exposure): number {
  const { position, openSameSide } = exposure
  if (side === 'SELL' && position > 0) return Math.max(position - openSameSide, 0)
  if (side === 'BUY' && position < 0) return Math.max(-position - openSameSide, 0)
  return 0
}

/** The figures of an order as the form shows them (decimal strings at the money places). */
export interface OrderCost {
  notional: string
  /** Initial margin of the part that opens. */
  margin: string
  /** Taker fee of the whole order (what the engine holds). */
  fee: string
  /** margin + fee. */
  cost: string
}

/** An order's inputs for its cost. */
export interface CostInput {
  side: OrderSide
  volume: number
  /** The limit price, or the price a market order is valued at. */
  price: string | undefined
  leverage: number
  contractValue: string
  takerFee: string
  exposure?: Exposure
}

/** The cost of an order (initial margin of what it opens + its fee), or undefined without a price. */
export function orderCost(input: CostInput): OrderCost | undefined {
  const volume = Math.max(0, Math.trunc(input.volume))
  const notional = notionalOf(volume, input.price, input.contractValue)
  if (!notional) return undefined
  const closable = Math.min(volume, input.exposure ? closableOf(input.side, input.exposure) : 0)
  const opening = notionalOf(volume - closable, input.price, input.contractValue)!
  const margin = initialMargin(opening, input.leverage)
  const fee = feeOf(notional, input.takerFee)
  const at = (d: Dec) => formatDec(d, MONEY_PLACES)
  return { notional: at(notional), margin: at(margin), fee: at(fee), cost: at(add(margin, fee)) }
}

/**
 * The largest notional a position may reach at a leverage: that of the last
 * tier whose leverage allows it ('' without such a tier).
 */
export function maxNotionalAt(tiers: readonly Tier[] | undefined, leverage: number): string {
  let best: Dec | undefined
  for (const tier of tiers ?? []) {
    const cap = parseDec(tier.maxNotional)
    if (tier.maxLeverage >= leverage && cap && (!best || cmpDec(cap, best) > 0)) best = cap
  }
  return best ? text(best) : ''
}

/** The highest leverage the tiers allow at all (the first tier's), or undefined without tiers. */
export function tiersMaxLeverage(tiers: readonly Tier[] | undefined): number | undefined {
  const levels = (tiers ?? []).map((t) => t.maxLeverage).filter((n) => Number.isFinite(n) && n > 0)
  return levels.length ? Math.max(...levels) : undefined
}

/** What bounds the contracts an order may have. */
export interface MaxOpenInput extends Omit<CostInput, 'volume'> {
  /** The futures account's available balance. */
  available: string | undefined
  maxOrderQty: number
  /** The largest notional at the leverage ({@link maxNotionalAt}); '' or undefined: no bound known. */
  maxNotional?: string
  reduceOnly?: boolean
}

/**
 * The most contracts an order may have (Binance's "Max"): what the
 * available balance pays for (the closable part needing only its fee), no
 * more than the order size limit and the position limit of the leverage's
 * tiers; for a reduce-only order, what it can close. 0 without a price or a
 * balance.
 */
export function maxOpen(input: MaxOpenInput): number {
  const exposure = input.exposure ?? { position: 0, openSameSide: 0 }
  const closable = closableOf(input.side, exposure)
  if (input.reduceOnly) return Math.max(0, Math.min(closable, input.maxOrderQty))
  const avail = parseDec(input.available)
  const unit = notionalOf(1, input.price, input.contractValue)
  if (!avail || avail.units <= 0n || !unit || unit.units <= 0n) return 0
  const lev = Math.max(1, Math.trunc(input.leverage))
  const feeRate = parseDec(input.takerFee) ?? ZERO
  const unitFee = mulDec(unit, feeRate)
  const unitMargin = divDec(unit, int(lev), MONEY_PLACES + 4)!
  let n: bigint
  const closingFees = mulDec(int(closable), unitFee)
  if (unitFee.units > 0n && cmpDec(closingFees, avail) >= 0) {
    n = divDec(avail, unitFee, 0)!.units
  } else {
    // (avail + closable × unit ÷ lev) ÷ (unit ÷ lev + unit × fee)
    const per = add(unitMargin, unitFee)
    n = per.units > 0n ? divDec(add(avail, mulDec(int(closable), unitMargin)), per, 0)!.units : 0n
  }
  let most = Number(n)
  most = Math.min(most, input.maxOrderQty > 0 ? input.maxOrderQty : most)
  const cap = parseDec(input.maxNotional)
  if (cap && cap.units > 0n) {
    const dir = input.side === 'BUY' ? 1 : -1
    const room = Number(divDec(cap, unit, 0)!.units) - (dir * exposure.position + exposure.openSameSide)
    most = Math.min(most, room)
  }
  most = Math.max(0, most)
  // The engine rounds the margin and the fee up: step down until the rounded cost fits.
  for (let i = 0; i < 3 && most > 0; i++) {
    const c = orderCost({ ...input, volume: most, exposure })
    if (!c || cmpDec(parseDec(c.cost)!, avail) <= 0) break
    most -= 1
  }
  return most
}

/** The contracts a share of the maximum comes to (whole contracts, rounded down). */
export function volumeForPercent(pct: number, max: number): number {
  if (!(max > 0) || !(pct > 0)) return 0
  return Math.floor((Math.min(100, Math.round(pct)) * max) / 100)
}

/** The share (0..100, whole percent) of the maximum a volume is; 100 at or above it. */
export function percentOfMax(volume: number, max: number): number {
  if (!(max > 0) || !(volume > 0)) return 0
  if (volume >= max) return 100
  return Math.round((volume * 100) / max)
}

/** contracts × contract value in the base coin at `places` ('' for no volume). */
export function baseSize(volume: number, contractValue: string, places: number): string {
  const cv = parseDec(contractValue)
  if (!cv || !Number.isFinite(volume) || volume <= 0) return ''
  return formatDec(floorToStep(mulDec(int(Math.trunc(volume)), cv), { units: 1n, scale: Math.max(0, places) }), Math.max(0, places))
}
