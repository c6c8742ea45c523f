import { queryOptions } from '@tanstack/react-query'
import { getToken } from '@/lib/cookies'
import { apiData } from '@/lib/request-client'
import { parseSymbols } from './favourites-api'

/**
 * Market overview from POST /fe-ex-api/common/public_info_market: coinList
 * plus market grouped by quote coin (spec §3 market data). The server shape
 * is read defensively: groups may be maps or lists of pairs.
 */

export const PUBLIC_INFO_MARKET_PATH = '/fe-ex-api/common/public_info_market'

/** One trading pair of the overview. */
export interface MarketPair {
  /** Symbol as shown, e.g. 'BTC/USDT'. */
  name: string
  /** Route symbol, e.g. 'BTC_USDT'. */
  symbol: string
  base: string
  quote: string
  showName: string
  longName?: string
  icon?: string
  sort: number
  isOpenCross: boolean
  etfOpen: boolean
  /** Last price as a decimal string, when the server includes one. */
  close?: string
  /** 24 h change ratio as a decimal string (0.0123 = +1.23 %), when present. */
  rose?: string
  /** Decimal places of the pair's prices, when the server says. */
  pricePrecision?: number
}

/** Pairs of one quote currency. */
export interface MarketGroup {
  quote: string
  pairs: MarketPair[]
}

/** The parsed overview. */
export interface MarketOverview {
  groups: MarketGroup[]
  coinCount: number
  pairCount: number
  /**
   * followCoinList: the signed-in caller's favourite pairs as server symbols
   * ('btcusdt'), empty for a visitor; absent when the server sends none.
   */
  followCoinList?: string[]
  /**
   * {@link sessionTag} of the session the overview was fetched in:
   * followCoinList belongs to that session only.
   */
  session?: string
}

type Raw = Record<string, unknown>

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true'
}

function precision(value: unknown): number | undefined {
  const n = Number(str(value))
  return str(value) !== undefined && Number.isInteger(n) && n >= 0 && n <= 18 ? n : undefined
}

function coinInfo(coinList: unknown, coin: string): Raw | undefined {
  if (isRecord(coinList)) {
    const entry = coinList[coin] ?? coinList[coin.toUpperCase()] ?? coinList[coin.toLowerCase()]
    return isRecord(entry) ? entry : undefined
  }
  if (Array.isArray(coinList)) {
    return coinList.find(
      (c): c is Raw => isRecord(c) && [c.name, c.coin, c.symbol].some((v) => String(v ?? '').toUpperCase() === coin),
    )
  }
  return undefined
}

function parsePair(key: string | undefined, raw: unknown, quote: string, coinList: unknown): MarketPair | undefined {
  if (!isRecord(raw)) return undefined
  const name = (str(raw.name) ?? str(raw.symbolName) ?? key ?? '').toUpperCase()
  const split = name.split(/[/_-]/)
  const base = (str(raw.baseCoin) ?? str(raw.base) ?? (split.length === 2 ? split[0] : name.replace(quote, ''))).toUpperCase()
  const q = (str(raw.quoteCoin) ?? str(raw.quote) ?? quote).toUpperCase()
  if (!base) return undefined
  const coin = coinInfo(coinList, base)
  return {
    name: `${base}/${q}`,
    symbol: `${base}_${q}`,
    base,
    quote: q,
    showName: str(raw.showName) ?? `${base}/${q}`,
    longName: str(coin?.longName) ?? str(coin?.showName),
    icon: str(coin?.icon),
    sort: Number(str(raw.sort) ?? 0) || 0,
    isOpenCross: truthy(raw.isOpenCross),
    etfOpen: truthy(raw.etfOpen),
    close: str(raw.close) ?? str(raw.price) ?? str(raw.last),
    rose: str(raw.rose) ?? str(raw.change),
    pricePrecision: precision(raw.pricePrecision),
  }
}

/** Turns the public_info_market data into groups sorted by the server's sort field. */
export function parseMarketOverview(data: unknown): MarketOverview {
  const root = isRecord(data) ? data : {}
  const market = root.market
  const coinList = root.coinList
  const groups: MarketGroup[] = []
  if (isRecord(market)) {
    for (const [quote, entries] of Object.entries(market)) {
      const q = quote.toUpperCase()
      const pairs: MarketPair[] = []
      if (isRecord(entries)) {
        for (const [key, raw] of Object.entries(entries)) {
          const pair = parsePair(key, raw, q, coinList)
          if (pair) pairs.push(pair)
        }
      } else if (Array.isArray(entries)) {
        for (const raw of entries) {
          const pair = parsePair(undefined, raw, q, coinList)
          if (pair) pairs.push(pair)
        }
      }
      pairs.sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name))
      if (pairs.length > 0) groups.push({ quote: q, pairs })
    }
  }
  // JSON objects carry no order: the server lists the quote coins in display
  // order in marketOrder; groups it does not name keep their place after them.
  if (Array.isArray(root.marketOrder)) {
    const order = root.marketOrder.map((q) => String(q).toUpperCase())
    const rank = (q: string) => (order.includes(q) ? order.indexOf(q) : order.length)
    groups.sort((a, b) => rank(a.quote) - rank(b.quote))
  }
  const coinCount = isRecord(coinList) ? Object.keys(coinList).length : Array.isArray(coinList) ? coinList.length : 0
  const overview: MarketOverview = { groups, coinCount, pairCount: groups.reduce((n, g) => n + g.pairs.length, 0) }
  if (Array.isArray(root.followCoinList)) overview.followCoinList = parseSymbols(root.followCoinList)
  return overview
}

/**
 * A short fingerprint (FNV-1a) of the session token cookie, undefined when
 * signed out: it tells whether a cached overview was fetched in the current
 * session without keeping the token itself in the query cache.
 */
export function sessionTag(token = getToken()): string | undefined {
  if (!token) return undefined
  let hash = 0x811c9dc5
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16)
}

/** Query options of the market overview; an error answer is not toasted (the table shows it). */
export const marketOverviewQuery = queryOptions({
  queryKey: ['public-info-market'],
  queryFn: async ({ signal }) => {
    const session = sessionTag()
    const overview = parseMarketOverview(await apiData(PUBLIC_INFO_MARKET_PATH, {}, { silent: true, signal }))
    return session ? { ...overview, session } : overview
  },
  staleTime: 60 * 1000,
  retry: 1,
})
