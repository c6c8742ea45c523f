/** Display helpers shared by the trade page panels. */

/** '0.0123' -> '+1.23%'; '—' when absent. */
export function formatRose(rose: string | undefined): string {
  const v = Number(rose)
  if (rose === undefined || rose === '' || !Number.isFinite(v)) return '—'
  return `${v > 0 ? '+' : ''}${(v * 100).toFixed(2)}%`
}

/** Theme token for a change: up, down or muted. */
export function changeColor(rose: string | undefined): string {
  const v = Number(rose)
  if (!rose || !Number.isFinite(v) || v === 0) return 'fg'
  return v > 0 ? 'up' : 'down'
}

/** Unix ms -> local 'MM-DD HH:mm:ss' (or time only). */
export function formatTime(ms: number, timeOnly = false): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  return timeOnly ? time : `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`
}
