/**
 * The tab of the market list a user last chose (Favourites or a quote
 * group such as USDT or MNT), remembered in local storage so that the list
 * opens on it again after a reload or on the next visit. Without a choice
 * yet, a user who has favourites opens on them.
 */

/** The local storage key of the last chosen market tab. */
export const MARKET_TAB_KEY = 'tenger.market.tab'

/** The value of the Favourites tab (quote groups use their coin, e.g. 'USDT'). */
export const FAVOURITES_TAB = '__favourites__'

/** The tab last chosen, or undefined when none was (or storage is unavailable). */
export function getMarketTab(): string | undefined {
  try {
    return localStorage.getItem(MARKET_TAB_KEY) || undefined
  } catch {
    return undefined
  }
}

/** Remembers the tab the user chose. */
export function setMarketTab(tab: string): void {
  try {
    localStorage.setItem(MARKET_TAB_KEY, tab)
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for the page only.
  }
}

/**
 * The tab the market list opens on: the one last chosen while it still
 * exists (Favourites always does; a quote group only while the market has
 * it), else Favourites when the user has some, else the first quote group.
 */
export function openingTab(remembered: string | undefined, groups: string[], hasFavourites: boolean): string {
  if (remembered && (remembered === FAVOURITES_TAB || groups.includes(remembered))) return remembered
  if (hasFavourites) return FAVOURITES_TAB
  return groups[0] ?? FAVOURITES_TAB
}
