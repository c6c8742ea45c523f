/**
 * Browser storage used by the web app besides cookies: market favourites and
 * the tokens some flows keep in storage.
 */

/**
 * The single local storage key holding the market favourites (a JSON list of
 * symbols): a visitor's own list, or the cache of a signed-in user's list
 * kept by the server (see features/markets/lib/use-favourites.ts).
 */
export const FAVOURITES_KEY = 'tenger.market.favourites'

/**
 * The user id whose server list the favourites mirror; absent while they are
 * a visitor's own stars (which are merged into the account at sign-in).
 */
export const FAVOURITES_OWNER_KEY = 'tenger.market.favouritesOwner'

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

/** Replaces the favourite symbols (the list a signed-in user's server answered). */
export function setFavourites(symbols: string[]): void {
  try {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(symbols))
  } catch {
    // Storage may be unavailable (private mode); the list then lives in memory only.
  }
}

/** The user whose server list the favourites mirror, or undefined for a visitor's list. */
export function getFavouritesOwner(): string | undefined {
  try {
    return localStorage.getItem(FAVOURITES_OWNER_KEY) || undefined
  } catch {
    return undefined
  }
}

/** Marks the favourites as a cache of `uid`'s server list, or (undefined) as a visitor's own. */
export function setFavouritesOwner(uid: string | undefined): void {
  try {
    if (uid) localStorage.setItem(FAVOURITES_OWNER_KEY, uid)
    else localStorage.removeItem(FAVOURITES_OWNER_KEY)
  } catch {
    // Storage may be unavailable (private mode); nothing to remember then.
  }
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
