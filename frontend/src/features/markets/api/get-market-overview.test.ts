import { describe, expect, it } from 'vitest'
import { parseMarketOverview, sessionTag } from './get-market-overview'

describe('parseMarketOverview', () => {
  it('groups pairs by quote coin, sorted by sort, with coin names', () => {
    const overview = parseMarketOverview({
      coinList: { BTC: { longName: 'Bitcoin', icon: '/btc.svg' }, ETH: { showName: 'Ethereum' } },
      market: {
        USDT: {
          'ETH/USDT': { name: 'ETH/USDT', showName: 'ETH/USDT', sort: 2 },
          'BTC/USDT': { name: 'BTC/USDT', showName: 'BTC/USDT', sort: 1, isOpenCross: 1, etfOpen: false },
        },
        MNT: [{ name: 'usdt/mnt', sort: '1' }],
        EMPTY: {},
      },
    })
    expect(overview.groups.map((g) => g.quote)).toEqual(['USDT', 'MNT'])
    expect(overview.groups[0].pairs.map((p) => p.symbol)).toEqual(['BTC_USDT', 'ETH_USDT'])
    expect(overview.groups[0].pairs[0]).toMatchObject({
      name: 'BTC/USDT',
      base: 'BTC',
      quote: 'USDT',
      longName: 'Bitcoin',
      icon: '/btc.svg',
      isOpenCross: true,
      etfOpen: false,
    })
    expect(overview.groups[0].pairs[1].longName).toBe('Ethereum')
    expect(overview.groups[1].pairs[0]).toMatchObject({ symbol: 'USDT_MNT', showName: 'USDT/MNT', sort: 1 })
    expect(overview.pairCount).toBe(3)
    expect(overview.coinCount).toBe(2)
  })

  it('orders quote groups by the server marketOrder', () => {
    const { groups } = parseMarketOverview({
      market: { MNT: { 'BTC/MNT': { sort: 1 } }, USDT: { 'BTC/USDT': { sort: 1 } }, BTC: { 'ETH/BTC': { sort: 1 } } },
      marketOrder: ['USDT', 'MNT'],
    })
    expect(groups.map((g) => g.quote)).toEqual(['USDT', 'MNT', 'BTC'])
  })

  it('keeps price and change strings when the server sends them', () => {
    const { groups } = parseMarketOverview({ market: { USDT: { 'BTC/USDT': { close: '97000.10', rose: '-0.012' } } } })
    expect(groups[0].pairs[0]).toMatchObject({ base: 'BTC', close: '97000.10', rose: '-0.012' })
  })

  it('reads missing or malformed data as no markets', () => {
    expect(parseMarketOverview(null)).toEqual({ groups: [], coinCount: 0, pairCount: 0 })
    expect(parseMarketOverview({ market: 'x', coinList: [] }).groups).toEqual([])
    expect(parseMarketOverview({ market: { USDT: [null, 3, 'x'] } }).pairCount).toBe(0)
  })

  it('reads followCoinList, the signed-in caller\'s favourites, when the server sends it', () => {
    expect(parseMarketOverview({ market: {}, followCoinList: ['btcusdt', 3, '', 'tonusdt'] }).followCoinList).toEqual([
      'btcusdt',
      'tonusdt',
    ])
    expect(parseMarketOverview({ market: {}, followCoinList: [] }).followCoinList).toEqual([])
    expect(parseMarketOverview({ market: {} }).followCoinList).toBeUndefined()
  })
})

describe('sessionTag', () => {
  it('fingerprints the session token without keeping it', () => {
    expect(sessionTag('')).toBeUndefined()
    const tag = sessionTag('token-a')
    expect(tag).toMatch(/^[0-9a-f]+$/)
    expect(tag).not.toContain('token')
    expect(sessionTag('token-a')).toBe(tag)
    expect(sessionTag('token-b')).not.toBe(tag)
  })
})
