/** Display helpers shared by the trade page panels. */
import { truncated } from '../lib/decimal'

/**
 * A change ratio as whole hundredths of a percent ('0.0123' -> 123), the
 * precision it is shown with; undefined when absent.
 */
function roseHundredths(rose: string | undefined): number | undefined {
  const v = Number(rose)
  if (rose === undefined || rose === '' || !Number.isFinite(v)) return undefined
  // toFixed rounds the decimal text, so 0.00005 gives 0.01 like the display.
  return Math.round(Number((v * 100).toFixed(2)) * 100)
}

/** '0.0123' -> '+1.23%'; a change that rounds to 0.00% shows as '0.00%' without a sign; '—' when absent. */
export function formatRose(rose: string | undefined): string {
  const h = roseHundredths(rose)
  if (h === undefined) return '—'
  if (h === 0) return '0.00%'
  return `${h > 0 ? '+' : '-'}${(Math.abs(h) / 100).toFixed(2)}%`
}

/** Theme token for a change: up, down or neutral (also for a change that shows as 0.00%). */
export function changeColor(rose: string | undefined): string {
  const h = roseHundredths(rose)
  if (!h) return 'fg'
  return h > 0 ? 'up' : 'down'
}

/** Unix ms -> local 'MM-DD HH:mm:ss' (or time only). */
export function formatTime(ms: number, timeOnly = false): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  return timeOnly ? time : `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`
}

/** Decimal places of fees: the ledger keeps every coin's fees to 8 places. */
export const FEE_PLACES = 8

/** A fee with its coin at the ledger's 8 places, so a column of fees lines up ('0.0000003' -> '0.00000030 BTC'). */
export function formatFee(fee: string | undefined, coin: string | undefined): string {
  const text = truncated(fee, FEE_PLACES)
  return text === '—' ? text : `${text} ${coin ?? ''}`.trim()
}

/**
 * A Unix-seconds time as the chart's time: the chart draws its axis in UTC,
 * so the time is moved by the local zone offset and the axis reads the local
 * wall clock like every other time on the page.
 */
export function localChartTime(seconds: number, offsetMinutes = new Date(seconds * 1000).getTimezoneOffset()): number {
  return seconds - offsetMinutes * 60
}
