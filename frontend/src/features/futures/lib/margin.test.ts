import { describe, expect, it } from 'vitest'
import { formatDec, parseDec, type Dec } from '@/lib/decimal'
import { BTC_TIERS } from '../test-fixtures'
import { baseSize, ceilTo, closableOf, feeOf, initialMargin, maxNotionalAt, maxOpen, notionalOf, orderCost, percentOfMax, text, tiersMaxLeverage, volumeForPercent } from './margin'

const d = (s: string) => parseDec(s)!
const at8 = (x: Dec) => formatDec(x, 8)
const btc = { contractValue: '0.001', takerFee: '0.0005' }

describe('margin arithmetic', () => {
  it('values contracts at contracts × contract value × price', () => {
    expect(text(notionalOf(10, '50000', '0.001')!)).toBe('500.000')
    expect(notionalOf(10, '', '0.001')).toBeUndefined()
    expect(notionalOf(10, 'x', '0.001')).toBeUndefined()
  })

  it('rounds the initial margin and the fee up to the 8 money places, as the engine holds them', () => {
    expect(at8(initialMargin(d('500'), 20))).toBe('25.00000000')
    // 100 ÷ 3 = 33.333… is held as 33.33333334, never a unit less.
    expect(at8(initialMargin(d('100'), 3))).toBe('33.33333334')
    expect(at8(feeOf(d('500'), '0.0005'))).toBe('0.25000000')
    expect(at8(feeOf(d('0.00000001'), '0.0005'))).toBe('0.00000001')
    expect(at8(feeOf(d('500'), '0'))).toBe('0.00000000')
    expect(at8(ceilTo(d('1.000000001'), 8))).toBe('1.00000001')
    expect(at8(ceilTo(d('-1.000000001'), 8))).toBe('-1.00000000')
  })

  it('costs the initial margin of what opens plus the taker fee of the whole order', () => {
    expect(orderCost({ side: 'BUY', volume: 10, price: '50000', leverage: 20, ...btc })).toEqual({
      notional: '500.00000000',
      margin: '25.00000000',
      fee: '0.25000000',
      cost: '25.25000000',
    })
    // Against a short of 4: those 4 only close (no margin), 6 open; all 10 pay the fee.
    expect(orderCost({ side: 'BUY', volume: 10, price: '50000', leverage: 20, ...btc, exposure: { position: -4, openSameSide: 0 } })?.cost).toBe('15.25000000')
    // A closing order the user's other closing orders already cover opens instead.
    expect(orderCost({ side: 'BUY', volume: 10, price: '50000', leverage: 20, ...btc, exposure: { position: -4, openSameSide: 4 } })?.cost).toBe('25.25000000')
    expect(orderCost({ side: 'BUY', volume: 10, price: '', leverage: 20, ...btc })).toBeUndefined()
  })

  it('knows what an order can only close', () => {
    expect(closableOf('SELL', { position: 10, openSameSide: 3 })).toBe(7)
    expect(closableOf('SELL', { position: 10, openSameSide: 12 })).toBe(0)
    expect(closableOf('BUY', { position: 10, openSameSide: 0 })).toBe(0)
    expect(closableOf('BUY', { position: -5, openSameSide: 2 })).toBe(3)
    expect(closableOf('SELL', { position: 0, openSameSide: 0 })).toBe(0)
  })

  it('reads the largest position of a leverage from the tiers', () => {
    expect(maxNotionalAt(BTC_TIERS, 20)).toBe('20000000')
    expect(maxNotionalAt(BTC_TIERS, 21)).toBe('3000000')
    expect(maxNotionalAt(BTC_TIERS, 50)).toBe('3000000')
    expect(maxNotionalAt(BTC_TIERS, 125)).toBe('50000')
    expect(maxNotionalAt(BTC_TIERS, 126)).toBe('')
    expect(maxNotionalAt(undefined, 10)).toBe('')
    expect(tiersMaxLeverage(BTC_TIERS)).toBe(125)
    expect(tiersMaxLeverage([])).toBeUndefined()
  })
})

describe('maxOpen', () => {
  const base = { side: 'BUY' as const, price: '50000', leverage: 20, ...btc, maxOrderQty: 1_000_000 }

  it('opens what the available balance pays for, margin and fee rounded as the engine does', () => {
    // One contract costs 2.5 margin + 0.025 fee: 100 pays for 39 (98.475), not 40 (101).
    expect(maxOpen({ ...base, available: '100' })).toBe(39)
    expect(maxOpen({ ...base, available: '0' })).toBe(0)
    expect(maxOpen({ ...base, available: undefined })).toBe(0)
    expect(maxOpen({ ...base, available: '100', price: undefined })).toBe(0)
  })

  it('lets the closing part cost only its fee', () => {
    const long = { position: 10, openSameSide: 0 }
    // 1 USDT closes all 10 (0.25 of fees) but cannot open an 11th (2.775 more).
    expect(maxOpen({ ...base, side: 'SELL', available: '1', exposure: long })).toBe(10)
    // 0.1 USDT pays the fees of 4 only.
    expect(maxOpen({ ...base, side: 'SELL', available: '0.1', exposure: long })).toBe(4)
  })

  it('stays within the order size limit and the position limit of the leverage', () => {
    expect(maxOpen({ ...base, available: '1000000000', maxOrderQty: 500 })).toBe(500)
    // At 125× a position may reach 50,000 USDT: 1,000 contracts at 50,000.
    const at125 = { ...base, leverage: 125, available: '1000000000', maxNotional: maxNotionalAt(BTC_TIERS, 125) }
    expect(maxOpen(at125)).toBe(1000)
    // A long of 200 with 100 more on order leaves 700 to buy, and 1,200 to sell (200 close, 1,000 open short).
    const exposure = { position: 200, openSameSide: 100 }
    expect(maxOpen({ ...at125, exposure })).toBe(700)
    expect(maxOpen({ ...at125, side: 'SELL', exposure: { position: 200, openSameSide: 0 } })).toBe(1200)
  })

  it('gives a reduce-only order what it can close', () => {
    expect(maxOpen({ ...base, side: 'SELL', available: '0', reduceOnly: true, exposure: { position: 10, openSameSide: 3 } })).toBe(7)
    expect(maxOpen({ ...base, side: 'BUY', available: '100', reduceOnly: true, exposure: { position: 10, openSameSide: 0 } })).toBe(0)
  })
})

describe('the share slider', () => {
  it('turns a share of the maximum into whole contracts, rounded down', () => {
    expect(volumeForPercent(25, 39)).toBe(9)
    expect(volumeForPercent(100, 39)).toBe(39)
    expect(volumeForPercent(0, 39)).toBe(0)
    expect(volumeForPercent(50, 0)).toBe(0)
  })

  it('shows a typed size as its share of the maximum', () => {
    expect(percentOfMax(9, 39)).toBe(23)
    expect(percentOfMax(39, 39)).toBe(100)
    expect(percentOfMax(50, 39)).toBe(100)
    expect(percentOfMax(0, 39)).toBe(0)
    expect(percentOfMax(5, 0)).toBe(0)
  })

  it('says a size in the base coin', () => {
    expect(baseSize(12, '0.001', 3)).toBe('0.012')
    expect(baseSize(1234, '0.01', 2)).toBe('12.34')
    expect(baseSize(0, '0.001', 3)).toBe('')
  })
})
