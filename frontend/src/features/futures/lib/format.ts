/**
 * How the futures screens show their figures: prices at the contract's
 * places, money at {@link MONEY_SHOWN} places, PnL signed and coloured,
 * rates as percentages, the liquidation price (or a dash when there is
 * none), the margin ratio's level, the ADL queue's lights and the funding
 * countdown. Pure functions, unit-tested.
 */
import { cmpDec, fixed, formatDec, mulDec, parseDec, roundDec, subDec, truncated, divDec } from '@/lib/decimal'

/** Places of margin-coin money on the trading screens (balances, margin, PnL, cost): as the big venues show USDT. */
export const MONEY_SHOWN = 4

/** A money figure (margin, cost, fee, balance) at the screens' places, rounded half up and grouped. */
export function money(value: string | undefined | null, places = MONEY_SHOWN): string {
  return fixed(value, places)
}

/** What may still be spent (the available balance), cut to the screens' places, never rounded up. */
export function spendable(value: string | undefined | null, places = MONEY_SHOWN): string {
  return truncated(value, places)
}

/** The sign of a decimal: 1, -1 or 0 (0 too for what is not a number). */
export function signOf(value: string | undefined | null): number {
  const d = parseDec(value)
  if (!d || d.units === 0n) return 0
  return d.units > 0n ? 1 : -1
}

/** A PnL at `places` with its sign ('+12.3400', '-0.5000'; '0.0000' without one); '—' when not a number. */
export function signedMoney(value: string | undefined | null, places = MONEY_SHOWN): string {
  const shown = fixed(value, places)
  if (shown === '—') return shown
  // What rounds to zero has no sign.
  if (/^-?[0.,]+$/.test(shown)) return shown.replace(/^-/, '')
  return signOf(value) > 0 ? `+${shown}` : shown
}

/** Theme colour of a PnL: up for a profit, down for a loss, neutral for none. */
export function pnlColor(value: string | undefined | null, neutral = 'fg'): string {
  const d = parseDec(value)
  if (!d) return neutral
  const r = roundDec(d, MONEY_SHOWN)
  return r.units > 0n ? 'up' : r.units < 0n ? 'down' : neutral
}

/** A percentage that is already in percent ('12.345' → '+12.35%'); signed; '—' when not a number. */
export function signedPercent(value: string | undefined | null, places = 2): string {
  const shown = fixed(value, places)
  if (shown === '—') return shown
  if (/^-?[0.,]+$/.test(shown)) return `${shown.replace(/^-/, '')}%`
  return `${signOf(value) > 0 ? '+' : ''}${shown}%`
}

/** A rate as a fraction ('0.0001') in percent at 4 places ('0.0100%'), as funding rates are shown; '—' when not a number. */
export function fundingRateText(rate: string | undefined | null): string {
  const d = parseDec(rate)
  if (!d) return '—'
  const pct = roundDec(mulDec(d, { units: 100n, scale: 0 }), 4)
  const shown = formatDec(pct, 4)
  return `${/^-0\.0+$/.test(shown) ? shown.slice(1) : shown}%`
}

/**
 * The liquidation price as the positions show it: at the contract's price
 * places, or '—' when the position has none (a long whose margin covers a
 * fall to zero answers '', as does a price that is not above zero).
 */
export function liquidationText(price: string | undefined | null, places: number): string {
  const d = parseDec(price)
  if (!d || d.units <= 0n) return '—'
  return fixed(price, places)
}

/**
 * How far the mark price is from the liquidation price, in percent of the
 * mark (2 places), or undefined without both. The positions warn when it is
 * close ({@link LIQUIDATION_NEAR_PERCENT}).
 */
export function liquidationDistance(mark: string | undefined, liquidation: string | undefined): string | undefined {
  const m = parseDec(mark)
  const l = parseDec(liquidation)
  if (!m || !l || m.units <= 0n || l.units <= 0n) return undefined
  let diff = subDec(m, l)
  if (diff.units < 0n) diff = { units: -diff.units, scale: diff.scale }
  const pct = divDec(mulDec(diff, { units: 100n, scale: 0 }), m, 4)!
  return formatDec(roundDec(pct, 2), 2)
}

/** The mark price within this many percent of the liquidation price: the liquidation price shows in the warning colour. */
export const LIQUIDATION_NEAR_PERCENT = 5

/** True when the liquidation price is within {@link LIQUIDATION_NEAR_PERCENT} % of the mark. */
export function liquidationNear(mark: string | undefined, liquidation: string | undefined): boolean {
  const d = liquidationDistance(mark, liquidation)
  return d !== undefined && Number(d) <= LIQUIDATION_NEAR_PERCENT
}

/** The margin ratio's level (percent of the way to liquidation at 100): safe below 50, warning below 80, danger from 80. */
export type RatioLevel = 'safe' | 'warning' | 'danger'

export function marginRatioLevel(ratio: string | undefined | null): RatioLevel {
  const d = parseDec(ratio)
  if (!d) return 'safe'
  if (cmpDec(d, { units: 80n, scale: 0 }) >= 0) return 'danger'
  if (cmpDec(d, { units: 50n, scale: 0 }) >= 0) return 'warning'
  return 'safe'
}

/** Theme colours of the levels. */
export const RATIO_COLORS: Record<RatioLevel, string> = { safe: 'up', warning: 'fg.warning', danger: 'down' }

/** The margin ratio in percent at 2 places ('12.34%'); '—' when not a number. */
export function ratioText(ratio: string | undefined | null): string {
  const shown = fixed(ratio, 2)
  return shown === '—' ? shown : `${shown}%`
}

/** The five lights of the auto-deleveraging queue: the first `level` lit (0..5; anything else none). */
export function adlLights(level: number | undefined): boolean[] {
  const n = Number.isInteger(level) ? Math.max(0, Math.min(5, level as number)) : 0
  return [0, 1, 2, 3, 4].map((i) => i < n)
}

/** The time left until `target` (Unix ms) as HH:MM:SS (hours may pass 24); '00:00:00' once reached, '—' without a target. */
export function countdown(target: number | undefined, now: number): string {
  if (!target || !Number.isFinite(target)) return '—'
  const left = Math.max(0, Math.floor((target - now) / 1000))
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(left / 3600))}:${pad(Math.floor((left % 3600) / 60))}:${pad(left % 60)}`
}

/** A count of contracts, grouped ('1,200'); '—' for what is not a number. */
export function contracts(value: number | string | undefined | null): string {
  return fixed(value, 0)
}
