import { describe, expect, it } from 'vitest'
import { clockText, countdownTarget, maskNickname, phaseAt, rankRange, roiText, signColor, signedAmount, timeLeft } from './format'

describe('maskNickname', () => {
  it('keeps the first and last characters around ***, as the server masks the ranking', () => {
    expect(maskNickname('alice')).toBe('a***e')
    expect(maskNickname('  bob  ')).toBe('b***b')
    expect(maskNickname('Болд')).toBe('Б***д')
    expect(maskNickname('ab')).toBe('a***')
    expect(maskNickname('x')).toBe('x***')
    expect(maskNickname('')).toBe('***')
    expect(maskNickname(undefined)).toBe('***')
    // A character outside the basic plane is one character, not two halves.
    expect(maskNickname('😀trader😎')).toBe('😀***😎')
  })
})

describe('ROI and profit', () => {
  it('signs an ROI already in percent, at 2 places', () => {
    expect(roiText('12.5')).toBe('+12.50%')
    expect(roiText('-3.456')).toBe('-3.46%')
    expect(roiText('1234.5')).toBe('+1,234.50%')
    expect(roiText('0.00')).toBe('0.00%')
    expect(roiText('-0.001')).toBe('0.00%')
  })
  it('shows no ROI as a dash (not ranked yet, or nothing at stake)', () => {
    expect(roiText('')).toBe('—')
    expect(roiText(undefined)).toBe('—')
  })
  it('signs and colours a profit by what shows', () => {
    expect(signedAmount('125.5')).toBe('+125.50')
    expect(signedAmount('-0.004')).toBe('0.00')
    expect(signedAmount('-7')).toBe('-7.00')
    expect(signColor('1.2')).toBe('up')
    expect(signColor('-0.01')).toBe('down')
    expect(signColor('-0.001')).toBe('fg')
    expect(signColor('')).toBe('fg')
  })
  it('names a rank range of the prize table', () => {
    expect(rankRange(1, 1)).toBe('1')
    expect(rankRange(4, 10)).toBe('4–10')
  })
})

describe('the clock', () => {
  const c = { state: 'upcoming' as const, startTime: 1_000_000, endTime: 2_000_000 }
  it("moves the server's phase on when a moment it named has passed", () => {
    expect(phaseAt(c, 999_999)).toBe('upcoming')
    expect(phaseAt(c, 1_000_000)).toBe('running')
    expect(phaseAt({ ...c, state: 'running' }, 2_000_000)).toBe('ended')
    // The server's ended and settled stand (the final ranking, the prizes).
    expect(phaseAt({ ...c, state: 'ended' }, 1_500_000)).toBe('ended')
    expect(phaseAt({ ...c, state: 'settled' }, 0)).toBe('settled')
  })
  it('counts down to the start, then the end, then nothing', () => {
    expect(countdownTarget(c, 'upcoming')).toBe(1_000_000)
    expect(countdownTarget(c, 'running')).toBe(2_000_000)
    expect(countdownTarget(c, 'ended')).toBeUndefined()
    expect(countdownTarget(c, 'settled')).toBeUndefined()
  })
  it('splits the time left into days and HH:MM:SS', () => {
    const now = 1_700_000_000_000
    const left = timeLeft(now + 2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_999, now)
    expect(left).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 })
    expect(clockText(left)).toBe('03:04:05')
    expect(timeLeft(now - 1000, now)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 })
  })
})
