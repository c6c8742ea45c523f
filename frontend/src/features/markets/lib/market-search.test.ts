import { describe, expect, it } from 'vitest'
import { matchesSearch } from './market-search'

const usdtMnt = { name: 'USDT/MNT', base: 'USDT', quote: 'MNT', longName: 'Tether USD' }
const ethUsdt = { name: 'ETH/USDT', base: 'ETH', quote: 'USDT', longName: 'Ethereum' }
const btcUsdt = { name: 'BTC/USDT', base: 'BTC', quote: 'USDT', longName: 'Bitcoin' }

describe('matchesSearch', () => {
  it('does not find a coin by letters inside a word of its name', () => {
    // "eth" is inside "Tether USD": USDT/MNT is not an Ethereum market.
    expect(matchesSearch(usdtMnt, 'eth')).toBe(false)
    expect(matchesSearch(ethUsdt, 'eth')).toBe(true)
    expect(matchesSearch(btcUsdt, 'coin')).toBe(false)
  })

  it('finds coin names by the start of any of their words', () => {
    expect(matchesSearch(usdtMnt, 'teth')).toBe(true)
    expect(matchesSearch(usdtMnt, 'usd')).toBe(true)
    expect(matchesSearch(usdtMnt, 'tether u')).toBe(true)
    expect(matchesSearch(btcUsdt, 'Bitc')).toBe(true)
  })

  it('finds symbols by prefix or contained letters, with or without the slash', () => {
    expect(matchesSearch(btcUsdt, 'btc')).toBe(true)
    expect(matchesSearch(btcUsdt, 'tc')).toBe(true)
    expect(matchesSearch(btcUsdt, 'btc/us')).toBe(true)
    expect(matchesSearch(btcUsdt, 'btcusdt')).toBe(true)
    expect(matchesSearch(usdtMnt, 'mnt')).toBe(true)
    expect(matchesSearch(btcUsdt, 'mnt')).toBe(false)
    expect(matchesSearch(btcUsdt, '  ')).toBe(true)
  })
})
