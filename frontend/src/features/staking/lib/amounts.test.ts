import { describe, expect, it } from 'vitest'
import { canSend, checkAmount, decimalsOf, expectedRewards, minOfLimits, minus0, percentOf, quotedAmount, stakeDays, typedAmount } from './amounts'

describe('checkAmount: a typed amount, as it is typed', () => {
  const rules = {
    precision: 6,
    min: '10.000000',
    limits: [
      { kind: 'available', max: '1500.000000' },
      { kind: 'userCap', max: '1000' },
      { kind: 'remaining', max: '' },
    ],
  }

  it.each([
    ['', undefined],
    ['0', 'positive'],
    ['0.000', 'positive'],
    ['.', 'positive'],
    ['1.1234567', 'precision'],
    ['9.999999', 'min'],
    ['10', undefined],
    ['10.', undefined],
    ['1000.000000', undefined],
    ['1000.000001', 'userCap'],
    ['1500.5', 'available'],
  ])('%j → %s', (typed, kind) => {
    expect(checkAmount(typed, rules)?.kind).toBe(kind)
  })

  it('names the limit it exceeds, the first one in order', () => {
    expect(checkAmount('2000', rules)).toEqual({ kind: 'available', value: '1500.000000' })
    expect(checkAmount('5', rules)).toEqual({ kind: 'min', value: '10.000000' })
  })

  it('a limit of "" or undefined is none', () => {
    expect(checkAmount('99999999', { precision: 2, limits: [{ kind: 'cap', max: undefined }, { kind: 'x', max: '' }] })).toBeUndefined()
  })

  it('only a plain number can be sent', () => {
    expect(canSend('12.5', undefined)).toBe(true)
    expect(canSend('', undefined)).toBe(false)
    expect(canSend('1', { kind: 'min', value: '10' })).toBe(false)
    expect(typedAmount('1e3')).toBeUndefined()
  })
})

describe('expectedRewards: amount × APR ÷ 365 a day, cut to the unit, × the term', () => {
  it('100 USDT at 10% for 90 days: 0.027397 a day, 2.465730 in all (my_pos rewardsExpected)', () => {
    expect(expectedRewards('100', '10.00', 90, 6)).toEqual({ daily: '0.027397', total: '2.465730' })
  })

  it('1,000 USDT at 8% for 30 days: 0.219178 a day', () => {
    expect(expectedRewards('1000', '8', 30, 6)).toEqual({ daily: '0.219178', total: '6.575340' })
  })

  it('0.5 ETH at 4.5% for 60 days, 8 decimals', () => {
    // 0.5 × 0.045 ÷ 365 = 0.0000616438…
    expect(expectedRewards('0.5', '4.50', 60, 8)).toEqual({ daily: '0.00006164', total: '0.00369840' })
  })

  it('nothing typed earns nothing', () => {
    expect(expectedRewards('0', '10', 90, 6)).toEqual({ daily: '0.000000', total: '0.000000' })
  })
})

describe('the other figures', () => {
  it('stakeDays: from the next UTC day, for the term', () => {
    expect(stakeDays(90, new Date('2026-12-07T23:30:00Z'))).toEqual({ start: '2026-12-08', end: '2027-03-07' })
    expect(stakeDays(14, new Date('2026-02-20T01:00:00Z'))).toEqual({ start: '2026-02-21', end: '2026-03-06' })
  })

  it('percentOf: cut to 2 decimals; none without a whole', () => {
    expect(percentOf('100', '10000000')).toBe('0.00')
    expect(percentOf('2500000', '5000000')).toBe('50.00')
    expect(percentOf('1', '3')).toBe('33.33')
    expect(percentOf('1', '0')).toBe('')
  })

  it('minOfLimits skips the empty limits; minus0 never goes below 0', () => {
    expect(minOfLimits('1500', '', '1000.5', undefined)).toBe('1000.5')
    expect(minOfLimits('', undefined)).toBeUndefined()
    expect(minus0('100000', '100.000000')).toBe('99900.000000')
    expect(minus0('1', '2')).toBe('0')
  })

  it('quotedAmount and decimalsOf', () => {
    expect(quotedAmount('5000000.000000', 6)).toBe('5,000,000')
    expect(quotedAmount('0.01000000', 8)).toBe('0.01')
    expect(quotedAmount('2.2', 18)).toBe('2.2')
    expect(decimalsOf('0.01581958')).toBe(8)
    expect(decimalsOf('100')).toBe(0)
    expect(decimalsOf('')).toBeUndefined()
  })
})
