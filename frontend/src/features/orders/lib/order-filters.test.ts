import { describe, expect, it } from 'vitest'
import { searchBody, type SpotOrder } from '../api/orders-api'
import { emptyKey, filterOpenOrders, historyFilter, nextSearch, PAGE_SIZE, pageSlice, parseOrdersSearch, searchRange } from './order-filters'

const NOW = new Date(2025, 5, 15, 13, 45, 30).getTime()
const DAY = 86_400_000

describe('search parameters', () => {
  it('keeps valid values', () => {
    expect(
      parseOrdersSearch({ tab: 'history', symbol: 'BTC_USDT', side: 'sell', status: '4', days: '30', page: '3' }),
    ).toEqual({ tab: 'history', symbol: 'btcusdt', side: 'SELL', status: 4, days: 30, page: 3 })
  })

  it('drops what is not valid', () => {
    expect(
      parseOrdersSearch({ tab: 'x', symbol: '<script>', side: 'LONG', status: '1', days: '365', page: '-2' }),
    ).toEqual({})
    // 180 days is the default (the whole window) and is left out; only the offered ranges are kept.
    expect([7, 30, 90, 180, 45, 'x'].map((d) => parseOrdersSearch({ days: d }).days)).toEqual([7, 30, 90, undefined, undefined, undefined])
    // Date parameters of older links are not a filter any more.
    expect(parseOrdersSearch({ from: '2025-01-01', to: '2025-02-01' })).toEqual({})
    // Page 1 is the default and is left out.
    expect(parseOrdersSearch({ page: 1 })).toEqual({})
    // Only finished statuses filter the history.
    expect([1, 2, 3, 4, 5].map((s) => parseOrdersSearch({ status: s }).status)).toEqual([undefined, undefined, 3, 4, 5])
  })
})

describe('history filter', () => {
  it('asks for the last 180 days by default', () => {
    const f = historyFilter({ tab: 'history' }, 'history', NOW)
    expect(f.startTime).toBe(Math.floor(NOW / 60_000) * 60_000 - 180 * DAY)
    expect(f.endTime).toBe(new Date(2025, 5, 16).getTime() - 1)
    expect(f).toMatchObject({ page: 1, pageSize: PAGE_SIZE })
  })

  it('asks for the chosen last days, from the start of the first day to the end of today, and keeps the other filters', () => {
    const f = historyFilter({ tab: 'history', days: 7, symbol: 'btcusdt', side: 'BUY', status: 3, page: 2 }, 'history', NOW)
    expect(f.startTime).toBe(new Date(2025, 5, 8).getTime())
    expect(f.endTime).toBe(new Date(2025, 5, 16).getTime() - 1)
    expect(f).toMatchObject({ symbol: 'btcusdt', side: 'BUY', status: 3, page: 2 })
    expect(searchRange({ days: 90 }, NOW)).toEqual({ from: '2025-03-17', to: '2025-06-15' })
    expect(searchRange({}, NOW)).toEqual({ from: '2024-12-17', to: '2025-06-15' })
  })

  it('never sends a status for trades', () => {
    expect(historyFilter({ tab: 'trades', status: 4 }, 'trades', NOW).status).toBeUndefined()
  })

  it('leaves empty filters out of the request', () => {
    expect(searchBody({ page: 2, pageSize: 10 })).toEqual({ page: 2, pageSize: 10 })
    expect(searchBody({ page: 1, pageSize: 10, symbol: 'btcusdt', side: 'SELL', status: 4, startTime: 5, endTime: 6 })).toEqual({
      page: 1,
      pageSize: 10,
      symbol: 'btcusdt',
      side: 'SELL',
      status: '4',
      startTime: 5,
      endTime: 6,
    })
  })
})

describe('changing filters', () => {
  it('goes back to page 1 when a filter changes', () => {
    expect(nextSearch({ tab: 'history', page: 4 }, { side: 'BUY' })).toEqual({ tab: 'history', side: 'BUY' })
    expect(nextSearch({ tab: 'history', side: 'BUY' }, { page: 2 })).toEqual({ tab: 'history', side: 'BUY', page: 2 })
    expect(nextSearch({ tab: 'history', page: 2 }, { page: 1 })).toEqual({ tab: 'history' })
  })

  it('keeps pair and side across tabs, the status on the history only, the range off the open tab', () => {
    const history = { tab: 'history' as const, symbol: 'btcusdt', side: 'SELL' as const, status: 4, days: 30 as const }
    expect(nextSearch(history, { tab: 'trades' })).toEqual({ tab: 'trades', symbol: 'btcusdt', side: 'SELL', days: 30 })
    expect(nextSearch(history, { tab: 'open' })).toEqual({ tab: 'open', symbol: 'btcusdt', side: 'SELL' })
  })

  it('clears a filter set to all', () => {
    expect(nextSearch({ symbol: 'btcusdt' }, { symbol: undefined })).toEqual({})
    // The whole window (180 days) is the default.
    expect(nextSearch({ tab: 'history', days: 7 }, { days: 180 })).toEqual({ tab: 'history' })
  })
})

describe('open orders in memory', () => {
  const orders = Array.from({ length: 23 }, (_, i) => ({ order_id: String(i), side: i % 2 ? 'SELL' : 'BUY' }) as SpotOrder)

  it('filters by side', () => {
    expect(filterOpenOrders(orders, 'SELL')).toHaveLength(11)
    expect(filterOpenOrders(orders, undefined)).toHaveLength(23)
  })

  it('pages and brings the page into range', () => {
    expect(pageSlice(orders, 1).rows.map((o) => o.order_id)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
    expect(pageSlice(orders, 3)).toMatchObject({ page: 3, rows: [{ order_id: '20' }, { order_id: '21' }, { order_id: '22' }] })
    expect(pageSlice(orders, 9).page).toBe(3)
    expect(pageSlice([], 2)).toEqual({ rows: [], page: 1 })
  })
})

describe('empty lists', () => {
  it('blames the filters when one is on, the period otherwise', () => {
    expect(emptyKey({}, 'history')).toBe('history')
    expect(emptyKey({ days: 7 }, 'history')).toBe('history')
    expect(emptyKey({ status: 5, side: 'SELL' }, 'history')).toBe('filtered')
    expect(emptyKey({ symbol: 'btcusdt' }, 'trades')).toBe('filteredTrades')
    expect(emptyKey({ side: 'BUY' }, 'open')).toBe('filtered')
    expect(emptyKey({}, 'open')).toBe('open')
    expect(emptyKey({}, 'trades')).toBe('trades')
  })
})
