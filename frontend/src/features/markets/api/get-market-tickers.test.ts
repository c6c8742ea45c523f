import { describe, expect, it } from 'vitest'
import { applyPushedTicker, tickerChannel } from './get-market-tickers'

describe('pushed tickers', () => {
  it('names the ticker channel of a pair in any spelling', () => {
    expect(tickerChannel('BTC_USDT')).toBe('market_btcusdt_ticker')
    expect(tickerChannel('btcusdt')).toBe('market_btcusdt_ticker')
  })

  it("moves a pair's price and change, and ends its sparkline at the pushed price", () => {
    // The 24 h open, then hourly closes: the last is the current hour's close so far.
    const old = { btcusdt: { close: '97000', rose: '0.01', sparkline: [96000, 96500, 97000] }, ethusdt: { close: '3000', sparkline: [] } }
    const next = applyPushedTicker(old, 'BTC_USDT', { close: '98000.5', rose: '0.02', vol: '1' })
    expect(next?.btcusdt).toEqual({ close: '98000.5', rose: '0.02', sparkline: [96000, 96500, 98000.5] })
    // The next push moves the same last point again (the line does not grow).
    expect(applyPushedTicker(next, 'btcusdt', { close: '95000', rose: '-0.0104' })?.btcusdt.sparkline).toEqual([96000, 96500, 95000])
    expect(next?.ethusdt).toBe(old.ethusdt)
    // Before the first poll answers there is still a row to show; with the 24 h open pushed, a line from it to the price.
    expect(applyPushedTicker(undefined, 'tonusdt', { close: 5.35, rose: -0.01 })).toEqual({ tonusdt: { close: '5.35', rose: '-0.01', sparkline: [] } })
    expect(applyPushedTicker(undefined, 'tonusdt', { open: '5.4', close: 5.35, rose: -0.01 })?.tonusdt.sparkline).toEqual([5.4, 5.35])
    // A line of the 24 h open alone gets the price appended.
    expect(applyPushedTicker({ tonusdt: { sparkline: [5.4] } }, 'tonusdt', { close: '5.5', rose: '0.0185' })?.tonusdt.sparkline).toEqual([5.4, 5.5])
  })

  it('shows no price for a pair without trades and ignores what is not a ticker', () => {
    expect(applyPushedTicker({}, 'btcusdt', { close: '0', rose: '0' })?.btcusdt).toEqual({ close: undefined, rose: undefined, sparkline: [] })
    const old = { btcusdt: { close: '1', sparkline: [] } }
    expect(applyPushedTicker(old, 'btcusdt', null)).toBe(old)
    expect(applyPushedTicker(old, 'btcusdt', { rose: '0.1' })).toBe(old)
  })
})
