import { describe, expect, it } from 'vitest'
import { formatDec } from '@/lib/decimal'
import type { MarketPair } from '../api/get-market-overview'
import type { PairTicker } from '../api/get-market-tickers'
import { marketRows, nextSort, sortRows, SORT_KEYS, type MarketSort } from './market-rows'

const pair = (base: string, quote: string, sort: number): MarketPair => ({
  name: `${base}/${quote}`,
  symbol: `${base}_${quote}`,
  base,
  quote,
  showName: `${base}/${quote}`,
  sort,
  isOpenCross: false,
  etfOpen: false,
})

const pairs = [pair('BTC', 'USDT', 1), pair('ETH', 'USDT', 2), pair('TON', 'USDT', 3), pair('XRP', 'USDT', 4), pair('BTC', 'MNT', 5)]

const tickers: Record<string, PairTicker> = {
  btcusdt: { close: '97000', rose: '0.01', high: '98000', low: '96000', amount: '5000000', sparkline: [] },
  ethusdt: { close: '3400', rose: '-0.02', high: '3500', low: '3300', amount: '9000000', sparkline: [] },
  tonusdt: { close: '5.4', rose: '0.05', high: '5.5', low: '5.1', amount: '700', sparkline: [] },
  // XRP never traded: no figures.
  xrpusdt: { sparkline: [] },
  // 2,000,000,000 MNT of volume is about 579,710 USD: less than ETH's, more than TON's.
  btcmnt: { close: '335000000', rose: '0', high: '336000000', low: '334000000', amount: '2000000000', sparkline: [] },
}

const rates = { en_US: { USDT: '1', MNT: '0.00028986', lang_logo: '$' }, mn_MN: { USDT: '3450', MNT: '1', lang_logo: '₮' } }

const order = (sort: MarketSort | undefined) => sortRows(marketRows(pairs, tickers, rates, 'USD'), sort).map((r) => r.pair.symbol)

describe('marketRows', () => {
  it('joins each pair with its live figures and its price and volume in the chosen currency', () => {
    const [btc, , , xrp, btcMnt] = marketRows(pairs, tickers, rates, 'USD')
    expect(btc).toMatchObject({ close: '97000', rose: '0.01', high: '98000', low: '96000', amount: '5000000' })
    expect(btc.fiat?.sign).toBe('$')
    expect(formatDec(btcMnt.fiat!.value, 2)).toBe('97103.10')
    expect(formatDec(btcMnt.amountFiat!, 2)).toBe('579720.00')
    expect(xrp).toMatchObject({ close: undefined, fiat: undefined, amountFiat: undefined })
    const [inMnt] = marketRows(pairs, tickers, rates, 'MNT')
    expect(inMnt.fiat?.sign).toBe('₮')
    expect(formatDec(inMnt.fiat!.value, 0)).toBe('334650000')
  })

  it('keeps the overview\'s own price and change until the tickers answer', () => {
    const [btc] = marketRows([{ ...pairs[0], close: '1', rose: '0.1' }], undefined, undefined, 'USD')
    expect(btc).toMatchObject({ close: '1', rose: '0.1', sparkline: [] })
  })
})

describe('sortRows', () => {
  it('keeps the server order without a sort', () => {
    expect(order(undefined)).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT', 'XRP_USDT', 'BTC_MNT'])
  })

  it('sorts by every numeric column both ways, pairs without the figure last', () => {
    const want: Record<(typeof SORT_KEYS)[number], string[]> = {
      // Last prices as shown, each in its own quote coin.
      price: ['BTC_MNT', 'BTC_USDT', 'ETH_USDT', 'TON_USDT'],
      fiat: ['BTC_MNT', 'BTC_USDT', 'ETH_USDT', 'TON_USDT'],
      change: ['TON_USDT', 'BTC_USDT', 'BTC_MNT', 'ETH_USDT'],
      high: ['BTC_MNT', 'BTC_USDT', 'ETH_USDT', 'TON_USDT'],
      low: ['BTC_MNT', 'BTC_USDT', 'ETH_USDT', 'TON_USDT'],
      // Volumes compared in the chosen currency.
      volume: ['ETH_USDT', 'BTC_USDT', 'BTC_MNT', 'TON_USDT'],
    }
    for (const key of SORT_KEYS) {
      expect(order({ key, dir: 'desc' }), `${key} high to low`).toEqual([...want[key], 'XRP_USDT'])
      expect(order({ key, dir: 'asc' }), `${key} low to high`).toEqual([...want[key].reverse(), 'XRP_USDT'])
    }
  })

  it('orders by fiat value across quote coins (BTC/MNT below BTC/USDT when it is cheaper in dollars)', () => {
    const cheap = { ...tickers, btcmnt: { ...tickers.btcmnt, close: '300000000' } }
    const rows = marketRows(pairs, cheap, rates, 'USD')
    expect(sortRows(rows, { key: 'fiat', dir: 'desc' }).map((r) => r.pair.symbol).slice(0, 2)).toEqual(['BTC_USDT', 'BTC_MNT'])
    // By last price the MNT figure is the larger number.
    expect(sortRows(rows, { key: 'price', dir: 'desc' })[0].pair.symbol).toBe('BTC_MNT')
  })

  it('sorts volumes in their quote coin after the valued ones when a quote coin has no rate', () => {
    const rows = marketRows(pairs, tickers, { en_US: { USDT: '1', lang_logo: '$' } }, 'USD')
    expect(sortRows(rows, { key: 'volume', dir: 'desc' }).map((r) => r.pair.symbol)).toEqual(['ETH_USDT', 'BTC_USDT', 'TON_USDT', 'BTC_MNT', 'XRP_USDT'])
    expect(sortRows(rows, { key: 'fiat', dir: 'asc' }).map((r) => r.pair.symbol)).toEqual(['TON_USDT', 'ETH_USDT', 'BTC_USDT', 'XRP_USDT', 'BTC_MNT'])
  })
})

describe('nextSort', () => {
  it('sorts a column high to low, then low to high, then back to the server order', () => {
    const first = nextSort(undefined, 'volume')
    expect(first).toEqual({ key: 'volume', dir: 'desc' })
    const second = nextSort(first, 'volume')
    expect(second).toEqual({ key: 'volume', dir: 'asc' })
    expect(nextSort(second, 'volume')).toBeUndefined()
    // Another column starts high to low.
    expect(nextSort(second, 'change')).toEqual({ key: 'change', dir: 'desc' })
  })
})
