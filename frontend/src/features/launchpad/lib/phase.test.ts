import { describe, expect, it } from 'vitest'
import type { LaunchReport } from '../api/launchpad-api'
import { clock, committedPercent, nextChange, oversubscribed, phaseIndex, splitDuration, tokensFor, workAllocation } from './phase'

const SALE = { price: '2.2', tokenPrecision: 6, commitPrecision: 6 }
const TIMES = { subscribeStart: 1000, subscribeEnd: 2000, distributeAt: 3000 }

function report(over: Partial<LaunchReport> = {}): LaunchReport {
  return { committed: '220.000000', proRataShare: '10000.00000000000000', limit: '100.000000', allocated: '', cost: '', returned: '', formula: '', ...over }
}

describe('the phases', () => {
  it('counts down to the end of the current phase, none once allocated', () => {
    expect(nextChange({ ...TIMES, phase: 'upcoming' })).toBe(1000)
    expect(nextChange({ ...TIMES, phase: 'subscription' })).toBe(2000)
    expect(nextChange({ ...TIMES, phase: 'calculation' })).toBe(3000)
    expect(nextChange({ ...TIMES, phase: 'distribution' })).toBeUndefined()
    expect(nextChange({ ...TIMES, phase: 'ended' })).toBeUndefined()
    expect(phaseIndex('calculation')).toBe(2)
    expect(phaseIndex('nonsense')).toBe(-1)
  })

  it('a duration in days and hh:mm:ss', () => {
    const ms = ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000
    expect(splitDuration(ms)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 })
    expect(clock(ms)).toBe('03:04:05')
    expect(clock(-5)).toBe('00:00:00')
  })
})

describe('subscription figures', () => {
  it('oversubscription: only above 100%', () => {
    expect(oversubscribed('1.00')).toBe('')
    expect(oversubscribed('100.00')).toBe('')
    expect(oversubscribed('450.00')).toBe('4.50')
    expect(oversubscribed('1234.56')).toBe('12.34')
  })

  it('what is committed as a share of the offer (10,000 TON × 2.2 = 22,000 USDT)', () => {
    expect(committedPercent({ totalCommitted: '220.000000', tokensOffered: '10000.000000', price: '2.2', commitPrecision: 6 })).toBe('1.00')
    expect(committedPercent({ totalCommitted: '99000', tokensOffered: '10000', price: '2.2', commitPrecision: 6 })).toBe('450.00')
  })

  it('tokensFor: amount ÷ price, cut to the token unit', () => {
    expect(tokensFor('220', '2.2', 6)).toBe('100.000000')
    expect(tokensFor('10', '3', 6)).toBe('3.333333')
    expect(tokensFor('10', '0', 6)).toBe('')
  })
})

describe('workAllocation: the report worked out by the formula', () => {
  it('uncontested: the share is capped by what 220 USDT buys, 100 TON; cost 220, nothing back', () => {
    const before = workAllocation(report(), SALE)
    expect(before).toMatchObject({ share: '10000.000000', firstRound: '100.000000', capped: true, consistent: undefined })
    const after = workAllocation(report({ allocated: '100.000000', cost: '220.000000', returned: '0.000000' }), SALE)
    expect(after).toMatchObject({ cost: '220.000000', returned: '0.000000', consistent: true })
  })

  it('oversubscribed 4.5×: a share below the limit; the cost is rounded up to the unit', () => {
    // 300 of 99,000 committed: 300 ÷ 99,000 × 10,000 = 30.3030303… TON, limit 136.363636 (300 ÷ 2.2).
    const r = report({ committed: '300.000000', proRataShare: '30.30303030303030', limit: '136.363636' })
    expect(workAllocation(r, SALE)).toMatchObject({ share: '30.303030', firstRound: '30.303030', capped: false })
    // 30.303031 × 2.2 = 66.6666682 → 66.666669 rounded up; 300 − 66.666669 = 233.333331.
    const done = workAllocation({ ...r, allocated: '30.303031', cost: '66.666669', returned: '233.333331' }, SALE)
    expect(done).toMatchObject({ cost: '66.666669', returned: '233.333331', consistent: true })
  })

  it('says so when the exchange’s figures do not follow the formula', () => {
    expect(workAllocation(report({ allocated: '120.000000', cost: '264.000000', returned: '0.000000' }), SALE).consistent).toBe(false)
    expect(workAllocation(report({ allocated: '100.000000', cost: '219.000000', returned: '1.000000' }), SALE).consistent).toBe(false)
  })
})
