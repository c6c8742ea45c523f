import { describe, expect, it } from 'vitest'
import { boll, computeIndicators, ema, INDICATOR_PARAMS, macd, rsi, sma } from './indicators'

const round = (s: (number | undefined)[], places = 2) => s.map((v) => (v === undefined ? undefined : Number(v.toFixed(places))))
const u = undefined

describe('sma', () => {
  it('averages the last n values and is undefined before n values', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([u, u, 2, 3, 4])
    expect(sma([1, 2], 3)).toEqual([u, u])
  })

  it('has no value for a window holding an undefined', () => {
    expect(sma([u, 2, 4, 6], 2)).toEqual([u, u, 3, 5])
  })
})

describe('ema', () => {
  // By hand: seed = (2 + 4 + 6) / 3 = 4, α = 2 / (3 + 1) = 0.5;
  // 0.5·8 + 0.5·4 = 6; 0.5·7 + 0.5·6 = 6.5; 0.5·5 + 0.5·6.5 = 5.75.
  it('is seeded with the SMA of the first n values, then smooths with α = 2 / (n + 1)', () => {
    expect(ema([2, 4, 6, 8, 7, 5], 3)).toEqual([u, u, 4, 6, 6.5, 5.75])
  })

  // α = 2/3: seed (2 + 4) / 2 = 3; ⅔·6 + ⅓·3 = 5; ⅔·8 + ⅓·5 = 7; ⅔·7 + ⅓·7 = 7; ⅔·5 + ⅓·7 = 17/3.
  it('weights the newest value by 2 / (n + 1)', () => {
    const e = ema([2, 4, 6, 8, 7, 5], 2)
    expect(e.slice(0, 5)).toEqual([u, 3, 5, 7, 7])
    expect(e[5]).toBeCloseTo(17 / 3, 12)
  })

  it('starts after leading undefined values (an EMA of an EMA)', () => {
    expect(ema([u, u, 2, 4, 6], 2)).toEqual([u, u, u, 3, 5])
  })

  it('is all undefined with fewer than n values', () => {
    expect(ema([1, 2], 3)).toEqual([u, u])
  })
})

describe('boll', () => {
  // Mean 3; population variance (4 + 1 + 0 + 1 + 4) / 5 = 2; bands 3 ± 2·√2.
  it('is the SMA ± k population standard deviations', () => {
    const b = boll([1, 2, 3, 4, 5], 5, 2)
    expect(b.mid).toEqual([u, u, u, u, 3])
    expect(b.upper[4]).toBeCloseTo(3 + 2 * Math.SQRT2, 12)
    expect(b.lower[4]).toBeCloseTo(3 - 2 * Math.SQRT2, 12)
    expect(b.upper.slice(0, 4)).toEqual([u, u, u, u])
  })

  it('collapses on a flat series', () => {
    const b = boll(new Array(20).fill(7))
    expect([b.lower[19], b.mid[19], b.upper[19]]).toEqual([7, 7, 7])
  })
})

describe('macd', () => {
  // MACD(2, 3, 2) of 2 4 6 8 7 5, by hand:
  //   EMA2 = ·, 3, 5, 7, 7, 17/3      EMA3 = ·, ·, 4, 6, 6.5, 5.75
  //   DIF  = ·, ·, 1, 1, 0.5, −1/12
  //   DEA  (α = ⅔, seed (1 + 1) / 2) = ·, ·, ·, 1, ⅔, ⅔·(−1/12) + ⅓·⅔ = 1/6
  //   hist = DIF − DEA = ·, ·, ·, 0, −1/6, −1/4
  it('is DIF = fast EMA − slow EMA, DEA = signal EMA of DIF, histogram = DIF − DEA', () => {
    const m = macd([2, 4, 6, 8, 7, 5], 2, 3, 2)
    expect(round(m.dif, 6)).toEqual([u, u, 1, 1, 0.5, Number((-1 / 12).toFixed(6))])
    expect(round(m.dea, 6)).toEqual([u, u, u, 1, Number((2 / 3).toFixed(6)), Number((1 / 6).toFixed(6))])
    expect(round(m.hist, 6)).toEqual([u, u, u, 0, Number((-1 / 6).toFixed(6)), -0.25])
  })

  it('starts DIF at the slow period and DEA a signal period later at 12/26/9', () => {
    const closes = Array.from({ length: 60 }, (_, i) => 100 + Math.sin(i / 3) * 5)
    const m = macd(closes)
    expect(m.dif.findIndex((v) => v !== undefined)).toBe(25)
    expect(m.dea.findIndex((v) => v !== undefined)).toBe(33)
    expect(m.hist.findIndex((v) => v !== undefined)).toBe(33)
  })
})

describe('rsi', () => {
  // Wilder's own example as StockCharts tabulates it (RSI(14) of 33 closes):
  // the first value from the plain means of 14 changes, then smoothed.
  const closes = [
    44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282,
    46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672,
    43.4205, 42.6628, 43.1314,
  ]
  const published = [
    70.53, 66.32, 66.55, 69.41, 66.36, 57.97, 62.93, 63.26, 56.06, 62.38, 54.71, 50.42, 39.99, 41.46, 41.87, 45.46, 37.3, 33.08, 37.77,
  ]

  it('matches the published RSI(14) series', () => {
    const r = rsi(closes, 14)
    expect(r.slice(0, 14)).toEqual(new Array(14).fill(u))
    expect(round(r.slice(14))).toEqual(published)
  })

  // Changes +1 +1 −1 +2. Seed: gain (1 + 1) / 2 = 1, loss 0 → 100.
  // Then gain (1 + 0) / 2 = 0.5, loss (0 + 1) / 2 = 0.5 → RS 1 → 50;
  // gain (0.5 + 2) / 2 = 1.25, loss 0.5 / 2 = 0.25 → RS 5 → 100 − 100/6.
  it("smooths with Wilder's average", () => {
    const r = rsi([1, 2, 3, 2, 4], 2)
    expect(r.slice(0, 4)).toEqual([u, u, 100, 50])
    expect(r[4]).toBeCloseTo(100 - 100 / 6, 12)
  })

  it('is 0 without gains and 50 on a flat series', () => {
    expect(rsi([5, 4, 3, 2], 2)[2]).toBe(0)
    expect(rsi([5, 5, 5], 2)[2]).toBe(50)
  })
})

describe('computeIndicators', () => {
  it('gives every indicator at the Binance defaults, one value per candle', () => {
    const bars = Array.from({ length: 120 }, (_, i) => {
      const close = 100 + i
      return { open: close - 1, high: close + 1, low: close - 2, close, vol: i + 1 }
    })
    const v = computeIndicators(bars)
    expect(INDICATOR_PARAMS.ma).toEqual([7, 25, 99])
    expect(v.ma.map((s) => s.findIndex((x) => x !== undefined))).toEqual([6, 24, 98])
    expect(v.ma[0][6]).toBe(103) // (100 + … + 106) / 7
    expect(v.ema.map((s) => s.findIndex((x) => x !== undefined))).toEqual([6, 24, 98])
    expect(v.vol[0][4]).toBe(3) // (1 + … + 5) / 5
    expect(v.vol[1][9]).toBe(5.5)
    expect(v.boll.mid[19]).toBe(109.5)
    expect(v.rsi[14]).toBe(100) // only gains
    expect(v.macd.dif.length).toBe(120)
  })
})
