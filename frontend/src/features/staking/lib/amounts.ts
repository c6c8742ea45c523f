import { cmpDec, formatDec, parseDec, subDec, type Dec } from '@/lib/decimal'

/**
 * The arithmetic of the earn pages (staking, the launchpad, crypto loans):
 * what a typed amount may be, and the figures shown as it is typed. Exact
 * decimal arithmetic on strings (lib/decimal), never floats.
 */

const ZERO: Dec = { units: 0n, scale: 0 }

/** A decimal string as a Dec (0 when it is not one). */
export const dec = (value: string | undefined): Dec => parseDec(value ?? '') ?? ZERO

/** A Dec at its own scale, as a plain string. */
export const plain = (d: Dec): string => formatDec(d, d.scale)

function scaleTo(d: Dec, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale)
}

/** a + b exactly. */
export function addDec(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale)
  return { units: scaleTo(a, scale) + scaleTo(b, scale), scale }
}

/** The smallest of some decimal strings ('' entries, no limit, are skipped); undefined when all are ''. */
export function minOfLimits(...values: (string | undefined)[]): string | undefined {
  let best: string | undefined
  for (const v of values) {
    if (v === undefined || v === '') continue
    if (best === undefined || cmpDec(dec(v), dec(best)) < 0) best = v
  }
  return best
}

/** a − b, at least 0, as a plain string. */
export function minus0(a: string, b: string): string {
  const d = subDec(dec(a), dec(b))
  return d.units > 0n ? plain(d) : '0'
}

/** A decimal cut (never rounded up) to `places`, as a plain string ('' when not a number). */
export function cutTo(value: string, places: number): string {
  const d = parseDec(value)
  return d ? formatDec(d, Math.max(0, places)) : ''
}

/** Why a typed amount cannot be sent: its kind (a text key under `errors.`) and the figure the message names. */
export interface AmountProblem {
  /** 'positive', 'precision', 'min', or the kind of the upper limit exceeded. */
  kind: string
  /** The minimum or the limit; '' for 'positive' and 'precision'. */
  value: string
}

/** What an amount is checked against. */
export interface AmountRules {
  /** Decimals of the coin. */
  precision: number
  /** The least it may be ('' or undefined: no minimum). */
  min?: string
  /**
   * Upper limits, checked in this order: the first one exceeded names the
   * problem ('available', 'userCap', 'remaining', …). A limit of '' or
   * undefined is no limit.
   */
  limits?: { kind: string; max: string | undefined }[]
}

/** A typed amount as a decimal (a point typed last counts as none); undefined when it is not a plain number. */
export function typedAmount(text: string): Dec | undefined {
  const t = text.trim().replace(/\.$/, '')
  if (!/^\d+(\.\d+)?$/.test(t) && !/^\.\d+$/.test(t)) return undefined
  return parseDec(t)
}

/** Decimals of a typed amount ('1.50' has 2: they were typed). */
function placesTyped(text: string): number {
  const t = text.trim().replace(/\.$/, '')
  const i = t.indexOf('.')
  return i < 0 ? 0 : t.length - i - 1
}

/**
 * Checks an amount as it is typed: above 0, at most the coin's decimals, at
 * least the minimum, at most each limit. An empty field is no problem (it
 * just cannot be sent).
 */
export function checkAmount(text: string, rules: AmountRules): AmountProblem | undefined {
  if (text.trim() === '') return undefined
  const amount = typedAmount(text)
  if (!amount || amount.units <= 0n) return { kind: 'positive', value: '' }
  if (placesTyped(text) > rules.precision) return { kind: 'precision', value: '' }
  if (rules.min && cmpDec(amount, dec(rules.min)) < 0) return { kind: 'min', value: rules.min }
  for (const limit of rules.limits ?? []) {
    if (limit.max !== undefined && limit.max !== '' && cmpDec(amount, dec(limit.max)) > 0) return { kind: limit.kind, value: limit.max }
  }
  return undefined
}

/** True when the field holds an amount that can be sent. */
export function canSend(text: string, problem: AmountProblem | undefined): boolean {
  return text.trim() !== '' && problem === undefined && typedAmount(text) !== undefined
}

/** The amount as sent: without a trailing point. */
export const sent = (text: string): string => text.trim().replace(/\.$/, '')

/** What a stake earns: each day's reward and the whole term's. */
export interface ExpectedRewards {
  /** One day's reward, cut to the coin's decimals. */
  daily: string
  /** The term's rewards: the daily reward × the days of the term. */
  total: string
}

/**
 * The rewards of a stake as the server pays them: each day amount × APR ÷
 * 365, cut to the coin's decimals (the unit is never rounded up), and the
 * term's total that day's reward × the term's days (`rewardsExpected` of
 * my_pos is worked out the same way). 100 USDT at 10% for 90 days:
 * 0.027397 a day, 2.465730 in all.
 */
export function expectedRewards(amount: string, apr: string, termDays: number, precision: number): ExpectedRewards {
  const a = dec(amount)
  const r = dec(apr)
  if (a.units <= 0n || r.units <= 0n) return { daily: formatDec(ZERO, precision), total: formatDec(ZERO, precision) }
  // daily = a × r ÷ (100 × 365), in units of 10^-precision, rounded down.
  const numerator = a.units * r.units * 10n ** BigInt(precision)
  const denominator = 36500n * 10n ** BigInt(a.scale + r.scale)
  const daily = numerator / denominator
  return {
    daily: formatDec({ units: daily, scale: precision }, precision),
    total: formatDec({ units: daily * BigInt(Math.max(0, termDays)), scale: precision }, precision),
  }
}

/** The UTC date (YYYY-MM-DD) `days` days after `now`'s UTC day. */
export function utcDatePlus(days: number, now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10)
}

/**
 * The days a stake made today earns: from the next UTC day for the term's
 * days (the principal returns after the last).
 */
export function stakeDays(termDays: number, now = new Date()): { start: string; end: string } {
  return { start: utcDatePlus(1, now), end: utcDatePlus(Math.max(1, termDays), now) }
}

/**
 * `part` as a percentage of `whole`, cut to 2 decimals ('' when there is no
 * whole): how much of a total cap is staked, how much of a sale committed.
 */
export function percentOf(part: string, whole: string): string {
  const p = dec(part)
  const w = dec(whole)
  if (w.units <= 0n) return ''
  const scale = Math.max(p.scale, w.scale)
  const units = (scaleTo(p, scale) * 10000n) / scaleTo(w, scale)
  return formatDec({ units: units < 0n ? 0n : units, scale: 2 }, 2)
}

/** The decimals of an amount string as the server writes it ('0.01581958' → 8, '100' → 0); undefined for ''. */
export function decimalsOf(value: string | undefined): number | undefined {
  if (!value) return undefined
  const i = value.indexOf('.')
  return i < 0 ? 0 : value.length - i - 1
}

/** A limit or a price as quoted: grouped, without trailing zeros ('50,000', '0.01', '2.2'). */
export function quotedAmount(value: string, places: number): string {
  const d = parseDec(value)
  if (!d) return '--'
  const text = formatDec(d, Math.max(0, Math.min(places, d.scale)))
  const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text
  const [int, frac] = trimmed.split('.')
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`
}
