import { describe, expect, it } from 'vitest'
import { parseTickers } from '../api/get-market-tickers'
import { sparklinePoints } from './sparkline'

describe('sparklinePoints', () => {
  it('scales values into the box, highest at the top', () => {
    expect(sparklinePoints([1, 3, 2], 100, 20)).toBe('0,20 50,0 100,10')
  })
  it('draws a flat line through the middle', () => {
    expect(sparklinePoints([5, 5], 10, 10)).toBe('0,5 10,5')
  })
  it('needs two points', () => {
    expect(sparklinePoints([1], 10, 10)).toBe('')
  })
})

describe('parseTickers', () => {
  it('joins tickers and sparklines by symbol', () => {
    const out = parseTickers({
      tickers: { btcusdt: { close: '97000.1', rose: '-0.012' }, tonusdt: { close: '0.000', rose: '0' } },
      sparklines: { btcusdt: ['1', '2', 'x'], ethusdt: [] },
    })
    expect(out.btcusdt).toEqual({ close: '97000.1', rose: '-0.012', sparkline: [1, 2] })
    expect(out.tonusdt).toEqual({ close: undefined, rose: undefined, sparkline: [] })
    expect(out.ethusdt).toEqual({ close: undefined, rose: undefined, sparkline: [] })
  })
  it('starts the line at the 24 h open, so one hour of closes still draws a trend', () => {
    const out = parseTickers({
      tickers: { btcusdt: { open: '97019.56', close: '97058.90', rose: '0.000405' }, tonusdt: { open: '5.4', close: '0', rose: '0' } },
      sparklines: { btcusdt: ['97058.90'], tonusdt: ['5.3'] },
    })
    expect(out.btcusdt.sparkline).toEqual([97019.56, 97058.9])
    expect(sparklinePoints(out.btcusdt.sparkline, 96, 26)).not.toBe('')
    // A pair without trades keeps its own closes only.
    expect(out.tonusdt.sparkline).toEqual([5.3])
  })
  it('tolerates a missing body', () => {
    expect(parseTickers(null)).toEqual({})
  })
})
