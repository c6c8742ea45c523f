import { queryOptions } from '@tanstack/react-query'
import { pairsQuery, parsePairs, type TradePair } from '@/features/trade/api/trade-api'
import { ApiError, apiData } from '@/lib/request-client'

/**
 * Spot order API of the orders pages (spec §7, internal/httpapi/trade_routes.go):
 * open orders (/order/list/new), finished orders (/order/entrust_history),
 * the user's trades (/order/trade_info_search), one order (/order/detail),
 * an order's fills (/trade/list_by_order) and cancellation. Amounts are decimal strings,
 * times Unix milliseconds. Searches only reach the last 180 days.
 */

/**
 * How often the pages poll, besides the pushes of the live updates: open
 * orders (and an open order's page) often, finished ones a little less.
 */
export const OPEN_REFRESH_MS = 5000
export const HISTORY_REFRESH_MS = 15_000

/** Order status numbers of the API. */
export const ORDER_STATUS = { NEW: 1, PARTIALLY_FILLED: 2, FILLED: 3, CANCELLED: 4, REJECTED: 5 } as const

/** Statuses a finished order can have: the status filter of the order history. */
export const FINISHED_STATUSES = [ORDER_STATUS.FILLED, ORDER_STATUS.CANCELLED, ORDER_STATUS.REJECTED] as const

export const SIDES = ['BUY', 'SELL'] as const
export type Side = (typeof SIDES)[number]

/** One of the user's orders. */
export interface SpotOrder {
  order_id: string
  client_order_id?: string
  symbol: string
  side: Side
  type: string
  price: string
  stop_price?: string
  /** STOP_LIMIT only: true once the stop was reached and the order rests in the book. */
  triggered?: boolean
  volume: string
  quote_volume?: string
  deal_volume: string
  deal_money: string
  avg_price: string
  fee?: string
  fee_coin?: string
  status: number
  status_text: string
  /** Why a finished order ended (the engine's reason: post_only_would_take, fok_not_filled, stp ...); absent while open. */
  end_reason?: string
  created_at: number
  updated_at?: number
}

/** One fill of one of the user's orders. */
export interface SpotTrade {
  trade_id: string
  order_id: string
  symbol: string
  side: Side
  role: string
  price: string
  volume: string
  deal_money: string
  fee: string
  fee_coin: string
  created_at: number
}

/** A page of records and the number of all matches. */
export interface Paged<T> {
  count: number
  list: T[]
}

/** A pair as the orders pages need it: names and display precisions. */
export interface SpotPair {
  /** API form, e.g. btcusdt. */
  symbol: string
  /** Route form of the trade page, e.g. BTC_USDT. */
  routeSymbol: string
  base: string
  quote: string
  showName: string
  /** Decimal places of prices; undefined shows values as the server sent them. */
  pricePrecision?: number
  /** Decimal places of base amounts (from the lot size); undefined as for prices. */
  volumePlaces?: number
  /** Decimal places of the quote coin (its showPrecision), for amounts in the quote coin such as a market buy's budget. */
  quotePlaces?: number
}

/** Decimal places of a step such as '0.0001' (4) or '1' (0). */
export function stepPlaces(step: string): number {
  const m = /^\d*(?:\.(\d*?))0*$/.exec(step.trim())
  return m?.[1]?.length ?? 0
}

/** The orders pages' view of one of the trade page's pairs. */
export function toSpotPair(p: TradePair): SpotPair {
  return {
    symbol: p.symbol,
    routeSymbol: p.routeSymbol,
    base: p.base,
    quote: p.quote,
    showName: p.showName,
    pricePrecision: Number.isInteger(p.pricePrecision) && p.pricePrecision >= 0 ? p.pricePrecision : 2,
    volumePlaces: stepPlaces(p.lotSize),
    quotePlaces: p.quotePlaces,
  }
}

/** The orders pages' view of the trade page's pairs, sorted by name. */
export function toSpotPairs(pairs: TradePair[]): SpotPair[] {
  return pairs.map(toSpotPair).sort((a, b) => a.showName.localeCompare(b.showName))
}

/** Flattens /common/public_info_market into the pairs, sorted by name. */
export function parseSpotPairs(data: unknown): SpotPair[] {
  return toSpotPairs(parsePairs(data))
}

/**
 * Query keys. They sit under ['trade', 'orders'] on purpose: the order
 * form and anything else that changes orders invalidates that prefix, so
 * these pages refresh with the trade page's own lists.
 */
export const ordersKeys = {
  all: ['trade', 'orders'] as const,
  open: (symbol: string) => ['trade', 'orders', 'spot-open', symbol] as const,
  history: (filter: HistoryFilter) => ['trade', 'orders', 'spot-history', filter] as const,
  trades: (filter: HistoryFilter) => ['trade', 'orders', 'spot-trades', filter] as const,
  fills: (orderId: string) => ['trade', 'orders', 'spot-fills', orderId] as const,
  detail: (orderId: string) => ['trade', 'orders', 'spot-order', orderId] as const,
}

/** The trade page's pairs query (one request and cache for both), seen as SpotPairs. */
export const spotPairsQuery = queryOptions({ ...pairsQuery, select: toSpotPairs })

/** The most open orders /order/list/new returns per request. */
export const OPEN_PAGE_MAX = 500
/** Requests made at most for one open-orders list (OPEN_PAGE_MAX each). */
const OPEN_MAX_REQUESTS = 10

/**
 * All open orders of a pair (or of every pair), newest first. The endpoint
 * has no side filter, so the page filters and pages them itself; this reads
 * them in pages of 500 until it has them all.
 */
export async function fetchOpenOrders(symbol: string, signal?: AbortSignal): Promise<SpotOrder[]> {
  const out: SpotOrder[] = []
  for (let page = 1; page <= OPEN_MAX_REQUESTS; page++) {
    const data = await apiData<{ count: number; orderList: SpotOrder[] }>(
      '/fe-ex-api/order/list/new',
      { symbol, page, pageSize: OPEN_PAGE_MAX },
      { silent: true, signal },
    )
    const list = data?.orderList ?? []
    out.push(...list)
    if (list.length < OPEN_PAGE_MAX || out.length >= (data?.count ?? 0)) break
  }
  return out
}

export const openOrdersQuery = (symbol: string) =>
  queryOptions({
    queryKey: ordersKeys.open(symbol),
    queryFn: ({ signal }) => fetchOpenOrders(symbol, signal),
  })

/** Filter of the order and trade searches (the server reads the last 180 days only). */
export interface HistoryFilter {
  symbol?: string
  side?: Side
  /** Order status number (orders only). */
  status?: number
  startTime?: number
  endTime?: number
  page: number
  pageSize: number
}

/** The request body of a search: empty filters are left out. */
export function searchBody(f: HistoryFilter): Record<string, unknown> {
  const body: Record<string, unknown> = { page: f.page, pageSize: f.pageSize }
  if (f.symbol) body.symbol = f.symbol
  if (f.side) body.side = f.side
  if (f.status) body.status = String(f.status)
  if (f.startTime) body.startTime = f.startTime
  if (f.endTime) body.endTime = f.endTime
  return body
}

export const orderHistoryQuery = (filter: HistoryFilter) =>
  queryOptions({
    queryKey: ordersKeys.history(filter),
    queryFn: async ({ signal }): Promise<Paged<SpotOrder>> => {
      const data = await apiData<{ count: number; orderList: SpotOrder[] }>('/fe-ex-api/order/entrust_history', searchBody(filter), {
        silent: true,
        signal,
      })
      return { count: data?.count ?? 0, list: data?.orderList ?? [] }
    },
  })

export const tradeHistoryQuery = (filter: HistoryFilter) =>
  queryOptions({
    queryKey: ordersKeys.trades(filter),
    queryFn: async ({ signal }): Promise<Paged<SpotTrade>> => {
      // Trades have no status: the server rejects nothing for it, but keep the body clean.
      const data = await apiData<{ count: number; tradeList: SpotTrade[] }>(
        '/fe-ex-api/order/trade_info_search',
        searchBody({ ...filter, status: undefined }),
        { silent: true, signal },
      )
      return { count: data?.count ?? 0, list: data?.tradeList ?? [] }
    },
  })

export const orderFillsQuery = (orderId: string) =>
  queryOptions({
    queryKey: ordersKeys.fills(orderId),
    queryFn: async ({ signal }) => {
      const data = await apiData<{ count: number; tradeList: SpotTrade[] }>(
        '/fe-ex-api/trade/list_by_order',
        { order_id: orderId },
        { silent: true, signal },
      )
      return data?.tradeList ?? []
    },
  })

/** The trade code of an order that does not exist or belongs to someone else (apperr 14014). */
export const CODE_ORDER_NOT_FOUND = '14014'

/**
 * Order ids are decimal numbers of at most 24 digits (the server refuses
 * longer ones as a parameter error): anything else in an address cannot
 * name an order, so the page says "not found" without asking.
 */
const ORDER_ID_RE = /^[1-9]\d{0,23}$/

/** True when a string from an address can be an order id. */
export function isOrderId(value: string): boolean {
  return ORDER_ID_RE.test(value)
}

/** True when a failed order request means "no such order of yours" rather than a fault worth retrying. */
export function isOrderNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === CODE_ORDER_NOT_FOUND
}

/**
 * One of the user's orders, open or finished (/order/detail). Someone
 * else's order answers 14014 like an unknown one, so nobody learns which
 * ids exist.
 */
export async function fetchOrder(orderId: string, signal?: AbortSignal): Promise<SpotOrder> {
  return apiData<SpotOrder>('/fe-ex-api/order/detail', { order_id: orderId }, { silent: true, signal })
}

export const orderDetailQuery = (orderId: string) =>
  queryOptions({
    queryKey: ordersKeys.detail(orderId),
    queryFn: ({ signal }) => fetchOrder(orderId, signal),
  })

/** Asks the engine to cancel one open order; a refused request has been toasted when this rejects. */
export const cancelSpotOrder = (order: Pick<SpotOrder, 'symbol' | 'order_id'>) =>
  apiData('/fe-ex-api/order/cancel', { symbol: order.symbol, order_id: order.order_id })

/** Cancels every open order of a pair, or of every pair when symbol is empty. */
export const cancelAllSpotOrders = (symbol: string) => apiData('/fe-ex-api/order/cancel_all', symbol ? { symbol } : {})
