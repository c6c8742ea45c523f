/**
 * How the competition page shows its figures and its clock, apart from
 * React: nicknames masked as the server masks them, ROI and profit signed,
 * rank ranges, the phase at a time and the countdown to the next moment.
 * Amounts are exact decimals (lib/decimal).
 */
import { fixed, parseDec, roundDec } from '@/lib/decimal'
import type { Competition, CompetitionState } from '../api/competition-api'

/** Places of the competition's amounts (the server's DisplayPlaces). */
export const AMOUNT_PLACES = 2

/**
 * A nickname as the rankings show it (internal/competition Mask): the
 * first and last characters around '***' ('alice' → 'a***e'); one or two
 * characters keep only the first; nothing is '***'.
 */
export function maskNickname(nick: string | undefined | null): string {
  const chars = Array.from((nick ?? '').trim())
  if (chars.length === 0) return '***'
  if (chars.length <= 2) return `${chars[0]}***`
  return `${chars[0]}***${chars[chars.length - 1]}`
}

/** The sign of a figure as it shows at `places`: 1, -1 or 0 (0 too for no number). */
export function shownSign(value: string | undefined | null, places = AMOUNT_PLACES): number {
  const d = parseDec(value)
  if (!d) return 0
  const r = roundDec(d, places)
  return r.units > 0n ? 1 : r.units < 0n ? -1 : 0
}

/** Theme colour of an ROI or a profit: up, down or neutral. */
export function signColor(value: string | undefined | null): string {
  const s = shownSign(value)
  return s > 0 ? 'up' : s < 0 ? 'down' : 'fg'
}

/** A figure at `places` with its sign ('+12.34', '-0.50'; '0.00' unsigned); '—' when there is none. */
export function signedAmount(value: string | undefined | null, places = AMOUNT_PLACES): string {
  const shown = fixed(value, places)
  if (shown === '—') return shown
  const s = shownSign(value, places)
  if (s === 0) return shown.replace(/^-/, '')
  return s > 0 ? `+${shown}` : shown
}

/** An ROI, already in percent ('12.5' → '+12.50%'); '—' for none (not ranked yet, nothing at stake). */
export function roiText(roi: string | undefined | null): string {
  const shown = signedAmount(roi, 2)
  return shown === '—' ? shown : `${shown}%`
}

/** A row of the prize table's ranks: '1', or '4–10'. */
export function rankRange(from: number, to: number): string {
  return to > from ? `${from}–${to}` : String(from)
}

/**
 * The competition's phase at `now` (the server's clock): the server's word,
 * moved on when a moment it named has passed since it answered (upcoming
 * turns running at the start, running turns ended at the end).
 */
export function phaseAt(c: Pick<Competition, 'state' | 'startTime' | 'endTime'>, now: number): CompetitionState {
  if (c.state === 'ended' || c.state === 'settled') return c.state
  if (now < c.startTime) return 'upcoming'
  if (now < c.endTime) return 'running'
  return 'ended'
}

/** The moment the countdown counts to: the start while upcoming, the end while running; none after. */
export function countdownTarget(c: Pick<Competition, 'startTime' | 'endTime'>, phase: CompetitionState): number | undefined {
  if (phase === 'upcoming') return c.startTime
  if (phase === 'running') return c.endTime
  return undefined
}

/** The time left to `target` in whole days, hours, minutes and seconds (all 0 once reached). */
export interface TimeLeft {
  days: number
  hours: number
  minutes: number
  seconds: number
}

export function timeLeft(target: number, now: number): TimeLeft {
  const left = Math.max(0, Math.floor((target - now) / 1000))
  return { days: Math.floor(left / 86400), hours: Math.floor((left % 86400) / 3600), minutes: Math.floor((left % 3600) / 60), seconds: left % 60 }
}

/** HH:MM:SS of a time left (the days are said apart). */
export function clockText(t: TimeLeft): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(t.hours)}:${pad(t.minutes)}:${pad(t.seconds)}`
}
