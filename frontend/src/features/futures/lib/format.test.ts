import { describe, expect, it } from 'vitest'
import {
  adlLights,
  contracts,
  countdown,
  fundingRateText,
  liquidationDistance,
  liquidationNear,
  liquidationText,
  marginRatioLevel,
  money,
  pnlColor,
  ratioText,
  signedMoney,
  signedPercent,
  spendable,
} from './format'

describe('money and PnL', () => {
  it('shows money at 4 places, what may be spent cut, never rounded up', () => {
    expect(money('25.123456')).toBe('25.1235')
    expect(money('1234567.5')).toBe('1,234,567.5000')
    expect(spendable('99.99999')).toBe('99.9999')
    expect(money(undefined)).toBe('—')
  })

  it('signs a PnL, and a PnL that shows as zero has no sign', () => {
    expect(signedMoney('12.34')).toBe('+12.3400')
    expect(signedMoney('-0.5')).toBe('-0.5000')
    expect(signedMoney('1234.5')).toBe('+1,234.5000')
    expect(signedMoney('0.00001')).toBe('0.0000')
    expect(signedMoney('-0.00001')).toBe('0.0000')
    expect(signedMoney('x')).toBe('—')
  })

  it('colours a PnL by its sign at the shown places', () => {
    expect(pnlColor('1')).toBe('up')
    expect(pnlColor('-1')).toBe('down')
    expect(pnlColor('0.00001')).toBe('fg')
    expect(pnlColor(undefined)).toBe('fg')
  })

  it('signs a percentage already in percent (the ROE)', () => {
    expect(signedPercent('12.345')).toBe('+12.35%')
    expect(signedPercent('-3.1')).toBe('-3.10%')
    expect(signedPercent('0')).toBe('0.00%')
    expect(signedPercent('')).toBe('—')
  })
})

describe('funding', () => {
  it('shows a rate as a percentage at 4 places', () => {
    expect(fundingRateText('0.0001')).toBe('0.0100%')
    expect(fundingRateText('-0.000075')).toBe('-0.0075%')
    expect(fundingRateText('0.003')).toBe('0.3000%')
    expect(fundingRateText('-0.0000000001')).toBe('0.0000%')
    expect(fundingRateText(undefined)).toBe('—')
  })

  it('counts down to the next funding as HH:MM:SS', () => {
    const now = 1_700_000_000_000
    expect(countdown(now + 3_725_000, now)).toBe('01:02:05')
    expect(countdown(now + 3_725_999, now)).toBe('01:02:05')
    expect(countdown(now + 30 * 3_600_000, now)).toBe('30:00:00')
    expect(countdown(now - 5000, now)).toBe('00:00:00')
    expect(countdown(undefined, now)).toBe('—')
    expect(countdown(0, now)).toBe('—')
  })
})

describe('liquidation', () => {
  it('shows the liquidation price at the contract places, a dash when there is none', () => {
    expect(liquidationText('45180.72', 1)).toBe('45,180.7')
    expect(liquidationText('', 1)).toBe('—')
    expect(liquidationText('0', 1)).toBe('—')
    expect(liquidationText('-3', 1)).toBe('—')
    expect(liquidationText(undefined, 2)).toBe('—')
  })

  it('measures how far the mark is from it, and warns within 5 %', () => {
    expect(liquidationDistance('50000', '45000')).toBe('10.00')
    expect(liquidationDistance('3000', '3090')).toBe('3.00')
    expect(liquidationDistance('50000', '')).toBeUndefined()
    expect(liquidationNear('50000', '48000')).toBe(true)
    expect(liquidationNear('50000', '47500')).toBe(true)
    expect(liquidationNear('50000', '47000')).toBe(false)
    expect(liquidationNear('50000', '')).toBe(false)
  })
})

describe('margin ratio and ADL', () => {
  it('grades the margin ratio: safe below 50 %, a warning below 80 %, danger from 80 %', () => {
    expect(marginRatioLevel('0.2')).toBe('safe')
    expect(marginRatioLevel('49.99')).toBe('safe')
    expect(marginRatioLevel('50')).toBe('warning')
    expect(marginRatioLevel('79.99')).toBe('warning')
    expect(marginRatioLevel('80')).toBe('danger')
    expect(marginRatioLevel('140')).toBe('danger')
    expect(marginRatioLevel(undefined)).toBe('safe')
    expect(ratioText('12.345')).toBe('12.35%')
    expect(ratioText('')).toBe('—')
  })

  it('lights the first ADL level lights of five', () => {
    expect(adlLights(3)).toEqual([true, true, true, false, false])
    expect(adlLights(0)).toEqual([false, false, false, false, false])
    expect(adlLights(5)).toEqual([true, true, true, true, true])
    expect(adlLights(9)).toEqual([true, true, true, true, true])
    expect(adlLights(undefined)).toEqual([false, false, false, false, false])
    expect(adlLights(2.5)).toEqual([false, false, false, false, false])
  })

  it('groups contract counts', () => {
    expect(contracts(1234)).toBe('1,234')
    expect(contracts(undefined)).toBe('—')
  })
})
