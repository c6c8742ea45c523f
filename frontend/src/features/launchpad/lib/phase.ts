import { useEffect, useState } from 'react'
import { cmpDec, formatDec, mulDec } from '@/lib/decimal'
import { dec, minus0, percentOf, plain } from '@/features/staking/lib/amounts'
import { PHASES, type LaunchReport, type LaunchView, type Phase } from '../api/launchpad-api'

/**
 * The launchpad's figures: where a sale is in its phases, the countdown to
 * the next one, how oversubscribed it is, and the allocation by the formula
 * (to show it worked out and to check the server's report against it).
 * Exact decimal arithmetic on strings.
 */

/** The position of a phase in the timeline (0 upcoming … 4 ended; -1 unknown). */
export const phaseIndex = (phase: string) => PHASES.indexOf(phase as Phase)

/** The time a phase ends (Unix ms), which the countdown counts to; undefined once allocated. */
export function nextChange(sale: Pick<LaunchView, 'phase' | 'subscribeStart' | 'subscribeEnd' | 'distributeAt'>): number | undefined {
  switch (sale.phase) {
    case 'upcoming':
      return sale.subscribeStart
    case 'subscription':
      return sale.subscribeEnd
    case 'calculation':
      return sale.distributeAt
    default:
      return undefined
  }
}

/** When each phase starts (Unix ms; the last two start at the distribution time). */
export function phaseTimes(sale: Pick<LaunchView, 'subscribeStart' | 'subscribeEnd' | 'distributeAt'>): Record<Phase, number> {
  return {
    upcoming: 0,
    subscription: sale.subscribeStart,
    calculation: sale.subscribeEnd,
    distribution: sale.distributeAt,
    ended: sale.distributeAt,
  }
}

/** A duration split into days, hours, minutes and seconds (never negative). */
export function splitDuration(ms: number): { days: number; hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor(ms / 1000))
  return {
    days: Math.floor(total / 86400),
    hours: Math.floor((total % 86400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  }
}

/** A duration as hh:mm:ss after its days ('03:04:05'). */
export function clock(ms: number): string {
  const { hours, minutes, seconds } = splitDuration(ms)
  return [hours, minutes, seconds].map((n) => String(n).padStart(2, '0')).join(':')
}

/** The time now, ticking every `intervalMs` (for countdowns). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs)
    return () => window.clearInterval(id)
  }, [intervalMs])
  return now
}

/** How many times over a sale is subscribed ('4.50'), or '' while it is not oversubscribed. */
export function oversubscribed(subscribedPercent: string): string {
  const pct = dec(subscribedPercent)
  if (cmpDec(pct, { units: 100n, scale: 0 }) <= 0) return ''
  // percent ÷ 100 at 2 decimals, rounded down.
  const units = (pct.units * 100n) / (100n * 10n ** BigInt(pct.scale))
  return formatDec({ units, scale: 2 }, 2)
}

/** The value of the tokens offered, in the commitment coin (tokens × price). */
export function offerValue(sale: Pick<LaunchView, 'tokensOffered' | 'price' | 'commitPrecision'>): string {
  return formatDec(mulDec(dec(sale.tokensOffered), dec(sale.price)), sale.commitPrecision)
}

/** The part of the offer's value committed so far, percent (2 decimals, rounded down). */
export function committedPercent(sale: Pick<LaunchView, 'totalCommitted' | 'tokensOffered' | 'price' | 'commitPrecision'>): string {
  return percentOf(sale.totalCommitted, offerValue(sale)) || '0.00'
}

/** The allocation of a report worked out by the formula, to show beside the server's figures. */
export interface WorkedAllocation {
  /** The pro-rata share cut to the token's unit. */
  share: string
  /** The first round: min(share, limit). */
  firstRound: string
  /** The first round is capped by the limit (what the capped leave is shared again among the others). */
  capped: boolean
  /** The cost of the allocation (tokens × price, rounded up to the commitment coin's unit); '' until allocated. */
  cost: string
  /** The commitment less the cost; '' until allocated. */
  returned: string
  /** The server's allocation agrees with the formula: at least the first round, at most the limit, cost and return as worked out. */
  consistent: boolean | undefined
}

/**
 * Works a report out by the formula: share = commitment ÷ total ×
 * offered (the server's figure), cut to the token's unit; the first round
 * gives min(share, limit); a user below the limit may get more when the
 * capped users' excess is shared again, never more than the limit; cost =
 * allocation × price rounded up; the rest of the commitment returns.
 */
export function workAllocation(
  report: LaunchReport,
  sale: Pick<LaunchView, 'price' | 'tokenPrecision' | 'commitPrecision'>,
): WorkedAllocation {
  const tp = sale.tokenPrecision
  const cp = sale.commitPrecision
  const share = formatDec(dec(report.proRataShare), tp)
  const capped = cmpDec(dec(share), dec(report.limit)) > 0
  const firstRound = capped ? formatDec(dec(report.limit), tp) : share
  if (report.allocated === '') return { share, firstRound, capped, cost: '', returned: '', consistent: undefined }
  const exact = mulDec(dec(report.allocated), dec(sale.price))
  // Rounded up to the commitment coin's unit.
  const scale = 10n ** BigInt(Math.max(0, exact.scale - cp))
  const up = exact.scale > cp ? (exact.units + scale - 1n) / scale : exact.units * 10n ** BigInt(cp - exact.scale)
  const cost = formatDec({ units: up, scale: cp }, cp)
  const returned = formatDec(dec(minus0(report.committed, cost)), cp)
  const allocated = dec(report.allocated)
  const consistent =
    cmpDec(allocated, dec(firstRound)) >= 0 &&
    cmpDec(allocated, dec(report.limit)) <= 0 &&
    cmpDec(dec(cost), dec(report.cost)) === 0 &&
    cmpDec(dec(returned), dec(report.returned)) === 0
  return { share, firstRound, capped, cost, returned, consistent }
}

/** The most tokens an amount of the commitment coin pays for: amount ÷ price, cut to the token's unit ('' without a price). */
export function tokensFor(amount: string, price: string, tokenPrecision: number): string {
  const a = dec(amount)
  const p = dec(price)
  if (p.units <= 0n) return ''
  const units = (a.units * 10n ** BigInt(p.scale + tokenPrecision)) / (p.units * 10n ** BigInt(a.scale))
  return plain({ units, scale: tokenPrecision })
}
