import { pairSymbol } from '@/lib/pair-symbol'
import type { MarketPair } from '../api/get-market-overview'

/**
 * The pure part of the favourites sync. The web app keeps favourites as
 * route symbols ('BTC_USDT', the local storage format); the server as pair
 * symbols ('btcusdt'), which only the market list can turn back into pairs.
 */

/** The server keeps at most this many favourites per user. */
export const MAX_FAVOURITES = 100

/** A pending star toggle, applied on top of the last list the server confirmed. */
export interface FavouriteToggle {
  symbol: string
  add: boolean
}

/**
 * Route symbols of a server list, in the server's order; symbols of pairs
 * the market list does not show are left out.
 */
export function fromServerSymbols(list: string[], pairs: MarketPair[]): string[] {
  const bySymbol = new Map(pairs.map((p) => [pairSymbol(p.symbol), p.symbol]))
  const out: string[] = []
  for (const s of list) {
    const symbol = bySymbol.get(pairSymbol(s))
    if (symbol && !out.includes(symbol)) out.push(symbol)
  }
  return out
}

/**
 * The server symbols to add when a visitor signs in: the local favourites
 * the server list lacks, in local order. Pairs the market list does not show
 * are skipped (the server would refuse the whole call for one unknown pair),
 * and the list is cut to the room left under {@link MAX_FAVOURITES}.
 */
export function favouritesToAdd(local: string[], server: string[], pairs: MarketPair[]): string[] {
  const known = new Set(pairs.map((p) => pairSymbol(p.symbol)))
  const have = new Set(server.map(pairSymbol))
  const add: string[] = []
  for (const s of local) {
    const sym = pairSymbol(s)
    if (known.has(sym) && !have.has(sym) && !add.includes(sym)) add.push(sym)
  }
  return add.slice(0, Math.max(0, MAX_FAVOURITES - have.size))
}

/** A list with one toggle applied (added at the end, or removed). */
export function applyToggle(list: string[], { symbol, add }: FavouriteToggle): string[] {
  if (add) return list.includes(symbol) ? list : [...list, symbol]
  return list.filter((s) => s !== symbol)
}

/** The list shown: the confirmed list with the pending toggles applied in order. */
export function withPending(confirmed: string[], pending: FavouriteToggle[]): string[] {
  return pending.reduce(applyToggle, confirmed)
}
