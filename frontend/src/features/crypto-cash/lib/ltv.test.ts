import { describe, expect, it } from 'vitest'
import {
  collateralFor,
  fractionPercent,
  hourInterest,
  liquidationPrice,
  ltvPercent,
  ltvZone,
  removableCollateral,
  repayAllAmount,
  repaySplit,
  thresholdsOf,
} from './ltv'

const T = thresholdsOf({ initialLTV: '0.65', marginCallLTV: '0.75', liquidationLTV: '0.83' })

describe('the LTV', () => {
  it('the thresholds in percent', () => {
    expect(T).toEqual({ initial: '65', marginCall: '75', liquidation: '83' })
    expect(fractionPercent('0.02')).toBe('2')
    expect(fractionPercent('0.025')).toBe('2.5')
    expect(fractionPercent('1')).toBe('100')
  })

  it('debt ÷ (collateral × price) × 100, rounded half up to 2 decimals', () => {
    // The quote's figures: 1,000 USDT against 0.01581958 BTC at 97,250.5.
    expect(ltvPercent('1000', '0.01581958', '97250.5')).toBe('65.00')
    // Four days' interest later: 1,001.152 owed.
    expect(ltvPercent('1001.152', '0.01581958', '97250.5')).toBe('65.07')
    expect(ltvPercent('1000', '0', '97250.5')).toBe('')
  })

  it('its zone: within the initial LTV, above it, margin call, liquidation', () => {
    expect(ltvZone('65.00', T)).toBe('safe')
    expect(ltvZone('65.01', T)).toBe('warning')
    expect(ltvZone('75', T)).toBe('marginCall')
    expect(ltvZone('82.99', T)).toBe('marginCall')
    expect(ltvZone('83.00', T)).toBe('liquidation')
  })
})

describe('the collateral', () => {
  it('needed at the initial LTV: amount ÷ (price × 0.65), rounded up to the unit (as calculate_inerest_mortgage)', () => {
    expect(collateralFor('1000', '97250.5', '0.65', 8)).toBe('0.01581958')
    expect(collateralFor('1000', '0', '0.65', 8)).toBe('')
  })

  it('the liquidation price: debt ÷ (collateral × 0.83)', () => {
    expect(liquidationPrice('1000', '0.01581958', '0.83')).toBe('76160.00406512')
    expect(liquidationPrice('1000', '0', '0.83')).toBe('')
  })

  it('what can be taken back: the collateral above what the debt needs at 65%, never below 0', () => {
    expect(removableCollateral('1000', '0.02000000', '97250.5', '0.65', 8)).toBe('0.00418042')
    expect(removableCollateral('1000', '0.01500000', '97250.5', '0.65', 8)).toBe('0.00000000')
  })
})

describe('repaying', () => {
  const loan = { debt: '1001.152000', principal: '1000.000000', interest: '1.152000', hourlyRate: '0.0012', overdue: false }

  it("an hour's interest, rounded up: 1,000 × 0.0012% = 0.012", () => {
    expect(hourInterest('1000', '0.0012', 6)).toBe('0.012000')
    expect(hourInterest('0.1', '0.0006', 8)).toBe('0.00000060')
  })

  it("Repay all: the debt and one more hour's interest (3× when overdue)", () => {
    expect(repayAllAmount(loan, 6)).toBe('1001.164000')
    expect(repayAllAmount({ ...loan, overdue: true }, 6, '3')).toBe('1001.188000')
  })

  it('interest first, then principal; above the debt pays the debt', () => {
    expect(repaySplit(loan, '1', 6)).toEqual({ interest: '1.000000', principal: '0.000000', left: '1000.152000', full: false })
    expect(repaySplit(loan, '500', 6)).toEqual({ interest: '1.152000', principal: '498.848000', left: '501.152000', full: false })
    expect(repaySplit(loan, '1001.164', 6)).toEqual({ interest: '1.152000', principal: '1000.000000', left: '0.000000', full: true })
  })
})
