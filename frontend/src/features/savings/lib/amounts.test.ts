import { describe, expect, it } from 'vitest'
import type { Project } from '../api/savings-api'
import { addedDailyInterest, canSend, capLeft, dailyInterest, interestCoins, interestSeries, nextUtcDate, redeemError, subscribeError } from './amounts'

/** The development USDT product: 6.5% a year up to 10,000, 3% above; minimum 1, cap 1,000,000. */
const USDT: Project = {
  id: 'usdt',
  showName: 'USDT Flexible',
  coinSymbol: 'USDT',
  logo: '',
  period: 'yearly',
  rate: '6.5',
  yearRate: '6.50',
  tiers: [
    { upTo: '10000.000000', rate: '6.5', yearRate: '6.50' },
    { upTo: '', rate: '3', yearRate: '3.00' },
  ],
  minAmount: '1.000000',
  maxPerUser: '1000000.000000',
  precision: 6,
  open: true,
}

const limits = { precision: 6, minAmount: '1', available: '1500', capLeft: '1200' }

describe('subscribeError: the subscribe dialog as it is typed', () => {
  it('says nothing about an empty field, which just cannot be sent', () => {
    expect(subscribeError('', limits)).toBeUndefined()
    expect(canSend('', undefined)).toBe(false)
  })

  it.each([
    ['0', 'positive'],
    ['0.000000', 'positive'],
    ['.', 'positive'],
    ['1.1234567', 'precision'],
    ['0.5', 'min'],
    ['1600', 'available'],
    ['1300', 'cap'],
  ])('%s: %s', (typed, error) => {
    expect(subscribeError(typed, limits)).toBe(error)
    expect(canSend(typed, subscribeError(typed, limits))).toBe(false)
  })

  it.each(['1', '1.', '1000', '1200', '1.123456', '12.5'])('%s can be sent', (typed) => {
    expect(subscribeError(typed, limits)).toBeUndefined()
    expect(canSend(typed, undefined)).toBe(true)
  })

  it('checks the minimum before the balance, and the balance before the cap', () => {
    expect(subscribeError('0.5', { ...limits, available: '0.1' })).toBe('min')
    expect(subscribeError('1300', { ...limits, available: '1250' })).toBe('available')
    expect(subscribeError('1300', { ...limits, capLeft: undefined })).toBeUndefined()
  })

  it('at most the coin decimals: trailing zeros that were typed count', () => {
    expect(subscribeError('1.10', { ...limits, precision: 1 })).toBe('precision')
    expect(subscribeError('1.1', { ...limits, precision: 1 })).toBeUndefined()
    expect(subscribeError('2.5', { ...limits, precision: 0 })).toBe('precision')
  })
})

describe('redeemError', () => {
  it('above 0, at most the decimals, at most what can be redeemed', () => {
    expect(redeemError('', 6, '100')).toBeUndefined()
    expect(redeemError('0', 6, '100')).toBe('positive')
    expect(redeemError('1.0000001', 6, '100')).toBe('precision')
    expect(redeemError('100.000001', 6, '100')).toBe('redeemable')
    expect(redeemError('100', 6, '100')).toBeUndefined()
  })
})

describe('capLeft', () => {
  it('is the cap less what is held; none without a cap', () => {
    expect(capLeft(USDT, { amount: '1000.178082' })).toBe('998999.821918')
    expect(capLeft(USDT)).toBe('1000000.000000')
    expect(capLeft({ maxPerUser: '' }, { amount: '5' })).toBeUndefined()
    expect(capLeft({ maxPerUser: '10' }, { amount: '12' })).toBe('0')
  })
})

describe('dailyInterest: the server rule (each tier slice × its yearly rate ÷ 365, cut to the coin)', () => {
  it('1,000 USDT at 6.5% a year earns 0.178082 a day', () => {
    expect(dailyInterest('1000', USDT)).toBe('0.178082')
  })

  it('tiers: 20,000 USDT earns 10,000 at 6.5% and 10,000 at 3%', () => {
    // (10,000 × 6.5 + 10,000 × 3) ÷ 100 ÷ 365 = 2.602739…
    expect(dailyInterest('20000', USDT)).toBe('2.602739')
  })

  it('periods: a daily rate is the day\'s, weekly ÷ 7, monthly × 12 ÷ 365', () => {
    const base = { tiers: [], precision: 8 }
    expect(dailyInterest('100', { ...base, rate: '0.01', period: 'daily' })).toBe('0.01000000')
    expect(dailyInterest('700', { ...base, rate: '0.1', period: 'weekly' })).toBe('0.10000000')
    // 365 × 1% ÷ 12 a month is 1% × 12 = 12% a year: 365 × 0.12 ÷ 365 = 0.12.
    expect(dailyInterest('365', { ...base, rate: '1', period: 'monthly' })).toBe('0.12000000')
    expect(dailyInterest('0', { ...base, rate: '5', period: 'yearly' })).toBe('0.00000000')
  })

  it('what a subscription adds: the new amount at the tier it falls in', () => {
    expect(addedDailyInterest(USDT, '0', '1000')).toBe('0.178082')
    // 9,000 held: 1,000 more earns 6.5%, the next 1,000 3%.
    expect(addedDailyInterest(USDT, '9000', '2000')).toBe(
      // (10,000 × 6.5 + 1,000 × 3) ÷ 36,500 − 9,000 × 6.5 ÷ 36,500
      '0.260274',
    )
  })
})

describe('interestSeries: the chart of interest per day', () => {
  const records = [
    { coinSymbol: 'USDT', amount: '0.178082', date: '2026-03-02', ctime: 3 },
    { coinSymbol: 'USDT', amount: '0.1', date: '2026-02-28', ctime: 2 },
    { coinSymbol: 'BTC', amount: '0.00000010', date: '2026-03-01', ctime: 1 },
  ]

  it('gives every day up to the coin\'s latest, with 0 for days without interest, and the exact total', () => {
    const s = interestSeries(records, 'USDT', 4)
    expect(s.days).toEqual([
      { date: '2026-02-27', amount: '0' },
      { date: '2026-02-28', amount: '0.1' },
      { date: '2026-03-01', amount: '0' },
      { date: '2026-03-02', amount: '0.178082' },
    ])
    expect(s.total).toBe('0.278082')
    expect(interestSeries(records, 'ETH').days).toEqual([])
  })

  it('lists the coins with interest, the latest paid first', () => {
    expect(interestCoins(records)).toEqual(['USDT', 'BTC'])
  })
})

describe('nextUtcDate', () => {
  it('is the UTC day after now, across a month and a year', () => {
    expect(nextUtcDate(new Date('2026-01-31T23:59:00Z'))).toBe('2026-02-01')
    expect(nextUtcDate(new Date('2026-12-31T00:00:00Z'))).toBe('2027-01-01')
  })
})
