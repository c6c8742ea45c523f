import { describe, expect, it } from 'vitest'
import { searchParams } from './search-params'

describe('search params', () => {
  it('keeps a 19-digit id as the text it is', () => {
    expect(searchParams.parseSearch('?id=1796634901000984667')).toEqual({ id: '1796634901000984667' })
    expect(searchParams.stringifySearch({ id: '1796634901000984667' })).toBe('?id=1796634901000984667')
  })

  it('reads other values as the router always has', () => {
    expect(searchParams.parseSearch('?page=2&tab=finished&on=true&f=%5B1%2C2%5D&neg=-3')).toEqual({
      page: 2,
      tab: 'finished',
      on: true,
      f: [1, 2],
      neg: -3,
    })
    // A short digit string the app wrote as text keeps its quotes, so it reads back as text.
    expect(searchParams.stringifySearch({ code: '123' })).toBe('?code=%22123%22')
    expect(searchParams.parseSearch(searchParams.stringifySearch({ code: '123' }))).toEqual({ code: '123' })
  })

  it('round-trips what it writes', () => {
    const search = { id: '-12345678901234567890', page: 3, q: 'BTC/USDT', flag: false }
    expect(searchParams.parseSearch(searchParams.stringifySearch(search))).toEqual(search)
  })
})
