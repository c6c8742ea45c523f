import { useCallback, useState } from 'react'

/**
 * The chart's choices a browser keeps (local storage, under the app's
 * `tenger.<area>.<name>` keys): its indicators and its chart type, for every
 * pair alike. A damaged or missing entry reads as the defaults.
 */

/** Indicators drawn over the candles. */
export const MAIN_INDICATORS = ['ma', 'ema', 'boll'] as const
/** Indicators drawn in their own pane below the candles, in this order. */
export const SUB_INDICATORS = ['vol', 'macd', 'rsi'] as const
export const INDICATOR_IDS = [...MAIN_INDICATORS, ...SUB_INDICATORS] as const
export type IndicatorId = (typeof INDICATOR_IDS)[number]
/** On until the user changes them (as on Binance). */
export const DEFAULT_INDICATORS: readonly IndicatorId[] = ['ma', 'vol']

export const CHART_TYPES = ['candles', 'hollow', 'bars', 'line', 'area'] as const
export type ChartType = (typeof CHART_TYPES)[number]

export const INDICATORS_KEY = 'tenger.trade.chartIndicators'
export const CHART_TYPE_KEY = 'tenger.trade.chartType'

function read(key: string): unknown {
  try {
    const raw = localStorage.getItem(key)
    return raw === null ? undefined : JSON.parse(raw)
  } catch {
    return undefined
  }
}

function write(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value))
  } catch {
    // Storage may be unavailable (private mode): the choice then lasts as long as the page.
  }
}

/** The stored indicators, in the canonical order; the defaults when none are stored. */
export function readIndicators(): IndicatorId[] {
  const v = read(INDICATORS_KEY)
  if (!Array.isArray(v)) return [...DEFAULT_INDICATORS]
  return INDICATOR_IDS.filter((id) => v.includes(id))
}

export function readChartType(): ChartType {
  const v = read(CHART_TYPE_KEY)
  return CHART_TYPES.includes(v as ChartType) ? (v as ChartType) : 'candles'
}

/** The active indicators with a toggle that stores the choice. */
export function useIndicators() {
  const [active, setActive] = useState<IndicatorId[]>(readIndicators)
  const toggle = useCallback((id: IndicatorId, on?: boolean) => {
    setActive((prev) => {
      const want = on ?? !prev.includes(id)
      const next = INDICATOR_IDS.filter((x) => (x === id ? want : prev.includes(x)))
      write(INDICATORS_KEY, next)
      return next
    })
  }, [])
  return [active, toggle] as const
}

/** The chart type with a setter that stores the choice. */
export function useChartType() {
  const [type, setType] = useState<ChartType>(readChartType)
  const set = useCallback((t: ChartType) => {
    write(CHART_TYPE_KEY, t)
    setType(t)
  }, [])
  return [type, set] as const
}
