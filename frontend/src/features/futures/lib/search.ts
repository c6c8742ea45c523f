/**
 * What the futures route files check: a contract's symbol (/futures/$symbol)
 * and the search values of /order/futures. Route files are part of the first
 * load, so this module imports nothing.
 */

/** The contract symbols of the catalogue (internal/contracts: ^[A-Z0-9]{4,20}$): the trading route's $symbol. */
export const CONTRACT_SYMBOL = /^[A-Z0-9]{4,20}$/

/** True when a route segment can name a contract (so /futures/guide and the like are not the trading page). */
export function isContractSymbol(value: unknown): value is string {
  return typeof value === 'string' && CONTRACT_SYMBOL.test(value)
}

export const FUTURES_ORDER_TABS = ['open', 'triggers', 'history', 'triggerHistory', 'trades', 'positionHistory'] as const
export type FuturesOrderTab = (typeof FUTURES_ORDER_TABS)[number]

/** /order/futures?tab=&symbol=&page= */
export interface FuturesOrdersSearch {
  tab?: FuturesOrderTab
  /** One contract's orders (all contracts without it). */
  symbol?: string
  page?: number
}

/** Keeps the values that make sense and drops the rest. */
export function parseFuturesOrdersSearch(raw: Record<string, unknown>): FuturesOrdersSearch {
  const out: FuturesOrdersSearch = {}
  if (typeof raw.tab === 'string' && (FUTURES_ORDER_TABS as readonly string[]).includes(raw.tab)) out.tab = raw.tab as FuturesOrderTab
  if (isContractSymbol(raw.symbol)) out.symbol = raw.symbol
  const page = typeof raw.page === 'number' ? raw.page : typeof raw.page === 'string' ? Number(raw.page) : NaN
  if (Number.isInteger(page) && page > 1 && page < 1e6) out.page = page
  return out
}
