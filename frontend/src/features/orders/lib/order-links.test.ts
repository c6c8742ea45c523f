import { describe, expect, it } from 'vitest'
import { parseOrdersSearch } from './order-filters'
import { orderPageHref, ordersListHref, searchString } from './order-links'

describe('order links', () => {
  it('builds the list and order addresses with the list search in a stable order', () => {
    expect(ordersListHref()).toBe('/order/spot')
    expect(orderPageHref('42')).toBe('/order/spot/42')
    const search = { page: 2, status: 3, tab: 'history', symbol: 'btcusdt', side: 'SELL', days: 30 } as const
    expect(searchString(search)).toBe('?tab=history&symbol=btcusdt&side=SELL&status=3&days=30&page=2')
    expect(orderPageHref('42', search)).toBe('/order/spot/42?tab=history&symbol=btcusdt&side=SELL&status=3&days=30&page=2')
    expect(ordersListHref({ tab: 'open', side: undefined })).toBe('/order/spot?tab=open')
  })

  it('round-trips a search through the address', () => {
    const search = parseOrdersSearch({ tab: 'history', symbol: 'ethusdt', status: '4', days: '90', page: '3' })
    const query = new URLSearchParams(searchString(search))
    expect(parseOrdersSearch(Object.fromEntries(query))).toEqual(search)
  })

  it('keeps whatever is in the id inside its path segment', () => {
    expect(orderPageHref('a/b?c')).toBe('/order/spot/a%2Fb%3Fc')
  })
})
