import { describe, expect, it } from 'vitest'
import { applyPushedTicker, tickerChannel } from './get-market-tickers'

describe('pushed tickers', () => {
  it('names the ticker channel of a pair in any spelling', () => {
    expect(tickerChannel('BTC_USDT')).toBe('market_btcusdt_ticker')
    expect(tickerChannel('btcusdt')).toBe('market_btcusdt_ticker')
  })

  it("moves a pair's price and change and keeps its sparkline", () => {
    const old = { btcusdt: { close: '97000', rose: '0.01', sparkline: [96000, 97000] }, ethusdt: { close: '3000', sparkline: [] } }
    const next = applyPushedTicker(old, 'BTC_USDT', { close: '98000.5', rose: '0.02', vol: '1' })
    expect(next?.btcusdt).toEqual({ close: '98000.5', rose: '0.02', sparkline: [96000, 97000] })
    expect(next?.ethusdt).toBe(old.ethusdt)
    // Before the first poll answers there is still a row to show.
    expect(applyPushedTicker(undefined, 'tonusdt', { close: 5.35, rose: -0.01 })).toEqual({ tonusdt: { close: '5.35', rose: '-0.01', sparkline: [] } })
  })

  it('shows no price for a pair without trades and ignores what is not a ticker', () => {
    expect(applyPushedTicker({}, 'btcusdt', { close: '0', rose: '0' })?.btcusdt).toEqual({ close: undefined, rose: undefined, sparkline: [] })
    const old = { btcusdt: { close: '1', sparkline: [] } }
    expect(applyPushedTicker(old, 'btcusdt', null)).toBe(old)
    expect(applyPushedTicker(old, 'btcusdt', { rose: '0.1' })).toBe(old)
  })
})
