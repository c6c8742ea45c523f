/**
 * Technical indicators of the trade chart, as pure functions over a series of
 * numbers (closes or volumes, oldest first). Each result has one entry per
 * input, `undefined` where the indicator is not defined yet (the first n − 1
 * values of an n-period average), so index i of a result belongs to candle i.
 *
 * The definitions are the usual ones (TradingView's, which Binance uses):
 * - SMA(n): mean of the last n values;
 * - EMA(n): α = 2 / (n + 1), seeded with the SMA of the first n values;
 * - BOLL(n, k): SMA(n) ± k × the population standard deviation of the window;
 * - MACD(f, s, g): DIF = EMA(f) − EMA(s), DEA = EMA(g) of DIF, histogram = DIF − DEA;
 * - RSI(n): Wilder's smoothing (averages seeded with the mean of the first n
 *   changes, then avg = (avg × (n − 1) + x) / n).
 */

/** One value per candle; undefined before the indicator has enough candles. */
export type IndicatorSeries = (number | undefined)[]

/** Default parameters (Binance's). */
export const INDICATOR_PARAMS = {
  ma: [7, 25, 99],
  ema: [7, 25, 99],
  boll: { period: 20, width: 2 },
  vol: [5, 10],
  macd: { fast: 12, slow: 26, signal: 9 },
  rsi: 14,
} as const

const defined = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v)

/** Simple moving average of n values. */
export function sma(values: readonly (number | undefined)[], n: number): IndicatorSeries {
  const out: IndicatorSeries = new Array(values.length).fill(undefined)
  if (n < 1) return out
  for (let i = n - 1; i < values.length; i++) {
    let sum = 0
    let ok = true
    for (let j = i - n + 1; j <= i; j++) {
      const v = values[j]
      if (!defined(v)) {
        ok = false
        break
      }
      sum += v
    }
    if (ok) out[i] = sum / n
  }
  return out
}

/**
 * Exponential moving average of n values. The series may start with
 * undefined values (an EMA of an EMA): the average starts at the first n
 * defined values, seeded with their SMA.
 */
export function ema(values: readonly (number | undefined)[], n: number): IndicatorSeries {
  const out: IndicatorSeries = new Array(values.length).fill(undefined)
  if (n < 1) return out
  const start = values.findIndex(defined)
  if (start < 0 || start + n > values.length) return out
  const alpha = 2 / (n + 1)
  let sum = 0
  for (let i = start; i < start + n; i++) {
    const v = values[i]
    if (!defined(v)) return out
    sum += v
  }
  let prev = sum / n
  out[start + n - 1] = prev
  for (let i = start + n; i < values.length; i++) {
    const v = values[i]
    if (!defined(v)) break
    prev = alpha * v + (1 - alpha) * prev
    out[i] = prev
  }
  return out
}

/** Bollinger bands: the SMA(n) middle band and k population standard deviations above and below. */
export function boll(values: readonly number[], n: number = INDICATOR_PARAMS.boll.period, k: number = INDICATOR_PARAMS.boll.width) {
  const mid = sma(values, n)
  const upper: IndicatorSeries = new Array(values.length).fill(undefined)
  const lower: IndicatorSeries = new Array(values.length).fill(undefined)
  for (let i = 0; i < values.length; i++) {
    const m = mid[i]
    if (m === undefined) continue
    let sq = 0
    for (let j = i - n + 1; j <= i; j++) sq += (values[j] - m) ** 2
    const sd = Math.sqrt(sq / n)
    upper[i] = m + k * sd
    lower[i] = m - k * sd
  }
  return { mid, upper, lower }
}

/** MACD: DIF (fast EMA − slow EMA), DEA (signal EMA of DIF) and their difference, the histogram. */
export function macd(
  values: readonly number[],
  fast: number = INDICATOR_PARAMS.macd.fast,
  slow: number = INDICATOR_PARAMS.macd.slow,
  signal: number = INDICATOR_PARAMS.macd.signal,
) {
  const f = ema(values, fast)
  const s = ema(values, slow)
  const dif = values.map((_, i) => (f[i] !== undefined && s[i] !== undefined ? f[i]! - s[i]! : undefined))
  const dea = ema(dif, signal)
  const hist = values.map((_, i) => (dif[i] !== undefined && dea[i] !== undefined ? dif[i]! - dea[i]! : undefined))
  return { dif, dea, hist }
}

/**
 * Relative strength index with Wilder's smoothing: defined from index n (it
 * needs n changes). A window without losses is 100, without gains 0, and a
 * flat one (neither) 50.
 */
export function rsi(values: readonly number[], n: number = INDICATOR_PARAMS.rsi): IndicatorSeries {
  const out: IndicatorSeries = new Array(values.length).fill(undefined)
  if (n < 1 || values.length <= n) return out
  let gain = 0
  let loss = 0
  for (let i = 1; i <= n; i++) {
    const d = values[i] - values[i - 1]
    if (d > 0) gain += d
    else loss -= d
  }
  gain /= n
  loss /= n
  const value = () => (loss === 0 ? (gain === 0 ? 50 : 100) : 100 - 100 / (1 + gain / loss))
  out[n] = value()
  for (let i = n + 1; i < values.length; i++) {
    const d = values[i] - values[i - 1]
    gain = (gain * (n - 1) + Math.max(d, 0)) / n
    loss = (loss * (n - 1) + Math.max(-d, 0)) / n
    out[i] = value()
  }
  return out
}

/** A candle as the indicators read it. */
export interface OhlcvBar {
  open: number
  high: number
  low: number
  close: number
  vol: number
}

/** Every indicator of the chart over the candles, at the default parameters. */
export function computeIndicators(bars: readonly OhlcvBar[]) {
  const closes = bars.map((b) => b.close)
  const vols = bars.map((b) => b.vol)
  return {
    ma: INDICATOR_PARAMS.ma.map((n) => sma(closes, n)),
    ema: INDICATOR_PARAMS.ema.map((n) => ema(closes, n)),
    boll: boll(closes),
    vol: INDICATOR_PARAMS.vol.map((n) => sma(vols, n)),
    macd: macd(closes),
    rsi: rsi(closes),
  }
}

export type IndicatorValues = ReturnType<typeof computeIndicators>
