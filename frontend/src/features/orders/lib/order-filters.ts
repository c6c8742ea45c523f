import { HISTORY_PRESETS, HISTORY_WINDOW_DAYS, presetRange, rangeMillis, type DateRange } from '@/components/data/history-range'
import { pairSymbol } from '@/lib/pair-symbol'
import { FINISHED_STATUSES, SIDES, type HistoryFilter, type Side, type SpotOrder } from '../api/orders-api'

/**
 * The state of the spot orders page, kept in the URL so that a filtered
 * view can be shared and survives a reload: the tab, the filters and the
 * page. Every value comes from the address bar, so each one is checked.
 */

export const ORDER_TABS = ['open', 'history', 'trades'] as const
export type OrderTab = (typeof ORDER_TABS)[number]

/** Rows per page of every list of the page. */
export const PAGE_SIZE = 10

/** The search parameters of /order/spot. */
export interface OrdersSearch {
  tab?: OrderTab
  /** API symbol, e.g. btcusdt. */
  symbol?: string
  side?: Side
  /** Finished-order status (history tab). */
  status?: number
  /**
   * The time range of the history tabs: the last 7, 30 or 90 days (the
   * choice the wallet history offers too); absent for the whole window of
   * the last 180 days, which is all the server searches.
   */
  days?: HistoryDays
  page?: number
}

/** A range choice of the history tabs, in days (spec §9: 180 at most). */
export type HistoryDays = (typeof HISTORY_PRESETS)[number]

const SYMBOL_RE = /^[a-z0-9]{2,20}$/

/** Reads the search parameters, dropping whatever is not a valid value. */
export function parseOrdersSearch(raw: Record<string, unknown>): OrdersSearch {
  const out: OrdersSearch = {}
  if (typeof raw.tab === 'string' && (ORDER_TABS as readonly string[]).includes(raw.tab)) out.tab = raw.tab as OrderTab
  if (typeof raw.symbol === 'string') {
    const s = pairSymbol(raw.symbol)
    if (SYMBOL_RE.test(s)) out.symbol = s
  }
  if (typeof raw.side === 'string' && (SIDES as readonly string[]).includes(raw.side.toUpperCase())) out.side = raw.side.toUpperCase() as Side
  const status = Number(raw.status)
  if ((FINISHED_STATUSES as readonly number[]).includes(status)) out.status = status
  const days = Number(raw.days)
  if ((HISTORY_PRESETS as readonly number[]).includes(days) && days !== HISTORY_WINDOW_DAYS) out.days = days as HistoryDays
  const page = Number(raw.page)
  if (Number.isInteger(page) && page > 1 && page < 100_000) out.page = page
  return out
}

/** The range choice of a search: its days, or the whole 180-day window. */
export function searchDays(search: OrdersSearch): HistoryDays {
  return search.days ?? HISTORY_WINDOW_DAYS
}

/** The calendar days a search stands for: the last `days` days up to today, within the last 180 days. */
export function searchRange(search: OrdersSearch, now = Date.now()): DateRange {
  return presetRange(searchDays(search), now)
}

/** The API filter of a history tab's search (orders, or trades without the status). */
export function historyFilter(search: OrdersSearch, tab: 'history' | 'trades', now = Date.now()): HistoryFilter {
  const { startTime, endTime } = rangeMillis(searchRange(search, now), now)
  return {
    symbol: search.symbol,
    side: search.side,
    status: tab === 'history' ? search.status : undefined,
    startTime,
    endTime,
    page: search.page ?? 1,
    pageSize: PAGE_SIZE,
  }
}

/** The open orders that match the side filter (the endpoint filters by pair only). */
export function filterOpenOrders(orders: SpotOrder[], side: Side | undefined): SpotOrder[] {
  return side ? orders.filter((o) => o.side === side) : orders
}

/**
 * The text key (under `empty.`) of a list with nothing to show: when a pair,
 * side or status filter is on, the filters are why ("No orders match these
 * filters"), not the period or the account.
 */
export function emptyKey(search: OrdersSearch, tab: OrderTab): string {
  const filtered = !!search.symbol || !!search.side || (tab === 'history' && search.status !== undefined)
  if (!filtered) return tab
  return tab === 'trades' ? 'filteredTrades' : 'filtered'
}

/** One page of an in-memory list, with the page number brought into range. */
export function pageSlice<T>(list: T[], page: number, pageSize = PAGE_SIZE): { rows: T[]; page: number } {
  const pages = Math.max(1, Math.ceil(list.length / pageSize))
  const current = Math.min(Math.max(1, page), pages)
  return { rows: list.slice((current - 1) * pageSize, current * pageSize), page: current }
}

/**
 * The search after one filter changed: back to page 1, and the status
 * only where it applies. Switching tab keeps the pair and side filters.
 */
export function nextSearch(current: OrdersSearch, change: Partial<OrdersSearch>): OrdersSearch {
  const next: OrdersSearch = { ...current, ...change }
  if (!('page' in change)) delete next.page
  if ((next.tab ?? 'open') !== 'history') delete next.status
  if ((next.tab ?? 'open') === 'open' || next.days === HISTORY_WINDOW_DAYS) delete next.days
  for (const k of Object.keys(next) as (keyof OrdersSearch)[]) if (next[k] === undefined || next[k] === '') delete next[k]
  if (next.page === 1) delete next.page
  return next
}
