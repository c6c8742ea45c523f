/**
 * The P2P pages' URL search values, checked by the pages (in the P2P
 * chunk, not the first load: the routes keep the values as they come).
 */

/**
 * The search values of the P2P pages: trading's ?side=sell&coin=&amount=&payment=&page=,
 * the order page's and the ad form's ?id=, a profile's ?uid=; /order/otc's ?tab=finished&page=.
 */
export interface P2PSearch {
  side?: 'sell'
  coin?: string
  amount?: string
  payment?: string
  page?: number
  id?: string
  uid?: string
  tab?: 'finished'
}

/** What each search value must look like. */
const RULES: [keyof P2PSearch, RegExp][] = [
  ['side', /^sell$/],
  ['coin', /^[A-Z0-9]{2,10}$/],
  ['amount', /^\d{1,15}(\.\d{1,2})?$/],
  ['payment', /^[a-z]{2,20}$/],
  ['page', /^([2-9]|[1-9]\d{1,3})$/],
  ['id', /^[\w-]{1,64}$/],
  ['uid', /^[\w-]{1,64}$/],
  ['tab', /^finished$/],
]

/** Validates the P2P search values; anything else is left out. */
export function parseP2PSearch(raw: Record<string, unknown>): P2PSearch {
  const out: Record<string, unknown> = {}
  for (const [key, re] of RULES) {
    const v = raw[key]
    const t = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : ''
    const s = key === 'coin' ? t.toUpperCase() : t
    if (re.test(s)) out[key] = key === 'page' ? Number(s) : s
  }
  return out as P2PSearch
}

/**
 * The search values of a query string, read as the strings they are: the
 * router's own parsing reads a digit string as a number, and an order's
 * 19-digit id is more than a number holds exactly.
 */
export function searchOf(searchStr: string): P2PSearch {
  const raw: Record<string, string> = {}
  // A value the router wrote itself comes JSON-quoted ("1796…"): the same string.
  for (const [k, v] of new URLSearchParams(searchStr)) raw[k] = /^"[^"]*"$/.test(v) ? v.slice(1, -1) : v
  return parseP2PSearch(raw)
}

/** A path with the search values that are set, as a plain query string (the way {@link searchOf} reads it). */
export function hrefOf(path: string, search: P2PSearch): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== '') q.set(k, String(v))
  const s = q.toString()
  return s ? `${path}?${s}` : path
}

/** The order page of an order (opened with the router's history, which keeps the id as written). */
export const orderHref = (id: string) => `/p2p/order-detail?id=${encodeURIComponent(id)}`
