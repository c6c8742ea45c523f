import { cmpDec, formatDec, parseDec, subDec, type Dec } from '@/lib/decimal'
import type { Holding, Project, RatePeriod } from '../api/savings-api'

/**
 * The savings dialogs' arithmetic: what an amount typed into the subscribe
 * or redeem dialog may be, and what a balance earns in a day. Exact decimal
 * arithmetic on strings (lib/decimal), never floats.
 */

/** Why a typed amount cannot be sent (each is a text key under `errors.`), or undefined when it can. */
export type AmountError = 'positive' | 'precision' | 'min' | 'available' | 'cap' | 'redeemable'

/** A typed amount as a decimal (a point typed last counts as none); undefined when it is not a plain number. */
function amountOf(text: string): Dec | undefined {
  const t = text.trim().replace(/\.$/, '')
  if (!/^\d+(\.\d+)?$/.test(t) && !/^\.\d+$/.test(t)) return undefined
  return parseDec(t)
}

const ZERO: Dec = { units: 0n, scale: 0 }
const dec = (value: string | undefined): Dec => parseDec(value ?? '') ?? ZERO

/** Decimals of a typed amount that matter ('1.50' has 2: they were typed). */
function placesTyped(text: string): number {
  const i = text.indexOf('.')
  return i < 0 ? 0 : text.trim().replace(/\.$/, '').length - i - 1
}

/** What a subscription is checked against. */
export interface SubscribeLimits {
  /** Decimals of the coin. */
  precision: number
  /** The least one subscription may be. */
  minAmount: string
  /** The spot account's available balance of the coin. */
  available: string
  /** What the user may still add under the product's cap; undefined when there is no cap. */
  capLeft?: string
}

/**
 * Checks a subscription amount as it is typed: above 0, at most the coin's
 * decimals, at least the product's minimum, at most the available spot
 * balance and at most what the cap leaves. An empty field is no error (it
 * just cannot be sent).
 */
export function subscribeError(text: string, limits: SubscribeLimits): AmountError | undefined {
  if (text.trim() === '') return undefined
  const amount = amountOf(text)
  if (!amount || amount.units <= 0n) return 'positive'
  if (placesTyped(text) > limits.precision) return 'precision'
  if (cmpDec(amount, dec(limits.minAmount)) < 0) return 'min'
  if (cmpDec(amount, dec(limits.available)) > 0) return 'available'
  if (limits.capLeft !== undefined && cmpDec(amount, dec(limits.capLeft)) > 0) return 'cap'
  return undefined
}

/** Checks a redemption amount as it is typed: above 0, at most the coin's decimals, at most what can be redeemed. */
export function redeemError(text: string, precision: number, redeemable: string): AmountError | undefined {
  if (text.trim() === '') return undefined
  const amount = amountOf(text)
  if (!amount || amount.units <= 0n) return 'positive'
  if (placesTyped(text) > precision) return 'precision'
  if (cmpDec(amount, dec(redeemable)) > 0) return 'redeemable'
  return undefined
}

/** True when the field holds an amount that can be sent. */
export function canSend(text: string, error: AmountError | undefined): boolean {
  return text.trim() !== '' && error === undefined
}

/** A decimal cut (never rounded up) to `places`, as a plain string ('' when not a number). */
export function cut(value: string, places: number): string {
  const d = parseDec(value)
  return d ? formatDec(d, Math.max(0, places)) : ''
}

/** The smaller of two decimal strings. */
export function minOf(a: string, b: string): string {
  return cmpDec(dec(a), dec(b)) <= 0 ? a : b
}

/** a − b, at least 0, as a plain string. */
export function minusFloor0(a: string, b: string): string {
  const d = subDec(dec(a), dec(b))
  return d.units > 0n ? formatDec(d, d.scale) : '0'
}

/**
 * What the user may still put into a product under its cap: the cap less
 * what they hold (the server's rule); undefined when the product has none.
 */
export function capLeft(project: Pick<Project, 'maxPerUser'>, holding?: Pick<Holding, 'amount'>): string | undefined {
  if (!project.maxPerUser) return undefined
  return minusFloor0(project.maxPerUser, holding?.amount ?? '0')
}

/**
 * Days a rate's period holds, as a fraction num/den of days (a year counts
 * 365 days, a month 365/12, as the server's yearly rate does: a daily rate
 * × 365, weekly × 365/7, monthly × 12).
 */
const PERIOD_DAYS: Record<RatePeriod, [bigint, bigint]> = {
  daily: [1n, 1n],
  weekly: [7n, 1n],
  monthly: [365n, 12n],
  yearly: [365n, 1n],
}

/**
 * One day's interest on a balance (the server's rule: each tier's slice of
 * the balance × its yearly rate ÷ 365, summed exactly, then cut to the
 * coin's decimals). Rates are percent per the product's period.
 */
export function dailyInterest(balance: string, project: Pick<Project, 'rate' | 'tiers' | 'period' | 'precision'>): string {
  const places = project.precision
  const b = dec(balance)
  if (b.units <= 0n) return formatDec(ZERO, places)
  const tiers = project.tiers.length > 0 ? project.tiers : [{ upTo: '', rate: project.rate }]
  // Sum of slice × rate, at one scale; then ÷ 100 (percent) ÷ days of the period.
  let sum: Dec = ZERO
  let from: Dec = ZERO
  for (const tier of tiers) {
    const cap = tier.upTo ? dec(tier.upTo) : undefined
    const to = cap && cmpDec(cap, b) < 0 ? cap : b
    if (cmpDec(to, from) > 0) {
      const slice = subDec(to, from)
      const part: Dec = { units: slice.units * dec(tier.rate).units, scale: slice.scale + dec(tier.rate).scale }
      const scale = Math.max(sum.scale, part.scale)
      sum = {
        units: sum.units * 10n ** BigInt(scale - sum.scale) + part.units * 10n ** BigInt(scale - part.scale),
        scale,
      }
    }
    if (cmpDec(to, b) === 0) break
    from = to
  }
  const [num, den] = PERIOD_DAYS[project.period] ?? PERIOD_DAYS.yearly
  // interest = sum / 100 / (num/den) = sum × den / (100 × num), cut to `places`.
  const numerator = sum.units * den * 10n ** BigInt(places)
  const denominator = 100n * num * 10n ** BigInt(sum.scale)
  return formatDec({ units: numerator / denominator, scale: places }, places)
}

/**
 * What a subscription adds to a day's interest from the next UTC day on:
 * the day's interest on what will be held less that on what is held now
 * (with tiers the new amount may earn a lower rate than the first).
 */
export function addedDailyInterest(
  project: Pick<Project, 'rate' | 'tiers' | 'period' | 'precision'>,
  held: string,
  amount: string,
): string {
  const before = dailyInterest(held, project)
  const total = dec(held)
  const add = dec(amount)
  const scale = Math.max(total.scale, add.scale)
  const after: Dec = { units: total.units * 10n ** BigInt(scale - total.scale) + add.units * 10n ** BigInt(scale - add.scale), scale }
  return minusFloor0(dailyInterest(formatDec(after, scale), project), before)
}

/** The UTC date (YYYY-MM-DD) of the day after `now`: when a standard redemption asked for now reaches spot. */
export function nextUtcDate(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
  return d.toISOString().slice(0, 10)
}

/** One day of the interest chart. */
export interface InterestDay {
  /** UTC date, YYYY-MM-DD. */
  date: string
  /** Interest paid for the day (the sum of the day's records), exact. */
  amount: string
}

function addDec(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale)
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale }
}

/** The UTC date `n` days before `date` (YYYY-MM-DD). */
function daysBefore(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d - n)).toISOString().slice(0, 10)
}

/**
 * The interest of one coin per day over `days` days ending on its latest
 * interest day (the records' UTC days, so the chart follows the exchange's
 * settlement days rather than the browser's clock), with the total. Days
 * without interest are there with 0.
 */
export function interestSeries(
  records: { coinSymbol: string; amount: string; date: string }[],
  coin: string,
  days = 30,
): { days: InterestDay[]; total: string } {
  const byDay = new Map<string, Dec>()
  for (const r of records) {
    if (r.coinSymbol !== coin || !/^\d{4}-\d{2}-\d{2}$/.test(r.date)) continue
    byDay.set(r.date, addDec(byDay.get(r.date) ?? ZERO, dec(r.amount)))
  }
  const last = [...byDay.keys()].sort().at(-1)
  if (!last) return { days: [], total: '0' }
  const out: InterestDay[] = []
  let total = ZERO
  for (let i = days - 1; i >= 0; i--) {
    const date = daysBefore(last, i)
    const v = byDay.get(date) ?? ZERO
    total = addDec(total, v)
    out.push({ date, amount: formatDec(v, v.scale) })
  }
  return { days: out, total: formatDec(total, total.scale) }
}

/** The coins with interest records, the one paid most recently first. */
export function interestCoins(records: { coinSymbol: string; ctime: number }[]): string[] {
  const latest = new Map<string, number>()
  for (const r of records) latest.set(r.coinSymbol, Math.max(latest.get(r.coinSymbol) ?? 0, r.ctime))
  return [...latest.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c)
}
