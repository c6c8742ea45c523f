import { queryOptions } from '@tanstack/react-query'
import { pairSymbol } from '@/lib/pair-symbol'
import { apiData } from '@/lib/request-client'

/**
 * POST /fe-ex-api/market/tickers: every pair's 24 h ticker plus its
 * sparkline, 24 prices of the last 24 hours (hourly closes; a pair first
 * traded within them, its price at 24 even steps since its first trade).
 */
export const MARKET_TICKERS_PATH = '/fe-ex-api/market/tickers'

/** Live figures of one pair; the 24 h figures are absent for a pair that never traded. */
export interface PairTicker {
  close?: string
  rose?: string
  /** 24 h high and low, at the pair's price places as the server sends them. */
  high?: string
  low?: string
  /** 24 h volume in the quote coin (the ticker's amount). */
  amount?: string
  /**
   * The price 24 h ago (the ticker's open), then the server's 24 points
   * (hourly closes of the last 24 h), oldest first: 25 points once the
   * pair has traded.
   */
  sparkline: number[]
}

/** A decimal the server sent as a string or a number; undefined for anything else or ''. */
function text(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The 24 h high, low and quote volume of a ticker ({high, low, amount}), all absent when the pair never traded. */
function dayFigures(tk: { high?: unknown; low?: unknown; amount?: unknown } | undefined, traded: boolean): Pick<PairTicker, 'high' | 'low' | 'amount'> {
  if (!traded || !tk) return {}
  return { high: text(tk.high), low: text(tk.low), amount: text(tk.amount) }
}

/**
 * A sparkline that ends at the live price: the last hourly close is the
 * current hour's close so far, so the live close replaces it; a line of the
 * 24 h open alone (no hourly close yet) gets it appended. An empty line
 * stays empty (there is no start to draw from).
 */
export function endLineAt(line: number[], close: string | undefined): number[] {
  const last = Number(close)
  if (close === undefined || close === '' || !Number.isFinite(last) || last <= 0 || line.length === 0) return line
  if (line.length === 1) return [line[0], last]
  return line[line.length - 1] === last ? line : [...line.slice(0, -1), last]
}

/** Tickers keyed by the lower-case symbol without separator (btcusdt). */
export function parseTickers(data: unknown): Record<string, PairTicker> {
  const out: Record<string, PairTicker> = {}
  if (typeof data !== 'object' || data === null) return out
  const root = data as {
    tickers?: Record<string, { open?: unknown; close?: unknown; rose?: unknown; high?: unknown; low?: unknown; amount?: unknown }>
    sparklines?: Record<string, unknown[]>
  }
  const keys = new Set([...Object.keys(root.tickers ?? {}), ...Object.keys(root.sparklines ?? {})])
  for (const key of keys) {
    const tk = root.tickers?.[key]
    const line = (root.sparklines?.[key] ?? []).map(Number).filter((n) => Number.isFinite(n))
    // A pair without trades reports close 0: show no price rather than 0.
    const traded = tk?.close !== undefined && tk.close !== '' && Number(tk.close) !== 0
    // The line starts at the 24 h open: its direction then agrees with the
    // 24 h change beside it, and it has 25 points (the open and the
    // server's 24).
    const open = Number(tk?.open)
    const start = traded && tk?.open !== '' && Number.isFinite(open) && open > 0 ? [open] : []
    const close = traded ? String(tk.close) : undefined
    out[pairSymbol(key)] = {
      close,
      rose: traded && tk.rose !== undefined && tk.rose !== '' ? String(tk.rose) : undefined,
      ...dayFigures(tk, traded),
      // It ends at the price shown beside it.
      sparkline: endLineAt([...start, ...line], close),
    }
  }
  return out
}

/** How often the tickers are polled while the market socket is down (it pushes them otherwise). */
export const TICKERS_POLL_MS = 15_000
/** How often they are read while the socket is up: the sparklines only (the socket pushes the rest). */
export const TICKERS_SLOW_POLL_MS = 5 * 60_000

export const marketTickersQuery = queryOptions({
  queryKey: ['market-tickers'],
  queryFn: async ({ signal }) => parseTickers(await apiData(MARKET_TICKERS_PATH, {}, { silent: true, signal })),
  refetchInterval: TICKERS_POLL_MS,
  retry: 1,
})

/** The market_{symbol}_ticker channel of a pair (any spelling of it). */
export function tickerChannel(symbol: string): string {
  return `market_${pairSymbol(symbol)}_ticker`
}

/**
 * The tickers with one pair's pushed 24 h ticker ({open, high, low, close,
 * amount, rose, ...}) applied: its price, change, high, low and volume
 * move, and its sparkline ends at the new
 * price (see {@link endLineAt}; a pair without a line yet starts one at the
 * pushed 24 h open). A close of 0 (no trades) shows no price, as in
 * {@link parseTickers}.
 */
export function applyPushedTicker(
  tickers: Record<string, PairTicker> | undefined,
  symbol: string,
  tick: unknown,
): Record<string, PairTicker> | undefined {
  if (typeof tick !== 'object' || tick === null) return tickers
  const t = tick as { open?: unknown; close?: unknown; rose?: unknown; high?: unknown; low?: unknown; amount?: unknown }
  const close = text(t.close)
  if (close === undefined) return tickers
  const key = pairSymbol(symbol)
  const traded = Number(close) !== 0
  const rose = text(t.rose)
  const old = tickers?.[key]
  const open = Number(t.open)
  const line = old?.sparkline.length ? old.sparkline : traded && Number.isFinite(open) && open > 0 ? [open] : []
  return {
    ...tickers,
    [key]: {
      sparkline: traded ? endLineAt(line, close) : line,
      close: traded ? close : undefined,
      rose: traded ? rose : undefined,
      ...dayFigures(t, traded),
    },
  }
}
