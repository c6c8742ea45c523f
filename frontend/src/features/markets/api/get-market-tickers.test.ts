import { describe, expect, it } from 'vitest'
import { applyPushedTicker, parseTickers, tickerChannel } from './get-market-tickers'

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

  it('moves the 24 h high, low and quote volume with each push', () => {
    const old = parseTickers({ tickers: { btcusdt: { open: '97000', close: '97500', high: '98000', low: '96500', amount: '1000', rose: '0.005' } } })
    const next = applyPushedTicker(old, 'btcusdt', { open: '97000', close: '98100', high: '98100', low: 96500, vol: '0.02', amount: '2962', rose: '0.0113' })
    expect(next?.btcusdt).toMatchObject({ close: '98100', high: '98100', low: '96500', amount: '2962' })
    // A pair without trades has none of them.
    expect(applyPushedTicker(next, 'btcusdt', { close: '0', high: '0', low: '0', amount: '0' })?.btcusdt).toEqual({ sparkline: [97000, 98100] })
  })
})

describe('parseTickers', () => {
  it("reads each pair's 24 h high, low and quote volume", () => {
    const out = parseTickers({
      tickers: {
        btcusdt: { open: '97000', close: '97500.5', high: '98000.00', low: '96500.00', vol: '0.5', amount: '48500.25', rose: '0.005' },
        btcmnt: { open: '0', close: '0', high: '0', low: '0', vol: '0', amount: '0', rose: '0' },
      },
    })
    expect(out.btcusdt).toMatchObject({ high: '98000.00', low: '96500.00', amount: '48500.25' })
    expect(out.btcmnt).toEqual({ close: undefined, rose: undefined, sparkline: [] })
  })

  it("draws 25 points: the 24 h open and the server's 24", () => {
    const closes = Array.from({ length: 24 }, (_, i) => String(97000 + i * 10))
    const out = parseTickers({ tickers: { btcusdt: { open: '96990', close: '97230', rose: '0.0025' } }, sparklines: { btcusdt: closes } })
    expect(out.btcusdt.sparkline).toHaveLength(25)
    expect(out.btcusdt.sparkline[0]).toBe(96990)
    expect(out.btcusdt.sparkline.at(-1)).toBe(97230)
  })
})
