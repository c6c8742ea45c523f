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

/**
 * The trade form's order confirmations a user turned off ('off' when off;
 * absent, the confirmation is asked): a limit price far from the last price,
 * and a market order's slippage (features/trade/components/order-form.tsx).
 */
export const CONFIRM_FAR_LIMIT_KEY = 'tenger.trade.confirmFarLimit'
export const CONFIRM_SLIPPAGE_KEY = 'tenger.trade.confirmSlippage'

/** The confirmations of the trade form. */
export type OrderConfirmation = 'farLimit' | 'slippage'

const CONFIRMATION_KEYS: Record<OrderConfirmation, string> = { farLimit: CONFIRM_FAR_LIMIT_KEY, slippage: CONFIRM_SLIPPAGE_KEY }

/** True unless the user turned the confirmation off (or storage cannot be read). */
export function getOrderConfirmation(kind: OrderConfirmation): boolean {
  try {
    return localStorage.getItem(CONFIRMATION_KEYS[kind]) !== 'off'
  } catch {
    return true
  }
}

/** Turns a confirmation of the trade form on or off. */
export function setOrderConfirmation(kind: OrderConfirmation, on: boolean): void {
  try {
    if (on) localStorage.removeItem(CONFIRMATION_KEYS[kind])
    else localStorage.setItem(CONFIRMATION_KEYS[kind], 'off')
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts while the page is open.
  }
}

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
