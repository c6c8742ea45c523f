/**
 * The OTC service's P2P shapes (internal/p2p, internal/p2p/paymethod,
 * internal/httpapi/p2p_routes.go). Amounts, prices and rates are decimal
 * strings and stay strings: they are never turned into floats.
 */

/** The taker's side on the market (BUY takes a SELL ad) or a merchant's ad side. */
export type Side = 'BUY' | 'SELL'

/** Order states (internal/p2p). */
export type OrderStatus = 'PENDING' | 'BUYER_PAID' | 'IN_APPEAL' | 'COMPLETED' | 'CANCELLED' | 'CANCELLED_BY_SYSTEM'

/** A payment method as an ad or an order shows it. */
export interface AdMethod {
  id: string
  /** bank, qpay or socialpay. */
  kind: string
  /** The bank's name (bank) or the kind's name. */
  title: string
  userName: string
  account: string
  bank?: string
}

/** One of the caller's payment methods (otc/payment/find). */
export interface PayMethod extends AdMethod {
  titleMn?: string
  open: boolean
  fiat?: string
  ctime?: number
  mtime?: number
}

/** A bank a bank transfer may name. */
export interface Bank {
  code: string
  name: string
  nameMn: string
}

/** A kind of payment method (getCompanyPayment, public_info.payments). */
export interface PayKind {
  code: string
  name: string
  nameMn: string
  fields: string[]
  fiat: string
  banks?: Bank[]
}

/** A trader's record (person_home_page). */
export interface Stats {
  uid: string
  nickName: string
  /** none, pending or approved. */
  merchant: 'none' | 'pending' | 'approved' | string
  kycVerified: boolean
  completeOrders: number
  buyOrders: number
  sellOrders: number
  cancelOrders: number
  /** Percent with two decimals ('98.50'); '' before the first order ends. */
  completionRate: string
  /** Seconds. */
  avgReleaseTime: number
  avgPayTime: number
  /** Unix ms; 0 when none. */
  firstTradeTime: number
  openAds: number
}

/** A merchant's ad. */
export interface Ad {
  id: string
  uid: string
  nickName: string
  /** The merchant's side: SELL ads are bought from. */
  side: Side
  coinSymbol: string
  paySymbol: string
  priceType: 'fixed' | 'floating' | string
  price: string
  priceRate: string
  /** Coins the ad still offers or asks for. */
  volume: string
  minTrade: string
  maxTrade: string
  payments: AdMethod[]
  /** Minutes the buyer has to pay. */
  limitTime: number
  description: string
  kycRequired: boolean
  status: 'open' | 'closed' | string
  ctime: number
  mtime: number
  merchant?: Stats
}

/** A dispute over a paid order. */
export interface Appeal {
  by: string
  reason: string
  description: string
  evidence: string[] | null
  ctime: number
  /** open, cancelled, decided or resolved. */
  status: 'open' | 'cancelled' | 'decided' | 'resolved' | string
  outcome?: 'release' | 'refund' | string
  decidedBy?: string
  decidedAt?: number
  note?: string
}

/** A P2P order, as its two sides see it. */
export interface Order {
  id: string
  sequence: string
  advertId: string
  makerUid: string
  takerUid: string
  buyerUid: string
  sellerUid: string
  /** The reader's side: BUY when the caller is the buyer. */
  side: Side
  coinSymbol: string
  paySymbol: string
  price: string
  volume: string
  totalPrice: string
  /** The seller's accounts the buyer pays to. */
  payments: AdMethod[] | null
  description: string
  status: OrderStatus | string
  cancelBy?: string
  ctime: number
  /** Unix ms by which the buyer must pay. */
  payDeadline: number
  payTime: number
  finishTime: number
  appeal?: Appeal
  buyerNickName: string
  sellerNickName: string
}

/** One chat message; a system message's content is a key. */
export interface ChatMessage {
  id: string
  /** The sender's uid, 'system' or 'operator'. */
  by: string
  content: string
  /** An upload id. */
  image?: string
  ctime: number
}

/** A tradable coin with its amount precision. */
export interface P2PCoin {
  coinSymbol: string
  volumePrecision: number
}

/** otc/public_info. */
export interface PublicInfo {
  coins: P2PCoin[]
  fiats: string[]
  limitTimes: number[]
  appealReasons: string[]
  payments: PayKind[]
  maxOpenAds: number
  maxOpenOrders: number
  priceRateMin: number
  priceRateMax: number
}

/** A page of ads. */
export interface AdPage {
  count: number
  list: Ad[]
}

/** A page of orders (data.orderList, data.count). */
export interface OrderPage {
  count: number
  orderList: Order[]
}

/** Express's answer (quick_money/noToken/otc_channel_check). */
export interface Quote {
  advertId: string
  side?: Side
  coinSymbol?: string
  paySymbol?: string
  price: string
  volume: string
  totalPrice: string
  limitTime: number
  /** Payment kinds the ad accepts. */
  payments: string[]
  merchant?: Partial<Stats> & { nickName?: string }
}

/** Query keys of the P2P area. */
export const p2pKeys = {
  all: ['p2p'] as const,
  info: ['p2p', 'public-info'] as const,
  search: (filter: Record<string, unknown>) => ['p2p', 'search', filter] as const,
  rate: (coin: string) => ['p2p', 'rate', coin] as const,
  stats: (uid: string) => ['p2p', 'stats', uid] as const,
  personAds: (uid: string, page: number) => ['p2p', 'person-ads', uid, page] as const,
  ad: (id: string) => ['p2p', 'ad', id] as const,
  orders: ['p2p', 'orders'] as const,
  orderList: (tab: string, page: number, pageSize: number) => ['p2p', 'orders', tab, page, pageSize] as const,
  order: (id: string) => ['p2p', 'order', id] as const,
  chat: (id: string) => ['p2p', 'chat', id] as const,
  methods: ['p2p', 'methods'] as const,
  kinds: ['p2p', 'kinds'] as const,
  balance: (coin: string) => ['p2p', 'balance', coin] as const,
  upload: (id: string) => ['p2p', 'upload', id] as const,
}
