/**
 * Exact decimal arithmetic and formatting on strings, for every screen (trade,
 * markets, orders, wallet). Prices, amounts and balances are never floats:
 * each value is a bigint scaled by 10^scale, so rounding to the tick and lot
 * grids or to a coin's precision is exact (0.1 + 0.2 stays 0.3) and a balance
 * is never rounded through a binary float.
 *
 * The screens keep their own display and input rules, each one a function
 * of its own (never a flag that changes what a screen shows):
 * - numbers: {@link parseDec} takes '+3' too; the wallet helpers read only a
 *   plain decimal ('-12.5', '0.001') and count anything else as no number;
 * - display, rounded half up and grouped: {@link fixed} ('—' for no number;
 *   trade, markets, orders) and {@link formatFixed} ('--'; wallet);
 * - display, cut towards zero: {@link truncated} (grouped, '—'),
 *   {@link formatCut} (grouped, '--'; wallet) and
 *   {@link truncateDecimals} (ungrouped, for an input's value, '');
 *   {@link truncateTrim} drops the trailing zeros, {@link formatAtLeast}
 *   keeps every significant decimal of a record;
 * - typing: {@link sanitizeInput} (order form: grouping commas kept as
 *   grouping) and {@link sanitizeAmount} (wallet, spec §5: any comma is a
 *   decimal point, leading zeros dropped).
 */
import { groupThousands } from './group-thousands'

export { groupThousands }

/** A decimal as an integer count of 10^-scale units. */
export interface Dec {
  units: bigint
  scale: number
}

/** A decimal with an optional sign ('+' or '-'). */
const SIGNED_RE = /^([+-])?(\d*)(?:\.(\d*))?$/
/** A plain decimal: an optional '-' only (the wallet's amounts and balances). */
const PLAIN_RE = /^(-)?(\d*)(?:\.(\d*))?$/

const ZERO: Dec = { units: 0n, scale: 0 }

function parseWith(re: RegExp, value: string | number | undefined | null): Dec | undefined {
  if (value === undefined || value === null) return undefined
  const s = String(value).trim()
  const m = re.exec(s)
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return undefined
  const frac = m[3] ?? ''
  const units = BigInt((m[2] || '0') + frac)
  return { units: m[1] === '-' ? -units : units, scale: frac.length }
}

/** Parses '12.34', '.5', '-3', '+3' into a Dec; undefined for anything else (incl. '', '.', exponents). */
export function parseDec(value: string | number | undefined | null): Dec | undefined {
  return parseWith(SIGNED_RE, value)
}

/** Parses a plain decimal ('-12.5', '0.001', no '+'); undefined when it is not one. */
function parsePlain(value: string | number | undefined | null): Dec | undefined {
  return parseWith(PLAIN_RE, value)
}

function rescale(d: Dec, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale)
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale)
  return [rescale(a, scale), rescale(b, scale), scale]
}

/** The decimals of d that matter: its scale less the trailing zeros ('5.0' 0, '0.00010' 4). */
function significantPlaces(d: Dec): number {
  let { units, scale } = d
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n
    scale -= 1
  }
  return scale
}

/** Number of decimal places of a step such as '0.01' (2) or '5' (0); trailing zeros count only when non-zero digits follow. */
export function placesOf(step: string | undefined): number {
  const d = parseDec(step)
  return d ? significantPlaces(d) : 0
}

/** Formats a Dec with exactly `places` decimals (truncating towards zero). */
export function formatDec(d: Dec, places: number): string {
  let units = d.units
  if (places < d.scale) units = units / 10n ** BigInt(d.scale - places)
  else units = units * 10n ** BigInt(places - d.scale)
  const neg = units < 0n
  const abs = (neg ? -units : units).toString().padStart(places + 1, '0')
  const int = abs.slice(0, abs.length - places)
  const frac = places > 0 ? `.${abs.slice(abs.length - places)}` : ''
  return `${neg ? '-' : ''}${int}${frac}`
}

/** A fraction ('0.00075') as a percentage without trailing zeros ('0.075%'); '' when it is not a decimal. */
export function ratePercent(rate: string | undefined): string {
  const d = parseDec(rate)
  if (!d) return ''
  const pct: Dec = d.scale >= 2 ? { units: d.units, scale: d.scale - 2 } : { units: d.units * 10n ** BigInt(2 - d.scale), scale: 0 }
  return `${formatDec(pct, placesOf(formatDec(pct, pct.scale)))}%`
}

/** Compares two decimals: -1, 0 or 1. */
export function cmpDec(a: Dec, b: Dec): number {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** a − b exactly. */
export function subDec(a: Dec, b: Dec): Dec {
  const [x, y, scale] = align(a, b)
  return { units: x - y, scale }
}

/** a × b exactly. */
export function mulDec(a: Dec, b: Dec): Dec {
  return { units: a.units * b.units, scale: a.scale + b.scale }
}

/** a ÷ b truncated to `places` decimals; undefined when b is zero. */
export function divDec(a: Dec, b: Dec, places: number): Dec | undefined {
  if (b.units === 0n) return undefined
  // a/b = (a.units/10^as) / (b.units/10^bs); scale the numerator so the
  // quotient has `places` decimals.
  const num = a.units * 10n ** BigInt(places + b.scale)
  const den = b.units * 10n ** BigInt(a.scale)
  return { units: num / den, scale: places }
}

/** Floors a non-negative value to a multiple of step (the tick or lot grid). */
export function floorToStep(value: Dec, step: Dec): Dec {
  if (step.units <= 0n) return value
  const [v, s, scale] = align(value, step)
  const q = v >= 0n ? v / s : -((-v + s - 1n) / s)
  return { units: q * s, scale }
}

/** Rounds to the nearest multiple of step (halves up). */
export function roundToStep(value: Dec, step: Dec): Dec {
  if (step.units <= 0n) return value
  const [v, s, scale] = align(value, step)
  const q = (2n * v + s) / (2n * s)
  return { units: q * s, scale }
}

/** True when value lies on the step grid. */
export function onStep(value: Dec, step: Dec): boolean {
  if (step.units <= 0n) return true
  const [v, s] = align(value, step)
  return v % s === 0n
}

/** Floors a decimal string to the step and formats it with the step's places ('' when not a number). */
export function floorString(value: string, step: string): string {
  const v = parseDec(value)
  const s = parseDec(step)
  if (!v) return ''
  if (!s) return value
  return formatDec(floorToStep(v, s), placesOf(step))
}

/**
 * Rounds to `places` decimals, halves away from zero (half-up on the
 * magnitude: 0.125 -> 0.13, -0.125 -> -0.13).
 */
export function roundDec(d: Dec, places: number): Dec {
  if (places >= d.scale) return d
  const div = 10n ** BigInt(d.scale - places)
  const neg = d.units < 0n
  const abs = neg ? -d.units : d.units
  let q = abs / div
  if ((abs % div) * 2n >= div) q += 1n
  return { units: neg ? -q : q, scale: places }
}

/** d at exactly `places` decimals (at least 0), rounded half up or cut towards zero, thousands grouped. */
function grouped(d: Dec, places: number, mode: 'round' | 'truncate'): string {
  const p = Math.max(0, places)
  const text = formatDec(mode === 'round' ? roundDec(d, p) : d, p)
  // No '-0.00' for a tiny negative that shows as zero.
  return groupThousands(/^-[0.]+$/.test(text) ? text.slice(1) : text)
}

/**
 * THE display rule of money and quantities on the trade, markets and orders
 * screens (en_US and mn_MN alike, as the wallet does): exactly `places`
 * decimals, thousands grouped with commas, and
 * - 'round' (the default): halves up, for what was spent or received or is
 *   quoted (prices, amounts, totals, fees, volumes), so the same fill shows
 *   the same figure on every screen;
 * - 'truncate': cut towards zero, only for what the user may still spend
 *   (an available balance): a rounded-up balance would offer more than there is.
 * '—' when the value is not a number. Never used for an input's value.
 */
export function formatDisplay(value: string | number | undefined | null, places: number, mode: 'round' | 'truncate' = 'round'): string {
  const v = parseDec(value)
  return v ? grouped(v, places, mode) : '—'
}

/** A number string for display at `places`, rounded half-up and grouped ('—' when not a number); see {@link formatDisplay}. */
export function fixed(value: string | number | undefined | null, places: number): string {
  return formatDisplay(value, places, 'round')
}

/**
 * A balance the user may spend at `places`, cut towards zero and grouped
 * ('—' when not a number): a rounded-up balance would offer more than there is.
 */
export function truncated(value: string | number | undefined | null, places: number): string {
  return formatDisplay(value, places, 'truncate')
}

/** Decimal places of fees: the ledger keeps every coin's fees to 8 places. */
export const FEE_PLACES = 8

/** A fee with its coin at the ledger's 8 places, so a column of fees lines up ('0.0000003' -> '0.00000030 BTC'); '—' without one. */
export function formatFee(fee: string | undefined, coin: string | undefined): string {
  const text = fixed(fee, FEE_PLACES)
  return text === '—' ? text : `${text} ${coin ?? ''}`.trim()
}

/**
 * Cuts a decimal string to `decimals` places without rounding (the All
 * button and the futures 3-decimal rule, spec §5/§9); the result keeps
 * exactly `decimals` places and is not grouped (an input's value).
 * Unparseable input gives ''.
 */
export function truncateDecimals(value: string, decimals: number): string {
  const d = parsePlain(value)
  return d ? formatDec(d, Math.max(0, decimals)) : ''
}

/** Like {@link truncateDecimals} but drops trailing zeros ('1.500' → '1.5'). */
export function truncateTrim(value: string, decimals: number): string {
  const s = truncateDecimals(value, decimals)
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s
}

/** The wallet's display: rounds a decimal string half up to `decimals` places, grouped; '--' when not a number. */
export function formatFixed(value: string | number | undefined | null, decimals: number): string {
  const d = parsePlain(value)
  return d ? grouped(d, decimals, 'round') : '--'
}

/**
 * The wallet's display of what an account holds or may move: cut (never
 * rounded up) to `decimals` places, grouped; '--' when not a number.
 */
export function formatCut(value: string | number | undefined | null, decimals: number): string {
  const d = parsePlain(value)
  return d ? grouped(d, decimals, 'truncate') : '--'
}

/**
 * A recorded amount (a deposit, a withdrawal, its fee) at `decimals` places
 * with thousands separators, or at more places when the value has more
 * significant digits: a record is shown exactly, never rounded away (a
 * 0.0005 BTC fee stays 0.0005 under the 2-place fee rule of spec §9).
 * '--' when not a number.
 */
export function formatAtLeast(value: string | number | undefined | null, decimals: number): string {
  const d = parsePlain(value)
  if (!d) return '--'
  return formatFixed(value, Math.max(decimals, significantPlaces(d)))
}

/** a × b of two decimal strings, rounded half up to `decimals`; '' when either is not a number. */
export function multiplyDecimals(a: string, b: string, decimals: number): string {
  const x = parsePlain(a)
  const y = parsePlain(b)
  if (!x || !y) return ''
  return formatDec(roundDec(mulDec(x, y), decimals), decimals)
}

/** Compares two decimal strings (-1, 0, 1); non-numbers count as 0. */
export function compareDecimals(a: string, b: string): number {
  return cmpDec(parsePlain(a) ?? ZERO, parsePlain(b) ?? ZERO)
}

/** a − b of two decimal strings at the larger scale; '' when either is not a number. */
export function subtractDecimals(a: string, b: string): string {
  const x = parsePlain(a)
  const y = parsePlain(b)
  if (!x || !y) return ''
  const d = subDec(x, y)
  return formatDec(d, d.scale)
}

/** True when a decimal string is above zero (false for anything that is not a plain decimal). */
export function isPositive(value: string | undefined): boolean {
  const d = parsePlain(value)
  return !!d && d.units > 0n
}

/** Thousands grouped with commas, as the page shows amounts ("5,000", "100,000,000"). */
export const GROUPED = /^\d{1,3}(,\d{3})+$/

/**
 * Keeps only what a decimal input of the order form may hold while typing:
 * digits and one dot, at most `places` decimals. Commas group thousands as
 * everywhere on the page, so a pasted "9,638.087414" or "5,000" keeps its
 * value; a comma that cannot be grouping is a decimal comma (keypads that
 * offer only a comma): "1,5" is 1.5. Without decimals (places 0) a typed
 * point stays and what follows it is refused, rather than the point
 * vanishing and the next digits multiplying the number ("1000.55" must not
 * become 100055).
 */
export function sanitizeInput(raw: string, places: number): string {
  let s = raw.replace(/[^\d.,]/g, '')
  s = s.includes('.') || GROUPED.test(s) ? s.replace(/,/g, '') : s.replace(/,/g, '.')
  const dot = s.indexOf('.')
  if (dot >= 0) {
    s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '')
    s = s.slice(0, dot + 1 + places)
  }
  return s
}

/**
 * The wallet's amount input rule (spec §5): digits with at most one decimal
 * point. Returns the cleaned value: other characters are dropped, any comma
 * is a decimal point, a second point is dropped, a leading point becomes
 * '0.', and when `decimals` is given the fraction is cut to that many places.
 */
export function sanitizeAmount(input: string, decimals?: number): string {
  let out = ''
  let seenPoint = false
  for (const ch of input.replace(/,/g, '.')) {
    if (ch >= '0' && ch <= '9') out += ch
    else if (ch === '.' && !seenPoint) {
      seenPoint = true
      out += '.'
    }
  }
  if (out.startsWith('.')) out = `0${out}`
  // Collapse leading zeros ('007' → '7', '00.5' → '0.5').
  out = out.replace(/^0+(?=\d)/, '')
  if (decimals !== undefined && seenPoint) {
    const [whole, frac = ''] = out.split('.')
    out = decimals <= 0 ? whole : `${whole}.${frac.slice(0, decimals)}`
  }
  return out
}

/** True when the value matches the wallet's amount rule exactly. */
export function isAmountText(value: string): boolean {
  return /^\d+(\.\d*)?$/.test(value)
}
