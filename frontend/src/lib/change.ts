/** A 24 h change ratio as the trade page and the market list show it. */

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

/**
 * Theme token for a change: up, down or the neutral token (also for a
 * change that shows as 0.00%).
 */
export function changeColor(rose: string | undefined, neutral = 'fg'): string {
  const h = roseHundredths(rose)
  if (!h) return neutral
  return h > 0 ? 'up' : 'down'
}
