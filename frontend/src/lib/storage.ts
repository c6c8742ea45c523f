/**
 * Browser storage used by the web app besides cookies: market favourites and
 * the tokens some flows keep in storage.
 */

/** The single local storage key holding the market favourites (a JSON list of symbols). */
export const FAVOURITES_KEY = 'tenger.market.favourites'

/** Storage keys that may hold session tokens; logout clears all of them. */
export const TOKEN_STORAGE_KEYS = ['token', 'exchange-token', 'tenger.token', 'tenger.challengeToken', 'tenger.resetToken']

/** Reads the favourite symbols; a damaged entry reads as empty. */
export function getFavourites(): string[] {
  try {
    const raw = localStorage.getItem(FAVOURITES_KEY)
    const parsed: unknown = raw ? JSON.parse(raw) : []
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : []
  } catch {
    return []
  }
}

/** Adds or removes a symbol from the favourites and returns the new list. */
export function toggleFavourite(symbol: string): string[] {
  const current = getFavourites()
  const next = current.includes(symbol) ? current.filter((s) => s !== symbol) : [...current, symbol]
  localStorage.setItem(FAVOURITES_KEY, JSON.stringify(next))
  return next
}

/** Removes every stored session token (local and session storage). */
export function clearStoredTokens(): void {
  for (const key of TOKEN_STORAGE_KEYS) {
    try {
      localStorage.removeItem(key)
      sessionStorage.removeItem(key)
    } catch {
      // Storage may be unavailable (private mode); nothing to clear then.
    }
  }
}
