import { queryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'

/**
 * The futures service (/fe-co-api) as the trading screens use it. The
 * shapes are the server's (internal/futures/views.go, the json tags):
 * amounts and prices are decimal strings, order and position sizes whole
 * contracts (a contract is `contractValue` of the base coin), times Unix
 * milliseconds. The contract's public market data (book, trades, ticker,
 * candles) is the spot trade page's, from /fe-co-api/market/* with the
 * contract's `marketSymbol` (see features/trade/api/trade-api.ts MarketApi).
 */

export const FUTURES_API = '/fe-co-api'

/** One contract of /common/public_info. */
export interface ContractInfo {
  id: number
  symbol: string
  /** The contract in the market data routes and channels (btcusdtperp). */
  marketSymbol: string
  base: string
  quote: string
  marginCoin: string
  /** Base coin per contract. */
  contractValue: string
  priceTick: string
  pricePrecision: number
  /** Decimals of a size in the base coin (contracts × contract value). */
  sizePrecision: number
  /** Contracts. */
  minQty: number
  maxOrderQty: number
  maxLeverage: number
  /** Rates of the notional. */
  makerFee: string
  takerFee: string
  liquidationFee: string
  fundingIntervalHours: number
  fundingCap: string
  interestRate: string
  /** 'open' or 'closed'. */
  status: string
}

/** /common/public_info. */
export interface PublicInfo {
  contractList: ContractInfo[]
  marginCoinList: string[]
  serverTime: number
}

/** One contract's prices: /common/public_market_info and each entry of /common/price_list. */
export interface MarketInfo {
  symbol: string
  /** Empty before the first trade. */
  lastPrice: string
  markPrice: string
  indexPrice: string
  /** The rate the next funding would pay (positive: longs pay shorts). */
  fundingRate: string
  lastFundingRate: string
  nextFundingTime: number
  insuranceFund: string
  /** Contracts held long (= short). */
  openInterest: number
  time: number
  /** The 24 h figures (the contract's market data ticker); the prices are empty before the first trade. */
  open24h?: string
  high24h?: string
  low24h?: string
  /** The last price against open24h, in percent with 2 places ("-1.25"). */
  change24h?: string
  /** Contracts traded in 24 h. */
  volume24h?: string
  /** Margin coin traded in 24 h. */
  turnover24h?: string
}

/** One maintenance tier of /common/get_ladder_info. */
export interface Tier {
  tier: number
  minNotional: string
  maxNotional: string
  maintenanceRate: string
  maxLeverage: number
  cum: string
}

/** Margin modes as the routes take them. */
export const MARGIN_CROSS = 1
export const MARGIN_ISOLATED = 2
export type MarginMode = typeof MARGIN_CROSS | typeof MARGIN_ISOLATED

/** /user/get_user_config: the caller's settings of a contract. */
export interface UserConfig {
  symbol: string
  leverage: number
  marginMode: MarginMode
  /** {@link POSITION_ONE_WAY} or {@link POSITION_HEDGE}: the user's, the same for every contract. */
  positionMode: number
  /** The highest leverage the position's current size allows (the first tier's when flat). */
  maxLeverage: number
  pageConfig?: Record<string, string> | null
  /** The caller opened a futures account (agreed to its terms); orders need it. */
  openContract: boolean
}

/** The futures account in one margin coin. */
export interface AccountView {
  coin: string
  walletBalance: string
  marginBalance: string
  /** What new orders and transfers out may use. */
  availableBalance: string
  positionMargin: string
  orderMargin: string
  unrealizedPnl: string
  maintenanceMargin: string
  /** The cross positions' maintenance ÷ the cross margin balance, in percent (100: liquidated). */
  marginRatio: string
}

export type PositionSide = 'LONG' | 'SHORT'

/** Position modes as the routes take them (per user, all contracts). */
export const POSITION_ONE_WAY = 1
export const POSITION_HEDGE = 2
export type PositionMode = typeof POSITION_ONE_WAY | typeof POSITION_HEDGE

/**
 * The side of the position an order, trigger order or position is of:
 * BOTH in one-way mode, LONG or SHORT in hedge mode (absent from a server
 * before hedge mode: read as BOTH).
 */
export type PositionSideOf = 'BOTH' | PositionSide

/** An open position. */
export interface PositionView {
  symbol: string
  contractId: number
  side: PositionSide
  /** Contracts. */
  volume: number
  /** Base coin. */
  size: string
  /** Average entry. */
  openPrice: string
  markPrice: string
  notional: string
  /** Empty when none (a long whose margin covers a fall to zero). */
  liquidationPrice: string
  margin: string
  leverage: number
  marginMode: MarginMode
  unrealizedPnl: string
  /** Unrealized PnL ÷ the initial margin at entry, in percent. */
  roe: string
  maintenanceMargin: string
  /** In percent: the position's for an isolated one, the account's for a cross one. */
  marginRatio: string
  /** 1-5: the place in the auto-deleveraging queue of its side (5 first); 0 at a loss. */
  adlLevel: number
  /** In hedge mode a long and a short of one contract are two positions. */
  positionSide?: PositionSideOf
}

/** /position/get_assets_list. */
export interface Assets {
  accountList: AccountView[]
  positionList: PositionView[]
}

export type OrderSide = 'BUY' | 'SELL'
export type FuturesOrderType = 'LIMIT' | 'MARKET'
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'POST_ONLY'] as const
export type TimeInForce = (typeof TIME_IN_FORCE)[number]
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED'

/** A futures order. */
export interface FuturesOrder {
  orderId: string
  clientOid: string
  symbol: string
  side: OrderSide
  type: FuturesOrderType
  timeInForce: TimeInForce
  /** Empty for a market order. */
  price: string
  volume: number
  dealVolume: number
  avgPrice: string
  fee: string
  realizedPnl: string
  reduceOnly: boolean
  closePosition: boolean
  /** The exchange's liquidation order. */
  liquidation: boolean
  status: OrderStatus
  /** Why it ended when not filled: canceled, post_only, no_liquidity, fok, self_trade, liquidation. */
  reason: string
  /** LONG or SHORT in hedge mode: with the side, opens or closes that position. */
  positionSide?: PositionSideOf
  ctime: number
  mtime: number
}

/** A page of orders. */
export interface OrderList {
  count: number
  orderList: FuturesOrder[]
}

/** One fill of the caller's. */
export interface FuturesTrade {
  tradeId: string
  orderId: string
  symbol: string
  side: OrderSide
  price: string
  volume: number
  fee: string
  realizedPnl: string
  role: 'MAKER' | 'TAKER'
  liquidation: boolean
  ctime: number
}

/** A page of fills. */
export interface TradeList {
  count: number
  tradeList: FuturesTrade[]
}

/** /order/get_trade_info: an order with its fills. */
export interface OrderDetail {
  order: FuturesOrder
  tradeList: FuturesTrade[]
}

/** The body of /order/order_create. */
export interface OrderCreate {
  symbol: string
  side: OrderSide
  type: FuturesOrderType
  timeInForce?: TimeInForce
  price?: string
  /** Whole contracts. */
  volume: number
  reduceOnly?: boolean
  /** A market order that closes the whole position (volume ignored). */
  closePosition?: boolean
  /** Hedge mode only (required there, absent in one-way mode): the position it opens or closes; no reduceOnly with it. */
  positionSide?: PositionSide
  clientOid?: string
}

/** The states of a trigger order. */
export type TriggerStatus = 'NOT_TRIGGERED' | 'TRIGGERED' | 'CANCELED' | 'FAILED'
/** The price a trigger order watches. */
export type TriggerBy = 'MARK' | 'LAST'
/** Fires when the price rises to the trigger price, or falls to it. */
export type TriggerDirection = 'RISE' | 'FALL'

/** A stop or take-profit order waiting for its price (or one of the history). */
export interface TriggerOrder {
  /** Also the id of the order it places. */
  triggerId: string
  symbol: string
  /**
   * The order's side. Meaningless for a position's TP/SL (closePosition):
   * it closes whichever side the position is, yet the server answers BUY.
   */
  side: OrderSide | ''
  /** The order it places. */
  type: FuturesOrderType
  /** A limit order's. */
  price: string
  /** Contracts (0 with closePosition). */
  volume: number
  triggerPrice: string
  triggerBy: TriggerBy
  direction: TriggerDirection
  /** Closes the whole position when it fires: the position's take-profit or stop-loss. */
  closePosition: boolean
  reduceOnly: boolean
  status: TriggerStatus
  /** Why it failed: no_position, insufficient, reduce_only ...; order_canceled: cancelled with the unfilled order it waited for. */
  reason: string
  /** LONG or SHORT in hedge mode (then the side is meaningful for a TP/SL too). */
  positionSide?: PositionSideOf
  /** A TP/SL placed with an order: armed by that order's first fill. */
  parentOrderId?: string
  ctime: number
  mtime: number
}

/** A page of trigger orders. */
export interface TriggerList {
  count: number
  triggerList: TriggerOrder[]
}

/** The body of /order/condition_create. */
export interface TriggerCreate {
  symbol: string
  triggerPrice: string
  triggerBy: TriggerBy
  /** Closes the whole position when it fires (the position's TP/SL): no side, type or volume. */
  closePosition?: boolean
  side?: OrderSide
  type?: FuturesOrderType
  price?: string
  volume?: number
  reduceOnly?: boolean
  /** Hedge mode only (required there): the position it opens or closes (a long's TP/SL: side SELL, LONG, closePosition). */
  positionSide?: PositionSide
  /** A TP/SL placed with an order: it waits, unarmed, for that order to fill, and is cancelled if the order ends unfilled. */
  parentOrderId?: string
}

/** A position of the history: opened, then back to flat. */
export interface ClosedPosition {
  symbol: string
  side: PositionSide
  /** The largest size it had, in contracts. */
  maxVolume: number
  /** Average entry. */
  openPrice: string
  /** Average exit. */
  closePrice: string
  /** What its closing realized, before fees. */
  realizedPnl: string
  /** What its orders paid. */
  fee: string
  /** Closed by a liquidation (or its take-over). */
  liquidated: boolean
  openTime: number
  closeTime: number
}

/** A page of closed positions. */
export interface ClosedList {
  count: number
  positionList: ClosedPosition[]
}

/** The periods of /account_statistics, in days. */
export const STATS_DAYS = [1, 7, 30] as const
export type StatsDays = (typeof STATS_DAYS)[number]

/** /account_statistics: the caller's futures results over a period, in the margin coin. */
export interface Statistics {
  coin: string
  days: number
  from: number
  to: number
  /** Of the fills in the period. */
  realizedPnl: string
  fee: string
  /** Received (positive) or paid. */
  funding: string
  /** realized − fees + funding. */
  netPnl: string
  /** Fills. */
  trades: number
  /** Traded notional. */
  volume: string
}

/**
 * How often the signed-in pages read the account, positions and orders
 * while the private socket is down: the user_futures channel tells of each
 * change when it is up, and polling slows to {@link LIVE_POLL_MS}
 * (api/live.ts).
 */
export const POLL_MS = 2000
/** The polling while user_futures is connected: only a fallback. */
export const LIVE_POLL_MS = 10_000

/** Query keys of everything futures, for invalidation. */
export const futuresKeys = {
  all: ['futures'] as const,
  publicInfo: ['futures', 'public'] as const,
  market: (symbol: string) => ['futures', 'market', symbol] as const,
  prices: ['futures', 'prices'] as const,
  ladder: (symbol: string) => ['futures', 'ladder', symbol] as const,
  config: (symbol: string) => ['futures', 'config', symbol] as const,
  /** Every contract's settings (the position mode is the user's, of all contracts). */
  configs: ['futures', 'config'] as const,
  assets: ['futures', 'assets'] as const,
  orders: ['futures', 'orders'] as const,
  open: (symbol: string | undefined, page: number, pageSize: number) => ['futures', 'orders', 'open', symbol ?? '', page, pageSize] as const,
  history: (symbol: string | undefined, page: number, pageSize: number) => ['futures', 'orders', 'history', symbol ?? '', page, pageSize] as const,
  trades: (symbol: string | undefined, page: number, pageSize: number) => ['futures', 'orders', 'trades', symbol ?? '', page, pageSize] as const,
  detail: (orderId: string) => ['futures', 'orders', 'detail', orderId] as const,
  /** Trigger orders, waiting and history. */
  triggers: ['futures', 'triggers'] as const,
  waiting: (symbol: string | undefined, page: number, pageSize: number) => ['futures', 'triggers', 'waiting', symbol ?? '', page, pageSize] as const,
  triggerHistory: (symbol: string | undefined, page: number, pageSize: number) => ['futures', 'triggers', 'history', symbol ?? '', page, pageSize] as const,
  /** Closed positions. */
  closed: ['futures', 'closed'] as const,
  closedPage: (symbol: string | undefined, page: number, pageSize: number) => ['futures', 'closed', symbol ?? '', page, pageSize] as const,
  stats: ['futures', 'stats'] as const,
  statsOf: (coin: string, days: number) => ['futures', 'stats', coin, days] as const,
}

const post = <T>(path: string, body: Record<string, unknown>, options?: { silent?: boolean; signal?: AbortSignal }) =>
  apiData<T>(`${FUTURES_API}${path}`, body, options)

export const publicInfoQuery = queryOptions({
  queryKey: futuresKeys.publicInfo,
  queryFn: ({ signal }) => post<PublicInfo>('/common/public_info', {}, { silent: true, signal }),
  staleTime: 5 * 60 * 1000,
})

/** A contract's mark, index, funding and open interest; read again every few seconds (no channel carries them yet). */
/**
 * A contract's prices. No refetch interval of its own: the page's header
 * polls it (fast while the mark channel is not pushing, slowly while it
 * is: useMarkChannel), and every other reader shares that query.
 */
export const marketInfoQuery = (symbol: string) =>
  queryOptions({
    queryKey: futuresKeys.market(symbol),
    queryFn: ({ signal }) => post<MarketInfo>('/common/public_market_info', { symbol }, { silent: true, signal }),
  })

/** Every contract's prices (the contract picker). */
export const priceListQuery = queryOptions({
  queryKey: futuresKeys.prices,
  queryFn: ({ signal }) => post<MarketInfo[]>('/common/price_list', {}, { silent: true, signal }),
  refetchInterval: 5000,
})

export const ladderQuery = (symbol: string) =>
  queryOptions({
    queryKey: futuresKeys.ladder(symbol),
    queryFn: ({ signal }) => post<Tier[]>('/common/get_ladder_info', { symbol }, { silent: true, signal }),
    staleTime: 5 * 60 * 1000,
  })

export const userConfigQuery = (symbol: string) =>
  queryOptions({
    queryKey: futuresKeys.config(symbol),
    queryFn: ({ signal }) => post<UserConfig>('/user/get_user_config', { symbol }, { silent: true, signal }),
  })

export const assetsQuery = queryOptions({
  queryKey: futuresKeys.assets,
  queryFn: ({ signal }) => post<Assets>('/position/get_assets_list', {}, { silent: true, signal }),
})

export const openOrdersQuery = (symbol: string | undefined, page = 1, pageSize = 50) =>
  queryOptions({
    queryKey: futuresKeys.open(symbol, page, pageSize),
    queryFn: ({ signal }) => post<OrderList>('/order/current_order_list', { ...(symbol ? { symbol } : {}), page, pageSize }, { silent: true, signal }),
  })

export const orderHistoryQuery = (symbol: string | undefined, page = 1, pageSize = 20) =>
  queryOptions({
    queryKey: futuresKeys.history(symbol, page, pageSize),
    queryFn: ({ signal }) => post<OrderList>('/order/history_order_list', { ...(symbol ? { symbol } : {}), page, pageSize }, { silent: true, signal }),
  })

export const tradeHistoryQuery = (symbol: string | undefined, page = 1, pageSize = 20) =>
  queryOptions({
    queryKey: futuresKeys.trades(symbol, page, pageSize),
    queryFn: ({ signal }) => post<TradeList>('/order/his_trade_list', { ...(symbol ? { symbol } : {}), page, pageSize }, { silent: true, signal }),
  })

export const orderDetailQuery = (orderId: string) =>
  queryOptions({
    queryKey: futuresKeys.detail(orderId),
    queryFn: ({ signal }) => post<OrderDetail>('/order/get_trade_info', { orderId }, { silent: true, signal }),
  })

export const triggerOrdersQuery = (symbol: string | undefined, page = 1, pageSize = 100) =>
  queryOptions({
    queryKey: futuresKeys.waiting(symbol, page, pageSize),
    queryFn: ({ signal }) => post<TriggerList>('/order/trigger_order_list', { ...(symbol ? { symbol } : {}), page, pageSize }, { silent: true, signal }),
  })

export const triggerHistoryQuery = (symbol: string | undefined, page = 1, pageSize = 20) =>
  queryOptions({
    queryKey: futuresKeys.triggerHistory(symbol, page, pageSize),
    queryFn: ({ signal }) => post<TriggerList>('/order/history_trigger_order_list', { ...(symbol ? { symbol } : {}), page, pageSize }, { silent: true, signal }),
  })

export const closedPositionsQuery = (symbol: string | undefined, page = 1, pageSize = 20) =>
  queryOptions({
    queryKey: futuresKeys.closedPage(symbol, page, pageSize),
    queryFn: ({ signal }) => post<ClosedList>('/position/history_position_list', { ...(symbol ? { symbol } : {}), page, pageSize }, { silent: true, signal }),
  })

export const statisticsQuery = (coin: string, days: StatsDays) =>
  queryOptions({
    queryKey: futuresKeys.statsOf(coin, days),
    queryFn: ({ signal }) => post<Statistics>('/account_statistics', { coin, days }, { silent: true, signal }),
  })

// Changes: a refusal rejects ApiError after the request client has shown the server's message in an error toast.

export const setLeverage = (symbol: string, leverage: number) => post<UserConfig>('/user/level_edit', { symbol, leverage })

export const setMarginMode = (symbol: string, marginMode: MarginMode) => post<UserConfig>('/user/margin_model_edit', { symbol, marginMode })

/** One-way or hedge, for all contracts (refused, 18003-style, while the user has a position, an open order or a waiting trigger order). */
export const setPositionMode = (positionMode: PositionMode) => post<UserConfig>('/user/position_model_edit', { positionMode })

export const savePageConfig = (pageConfig: Record<string, string>) => post<unknown>('/user/edit_user_page_config', { pageConfig })

/** type 1 adds margin to an isolated position, 2 removes it; a hedge-mode position names its side. */
export const changePositionMargin = (symbol: string, amount: string, type: 1 | 2, positionSide?: PositionSide) =>
  post<PositionView>('/position/change_position_margin', { symbol, amount, type, ...(positionSide ? { positionSide } : {}) })

export const createOrder = (req: OrderCreate) => post<FuturesOrder>('/order/order_create', { ...req })

export const cancelOrder = (symbol: string, orderId: string) => post<FuturesOrder>('/order/order_cancel', { symbol, orderId })

/** Arms a trigger order (18021: the price is already there; 18022: too many; the request client shows the server's words). */
export const createTrigger = (req: TriggerCreate) => post<TriggerOrder>('/order/condition_create', { ...req })

/** Disarms a waiting trigger order. */
export const cancelTrigger = (triggerId: string) => post<TriggerOrder>('/order/condition_cancel', { triggerId })

/** Closes every position of a contract at market, or of every contract without one. */
export const closeAllPositions = (symbol?: string) => post<{ orders: FuturesOrder[] }>('/order/close_all_position', symbol ? { symbol } : {})

/**
 * Opens the caller's futures account (agrees to its terms). NOT in the
 * agreed contract: UserConfig.openContract says orders need it, but no
 * route sets it; this is the route the page asks for until the server
 * names its own (see the report to the server's author).
 */
export const openFuturesAccount = () => post<UserConfig>('/user/open_contract', {})
