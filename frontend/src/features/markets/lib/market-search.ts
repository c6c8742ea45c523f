import type { MarketGroup, MarketPair } from '../api/get-market-overview'
import { FAVOURITES_TAB } from './market-tab'

/** True when a letter or digit (of any script) is at `i` of `text`. */
function isWordChar(text: string, i: number): boolean {
  return /[\p{L}\p{N}]/u.test(text.charAt(i))
}

/** True when `q` occurs in `text` at the start of a word ("TETH" in "TETHER USD", not "ETH"). */
function atWordStart(text: string, q: string): boolean {
  for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + 1)) {
    if (i === 0 || !isWordChar(text, i - 1)) return true
  }
  return false
}

/**
 * True when a pair answers the market search `query`: its symbol (BTC/USDT,
 * BTCUSDT) or either coin contains it, or its coin's name has a word that
 * starts with it. "eth" finds ETH/USDT but not USDT/MNT through the "eth"
 * inside "Tether USD"; "teth" still finds Tether by its name. Case does not
 * matter; an empty query matches every pair.
 */
export function matchesSearch(pair: Pick<MarketPair, 'name' | 'base' | 'quote' | 'longName'>, query: string): boolean {
  const q = query.trim().toUpperCase()
  if (!q) return true
  const name = pair.name.toUpperCase()
  if (name.includes(q) || name.replace(/[^\p{L}\p{N}]/gu, '').includes(q)) return true
  if (pair.base.toUpperCase().includes(q) || pair.quote.toUpperCase().includes(q)) return true
  return atWordStart((pair.longName ?? '').toUpperCase(), q)
}

/**
 * The pairs a market list shows on a tab (a quote coin such as 'USDT', or
 * {@link FAVOURITES_TAB}) for a search: without one, the tab's pairs; with
 * one, the matching pairs of every quote group ("mnt" on the USDT tab finds
 * USDT/MNT), except on the Favourites tab, which searches the favourites
 * only. Favourites are route symbols ('BTC_USDT'), shown in the market's order.
 */
export function visiblePairs(groups: MarketGroup[], tab: string, favourites: string[], query: string): MarketPair[] {
  const q = query.trim().toUpperCase()
  const all = groups.flatMap((g) => g.pairs)
  const base = tab === FAVOURITES_TAB ? all.filter((p) => favourites.includes(p.symbol)) : q ? all : (groups.find((g) => g.quote === tab)?.pairs ?? [])
  return q ? base.filter((p) => matchesSearch(p, q)) : base
}
