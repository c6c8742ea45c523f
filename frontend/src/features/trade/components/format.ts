/** Display helpers shared by the trade page panels. */
import { fixed } from '@/lib/decimal'

export { FEE_PLACES, formatFee } from '@/lib/decimal'

export { changeColor, formatRose } from '@/lib/change'

/** Unix ms -> local 'MM-DD HH:mm:ss' (or time only). */
export function formatTime(ms: number, timeOnly = false): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  return timeOnly ? time : `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`
}

/**
 * A Unix-seconds time as the chart's time: the chart draws its axis in UTC,
 * so the time is moved by the local zone offset and the axis reads the local
 * wall clock like every other time on the page.
 */
export function localChartTime(seconds: number, offsetMinutes = new Date(seconds * 1000).getTimezoneOffset()): number {
  return seconds - offsetMinutes * 60
}

/**
 * The chart's price labels (axis, last price, crosshair) at the pair's
 * places and grouped like every other price on the page: 334,884,288 MNT,
 * not 334884288.
 */
export function chartPriceFormatter(places: number): (price: number) => string {
  return (price) => fixed(price, places)
}
