import { describe, expect, it } from 'vitest'
import { parseMarketOverview } from '../api/get-market-overview'
import { applyToggle, favouritesToAdd, fromServerSymbols, MAX_FAVOURITES, withPending } from './favourites'

const pairs = parseMarketOverview({
  market: {
    USDT: { 'BTC/USDT': { sort: 1 }, 'ETH/USDT': { sort: 2 }, 'TON/USDT': { sort: 3 } },
    MNT: { 'USDT/MNT': { sort: 1 } },
  },
}).groups.flatMap((g) => g.pairs)

describe('favourites sync', () => {
  it('reads a server list as route symbols in its order, leaving out pairs the market list lacks', () => {
    expect(fromServerSymbols(['tonusdt', 'usdtmnt', 'dogeusdt', 'BTC/USDT', 'tonusdt'], pairs)).toEqual([
      'TON_USDT',
      'USDT_MNT',
      'BTC_USDT',
    ])
    expect(fromServerSymbols([], pairs)).toEqual([])
  })

  it('adds at sign-in only the known local favourites the server lacks', () => {
    expect(favouritesToAdd(['TON_USDT', 'BTC_USDT', 'DOGE_USDT', 'USDT_MNT', 'TON_USDT'], ['btcusdt'], pairs)).toEqual([
      'tonusdt',
      'usdtmnt',
    ])
    expect(favouritesToAdd(['BTC_USDT'], ['btcusdt', 'ethusdt'], pairs)).toEqual([])
    expect(favouritesToAdd([], [], pairs)).toEqual([])
  })

  it('keeps the merge within the room the server list has left', () => {
    const full = Array.from({ length: MAX_FAVOURITES - 1 }, (_, i) => `p${i}usdt`)
    expect(favouritesToAdd(['TON_USDT', 'ETH_USDT'], full, pairs)).toEqual(['tonusdt'])
    expect(favouritesToAdd(['TON_USDT'], [...full, 'x'], pairs)).toEqual([])
  })

  it('shows pending toggles on top of the confirmed list', () => {
    expect(applyToggle(['BTC_USDT'], { symbol: 'TON_USDT', add: true })).toEqual(['BTC_USDT', 'TON_USDT'])
    expect(applyToggle(['BTC_USDT'], { symbol: 'BTC_USDT', add: true })).toEqual(['BTC_USDT'])
    expect(applyToggle(['BTC_USDT'], { symbol: 'BTC_USDT', add: false })).toEqual([])
    expect(
      withPending(
        ['BTC_USDT'],
        [
          { symbol: 'TON_USDT', add: true },
          { symbol: 'BTC_USDT', add: false },
        ],
      ),
    ).toEqual(['TON_USDT'])
  })
})
