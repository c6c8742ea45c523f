import { cmpDec, fixed, formatDec, mulDec, parseDec, type Dec } from '@/lib/decimal'
import { rateLocale } from '@/lib/rate-locale'
import type { RateTables } from '../api/get-rates'

/**
 * Prices in the user's currency (the user_Currency cookie) through the rate
 * tables, by the valuation rule of spec §1 that the wallet follows: MNT uses
 * the mn_MN table (prices in MNT), any other currency the en_US table
 * (prices in USD).
 */

export { rateLocale }

/** The currency the figures are in: MNT for MNT, USD for every other choice (its rates are in USD). */
export function shownCurrency(currency: string): 'MNT' | 'USD' {
  return rateLocale(currency) === 'mn_MN' ? 'MNT' : 'USD'
}

/** An amount of a coin in the chosen currency. */
export interface FiatAmount {
  /** The exact product amount × rate. */
  value: Dec
  /** The currency sign of the table (lang_logo: $ or ₮). */
  sign: string
}

/**
 * amount (a decimal string) of coin in the chosen currency, or undefined
 * when either is missing: no amount, no table, or no rate of the coin.
 */
export function toFiat(amount: string | undefined, coin: string, currency: string, rates: RateTables | undefined): FiatAmount | undefined {
  const table = rates?.[rateLocale(currency)]
  const a = parseDec(amount)
  const r = parseDec(table?.[coin.toUpperCase()])
  if (!table || !a || !r || r.units <= 0n) return undefined
  return { value: mulDec(a, r), sign: table.lang_logo ?? '' }
}

/** Significant digits shown of a price below one unit of the currency. */
const SMALL_PRICE_DIGITS = 4
/** The most decimals a fiat price shows. */
const MAX_FIAT_PLACES = 8

/**
 * Decimal places of a fiat price: 2 (the fiat precision of spec §9), or
 * below 1 enough to show 4 significant digits, at most 8, so a coin worth
 * $0.2473 does not read as $0.25 (nor one worth less than a cent as $0.00).
 */
export function fiatPlaces(value: Dec): number {
  const abs: Dec = { units: value.units < 0n ? -value.units : value.units, scale: value.scale }
  if (abs.units === 0n || cmpDec(abs, { units: 1n, scale: 0 }) >= 0) return 2
  const digits = formatDec(abs, abs.scale).split('.')[1] ?? ''
  const zeros = digits.length - digits.replace(/^0+/, '').length
  return Math.min(MAX_FIAT_PLACES, Math.max(2, zeros + SMALL_PRICE_DIGITS))
}

/** A fiat price as shown: '$97,500.50', '₮853.19', '$0.2473'; '—' without one. */
export function formatFiatPrice(fiat: FiatAmount | undefined): string {
  if (!fiat) return '—'
  return `${fiat.sign}${fixed(formatDec(fiat.value, fiat.value.scale), fiatPlaces(fiat.value))}`
}
