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
  it('tolerates a missing body', () => {
    expect(parseTickers(null)).toEqual({})
  })
})
