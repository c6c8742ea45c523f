import { describe, expect, it } from 'vitest'
import { parseTickers } from '../api/get-market-tickers'
import { sparklineColor, sparklinePoints } from './sparkline'

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
      sparklines: { btcusdt: ['96990', '97000.1', 'x'], ethusdt: [] },
    })
    expect(out.btcusdt).toEqual({ close: '97000.1', rose: '-0.012', sparkline: [96990, 97000.1] })
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
  it('ends the line at the ticker price shown beside it', () => {
    // The hourly closes were read a moment before the ticker: the price has moved since.
    const out = parseTickers({
      tickers: { btcusdt: { open: '97100', close: '97020.5', rose: '-0.000819' } },
      sparklines: { btcusdt: ['97050', '97090', '97110'] },
    })
    expect(out.btcusdt.sparkline).toEqual([97100, 97050, 97090, 97020.5])
  })
  it('tolerates a missing body', () => {
    expect(parseTickers(null)).toEqual({})
  })
})

describe('sparklineColor', () => {
  it('follows the sign of the 24 h change, not the line\'s own ends', () => {
    // Change -0.08 % beside a line whose first hourly close is below its last: the line is red like the change.
    expect(sparklineColor([96900, 97000, 97100], '-0.0008')).toBe('down')
    expect(sparklineColor([97100, 97000, 96900], '0.0008')).toBe('up')
    // A change shown as 0.00 % is neutral like its figure.
    expect(sparklineColor([1, 2], '0.00001')).toBe('fg.muted')
  })
  it('falls back to the line\'s direction without a change', () => {
    expect(sparklineColor([1, 2], undefined)).toBe('up')
    expect(sparklineColor([2, 1], '')).toBe('down')
  })
})
