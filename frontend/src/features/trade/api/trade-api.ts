import { queryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'
import type { OrderRequest, PairRules } from '../lib/order-form'

/** Spot trade API: pair rules, market data and the user's orders. */

/** A pair of the selector with its trading rules. */
export interface TradePair extends PairRules {
  /** Route form, e.g. BTC_USDT. */
  routeSymbol: string
  showName: string
  close?: string
  rose?: string
  /** The order book's merge grids of depth steps 0..2 (the server's), when the market document gives them. */
  depthSteps?: string[]
  /** Decimal places of the base coin's balances (the coin list's showPrecision), when known. */
  basePlaces?: number
  /** Decimal places of the quote coin's balances (the coin list's showPrecision), when known. */
  quotePlaces?: number
}

/** Order book: [price, quantity] pairs, best first. */
export interface Depth {
  buys: [string, string][]
  asks: [string, string][]
  ts?: number
}

/** One public trade. */
export interface MarketTrade {
  id: string
  side: 'BUY' | 'SELL'
  price: string
  vol: string
  amount?: string
  ts: number
}

/** 24 h ticker. */
export interface Ticker {
  symbol?: string
  open: string
  high: string
  low: string
  close: string
  vol: string
  amount: string
  rose: string
}

/** One candle (id = bucket start, Unix seconds). */
export interface Kline {
  id: number
  open: string
  high: string
  low: string
  close: string
  vol: string
}

/** One of the user's orders. */
export interface OrderView {
  order_id: string
  symbol: string
  side: 'BUY' | 'SELL'
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
  status: number
  status_text: string
  /** Why a finished order ended (the engine's reason: post_only_would_take, fok_not_filled, below_min_notional, stp ...). */
  end_reason?: string
  created_at: number
}

/** One of the user's fills. */
export interface TradeView {
  trade_id: string
  order_id: string
  symbol: string
  side: 'BUY' | 'SELL'
  role: string
  price: string
  volume: string
  deal_money: string
  fee: string
  fee_coin: string
  created_at: number
}

/** Candle periods of the chart buttons. */
export const PERIODS = ['1min', '5min', '15min', '30min', '60min', '4h', '1day', '1week', '1month'] as const
export type Period = (typeof PERIODS)[number]

type Raw = Record<string, unknown>
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)
const s = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback)

/** BTC_USDT / BTC/USDT / btcusdt -> btcusdt. */
export function apiSymbol(symbol: string): string {
  return symbol.replace(/[/_-]/g, '').toLowerCase()
}

/** The showPrecision of a coin of public_info_market's coinList, when it has a sane one. */
function coinPlaces(coinList: unknown, coin: string): number | undefined {
  if (!isRecord(coinList)) return undefined
  const info = coinList[coin] ?? coinList[coin.toLowerCase()]
  const places = isRecord(info) ? Number(info.showPrecision) : NaN
  return Number.isInteger(places) && places >= 0 && places <= 18 ? places : undefined
}

/** Flattens public_info_market into the pairs with their rules. */
export function parsePairs(data: unknown): TradePair[] {
  const market = isRecord(data) && isRecord(data.market) ? data.market : {}
  const coinList = isRecord(data) ? data.coinList : undefined
  const out: TradePair[] = []
  for (const group of Object.values(market)) {
    if (!isRecord(group)) continue
    for (const raw of Object.values(group)) {
      if (!isRecord(raw)) continue
      const base = s(raw.base).toUpperCase()
      const quote = s(raw.quote).toUpperCase()
      if (!base || !quote) continue
      out.push({
        symbol: s(raw.symbol) || apiSymbol(base + quote),
        routeSymbol: `${base}_${quote}`,
        base,
        quote,
        showName: s(raw.showName) || `${base}/${quote}`,
        pricePrecision: Number(raw.pricePrecision ?? 2),
        volumePrecision: Number(raw.volumePrecision ?? 4),
        priceTick: s(raw.priceTick, '0.01'),
        depthSteps: Array.isArray(raw.depthSteps) && raw.depthSteps.length === 3 ? raw.depthSteps.map((x) => s(x)) : undefined,
        lotSize: s(raw.lotSize, '0.0001'),
        minQty: s(raw.minQty, '0'),
        minNotional: s(raw.minNotional, '0'),
        close: s(raw.close) || undefined,
        rose: s(raw.rose) || undefined,
        basePlaces: coinPlaces(coinList, base),
        quotePlaces: coinPlaces(coinList, quote),
      })
    }
  }
  return out.sort((a, b) => a.routeSymbol.localeCompare(b.routeSymbol))
}

export const pairsQuery = queryOptions({
  queryKey: ['trade', 'pairs'],
  queryFn: async ({ signal }) => parsePairs(await apiData('/fe-ex-api/common/public_info_market', {}, { silent: true, signal })),
  staleTime: 5 * 60 * 1000,
})

/**
 * Where a market's public data comes from: the spot service, or the futures
 * service for a contract (its market symbol, e.g. btcusdtperp). Both answer
 * /market/ticker, /market/depth, /market/trades and /market/kline in the same
 * shapes, and push on the same channels of /ws, so the ticker, book, trades,
 * chart and depth chart take the service as a parameter.
 */
export type MarketApi = '/fe-ex-api' | '/fe-co-api'

/** The spot service: the default source of every market data component. */
export const SPOT_MARKET: MarketApi = '/fe-ex-api'

/** The query key's tail for a source: nothing for spot (its keys are as they always were), the service otherwise. */
const sourceKey = (api: MarketApi): string[] => (api === SPOT_MARKET ? [] : [api])

export const tickerQuery = (symbol: string, api: MarketApi = SPOT_MARKET) =>
  queryOptions({
    queryKey: ['trade', 'ticker', symbol, ...sourceKey(api)],
    queryFn: ({ signal }) => apiData<Ticker>(`${api}/market/ticker`, { symbol }, { silent: true, signal }),
  })

export const depthQuery = (symbol: string, step: number, api: MarketApi = SPOT_MARKET) =>
  queryOptions({
    queryKey: ['trade', 'depth', symbol, step, ...sourceKey(api)],
    queryFn: ({ signal }) => apiData<Depth>(`${api}/market/depth`, { symbol, step, limit: 50 }, { silent: true, signal }),
  })

export const tradesQuery = (symbol: string, api: MarketApi = SPOT_MARKET) =>
  queryOptions({
    queryKey: ['trade', 'trades', symbol, ...sourceKey(api)],
    queryFn: ({ signal }) => apiData<MarketTrade[]>(`${api}/market/trades`, { symbol, limit: 50 }, { silent: true, signal }),
  })

export const klineQuery = (symbol: string, period: Period, api: MarketApi = SPOT_MARKET) =>
  queryOptions({
    queryKey: ['trade', 'kline', symbol, period, ...sourceKey(api)],
    queryFn: ({ signal }) => apiData<Kline[]>(`${api}/market/kline`, { symbol, period, limit: 300 }, { silent: true, signal }),
    staleTime: 60 * 1000,
  })

/** Spot balance rows keyed by coin (normal = available). */
export const balanceQuery = queryOptions({
  queryKey: ['trade', 'balance'],
  queryFn: async ({ signal }) => {
    const data = await apiData<{ coinList?: { coin: string; normal: string; freeze: string }[] }>(
      '/fe-ex-api/finance/v5/account_balance',
      {},
      { silent: true, signal },
    )
    const out: Record<string, string> = {}
    for (const row of data?.coinList ?? []) out[row.coin.toUpperCase()] = row.normal
    return out
  },
})

/** The user's spot fee rates (fractions: 0.001 is 0.1%), fixed on an order when it is placed. */
export interface FeeRates {
  maker: string
  taker: string
  /** 30-day spot volume in USDT-quoted pairs, which picks the tier. */
  volume30d: string
  /** The fee-coin switch lowers both rates. */
  feeCoin: boolean
}

export const feeRateQuery = queryOptions({
  queryKey: ['trade', 'feeRate'],
  queryFn: ({ signal }) => apiData<FeeRates>('/fe-ex-api/order/fee_rate', {}, { silent: true, signal }),
  // The server keeps a user's rates for a minute; the tier moves with the 30-day volume.
  staleTime: 60_000,
})

/**
 * Paging and time window of the user's order and trade lists. The server
 * searches the last 180 days only; startTime/endTime narrow that further.
 */
export interface ListWindow {
  page: number
  pageSize: number
  startTime?: number
  endTime?: number
}

export const openOrdersQuery = (symbol: string, page = 1, pageSize = 100) =>
  queryOptions({
    queryKey: ['trade', 'orders', 'open', symbol, page, pageSize],
    queryFn: ({ signal }) =>
      apiData<{ count: number; orderList: OrderView[] }>('/fe-ex-api/order/list/new', { symbol, page, pageSize }, { silent: true, signal }),
  })

export const orderHistoryQuery = (symbol: string, w: ListWindow = { page: 1, pageSize: 50 }) =>
  queryOptions({
    queryKey: ['trade', 'orders', 'history', symbol, w],
    queryFn: ({ signal }) =>
      apiData<{ count: number; orderList: OrderView[] }>('/fe-ex-api/order/entrust_history', { symbol, ...w }, { silent: true, signal }),
  })

export const tradeHistoryQuery = (symbol: string, w: ListWindow = { page: 1, pageSize: 50 }) =>
  queryOptions({
    queryKey: ['trade', 'orders', 'fills', symbol, w],
    queryFn: ({ signal }) =>
      apiData<{ count: number; tradeList: TradeView[] }>('/fe-ex-api/order/trade_info_search', { symbol, ...w }, { silent: true, signal }),
  })

/** Places an order; rejects ApiError after the request client toasts it. */
export const createOrder = (req: OrderRequest) => apiData<{ order_id: string }>('/fe-ex-api/order/create', { ...req })

/** One of the user's orders, open or finished (/order/detail); quiet, for following an order just placed. */
export const orderDetail = (orderId: string, signal?: AbortSignal) =>
  apiData<OrderView>('/fe-ex-api/order/detail', { order_id: orderId }, { silent: true, signal })

export const cancelOrder = (symbol: string, orderId: string) =>
  apiData('/fe-ex-api/order/cancel', { symbol, order_id: orderId })

export const cancelAllOrders = (symbol: string) => apiData('/fe-ex-api/order/cancel_all', { symbol })

/**
 * Reduces an open order to `volume` (its new total amount, filled part
 * included); the price and the order's place in the book stay. Rejects
 * ApiError after the request client has shown the server's reason.
 */
export const amendOrder = (symbol: string, orderId: string, volume: string) =>
  apiData('/fe-ex-api/order/amend', { symbol, order_id: orderId, volume })
