import { apiData } from '@/lib/request-client'

/**
 * A signed-in user's favourite pairs kept by the server, so they follow the
 * user across browsers (the star in the market lists). Symbols are the
 * server's pair symbols ('btcusdt'); followCoinList of public_info_market
 * carries the same list.
 */

export const UPDATE_FAVOURITES_PATH = '/fe-ex-api/optional/update_symbol'

/** operationType of update_symbol. */
export const FAVOURITES_OP = {
  /** Add several pairs at once (a visitor's stars at sign-in), symbols comma-separated. */
  addMany: 0,
  add: 1,
  remove: 2,
} as const

export type FavouritesOp = (typeof FAVOURITES_OP)[keyof typeof FAVOURITES_OP]

/** Reads a list of pair symbols defensively (anything else reads as empty). */
export function parseSymbols(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string' && s !== '') : []
}

/**
 * Adds or removes favourites and resolves with the user's whole list after
 * the call. Silent: a refused call rejects with ApiError and the caller
 * shows its message.
 */
export async function updateFavourites(op: FavouritesOp, symbols: string[]): Promise<string[]> {
  const data = await apiData<{ symbols?: unknown }>(
    UPDATE_FAVOURITES_PATH,
    { symbols: symbols.join(','), operationType: op },
    { silent: true },
  )
  return parseSymbols(data?.symbols)
}
