import { cmpDec, divDec, formatDec, mulDec, parseDec, roundDec, type Dec } from '@/lib/decimal'

/**
 * Amount ↔ volume at an ad's price, on decimal strings only (never floats),
 * the way the server opens an order (internal/p2p OpenOrder): an MNT amount
 * buys the volume it covers rounded down to the coin's places, and the
 * order's total is volume × price rounded half up to MNT's 2 places.
 */

/** Decimal places of MNT amounts and prices. */
export const FIAT_PLACES = 2

/** A decimal without trailing zeros ('2.850' → '2.85', '35000.00' → '35000'). */
export function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value
}

const positive = (s: string | undefined): Dec | undefined => {
  const d = parseDec(s ?? '')
  return d && d.units > 0n ? d : undefined
}

/** What an order of this size is: its coin volume and the MNT the buyer pays. */
export interface Sized {
  volume: string
  total: string
}

/** The order an MNT amount opens: floor(amount ÷ price) at the coin's places, and its total; undefined without one. */
export function fromAmount(amount: string, price: string, places: number): Sized | undefined {
  const a = positive(amount)
  const p = positive(price)
  if (!a || !p) return undefined
  const volume = divDec(a, p, places)
  if (!volume) return undefined
  return { volume: formatDec(volume, places), total: totalOf(volume, p) }
}

/** The order a coin volume opens: the volume (cut to the coin's places) and its total. */
export function fromVolume(volume: string, price: string, places: number): Sized | undefined {
  const v = positive(volume)
  const p = positive(price)
  if (!v || !p) return undefined
  const cut: Dec = { units: v.scale > places ? v.units / 10n ** BigInt(v.scale - places) : v.units, scale: Math.min(v.scale, places) }
  return { volume: formatDec(cut, places), total: totalOf(cut, p) }
}

function totalOf(volume: Dec, price: Dec): string {
  return formatDec(roundDec(mulDec(volume, price), FIAT_PLACES), FIAT_PLACES)
}

/** The other field of the trade form as typed: the volume for an amount, the amount for a volume ('' when not a number). */
export function counterpart(edited: 'amount' | 'volume', value: string, price: string, places: number): string {
  const sized = edited === 'amount' ? fromAmount(value, price, places) : fromVolume(value, price, places)
  if (!sized) return ''
  return trimZeros(edited === 'amount' ? sized.volume : sized.total)
}

/** Why an order size is refused before it is sent. */
export type SizeProblem = 'empty' | 'zero' | 'belowMin' | 'aboveMax' | 'aboveAvailable' | 'aboveBalance'

/**
 * Checks an order's size against the ad: a volume above zero, a total
 * within the per-order limits, no more than the ad has left and, for a
 * seller, no more than the OTC balance.
 */
export function checkSize(
  sized: Sized | undefined,
  limits: { minTrade: string; maxTrade: string; available: string; balance?: string },
): SizeProblem | undefined {
  if (!sized) return 'empty'
  const volume = parseDec(sized.volume)
  const total = parseDec(sized.total)
  if (!volume || !total || volume.units <= 0n) return 'zero'
  const min = parseDec(limits.minTrade)
  const max = parseDec(limits.maxTrade)
  if (min && cmpDec(total, min) < 0) return 'belowMin'
  if (max && cmpDec(total, max) > 0) return 'aboveMax'
  const available = parseDec(limits.available)
  if (available && cmpDec(volume, available) > 0) return 'aboveAvailable'
  const balance = limits.balance === undefined ? undefined : parseDec(limits.balance)
  if (balance && cmpDec(volume, balance) > 0) return 'aboveBalance'
  return undefined
}

/**
 * A floating ad's price: the reference rate × priceRate % at MNT's 2
 * places (half up), as the server prices it; '' when either is missing.
 */
export function floatingPrice(rate: string, priceRate: string): string {
  const r = positive(rate)
  const pct = positive(priceRate)
  if (!r || !pct) return ''
  const price = mulDec(r, pct)
  // ÷ 100: two more places of scale.
  return formatDec(roundDec({ units: price.units, scale: price.scale + 2 }, FIAT_PLACES), FIAT_PLACES)
}
