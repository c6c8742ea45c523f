import type { OrdersSearch } from './order-filters'

/**
 * Addresses of the orders pages. An order's page carries the list's search
 * (tab, filters, page) in its own address, so its back link returns to the
 * very view the order was opened from, also after a reload or when the
 * link was shared.
 */

/** The order of the parameters in an address: stable, so links compare equal. */
const SEARCH_KEYS = ['tab', 'symbol', 'side', 'status', 'days', 'page'] as const satisfies readonly (keyof OrdersSearch)[]

/** The query string of a list search ('' when there is nothing to keep), with its '?'. */
export function searchString(search: OrdersSearch): string {
  const params = new URLSearchParams()
  for (const key of SEARCH_KEYS) {
    const value = search[key]
    if (value !== undefined && value !== '') params.set(key, String(value))
  }
  const s = params.toString()
  return s ? `?${s}` : ''
}

/** /order/spot with a list search. */
export function ordersListHref(search: OrdersSearch = {}): string {
  return `/order/spot${searchString(search)}`
}

/** /order/spot/<id>, remembering the list search it was opened from. */
export function orderPageHref(orderId: string, search: OrdersSearch = {}): string {
  return `/order/spot/${encodeURIComponent(orderId)}${searchString(search)}`
}
