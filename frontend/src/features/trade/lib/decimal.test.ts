import { describe, expect, it } from 'vitest'
import {
  cmpDec,
  divDec,
  fixed,
  floorString,
  floorToStep,
  formatDec,
  formatDisplay,
  formatFee,
  groupThousands,
  onStep,
  parseDec,
  placesOf,
  ratePercent,
  roundToStep,
  sanitizeInput,
  truncated,
} from './decimal'

const d = (s: string) => parseDec(s)!

describe('decimal helpers', () => {
  it('parses plain decimals and rejects the rest', () => {
    expect(parseDec('12.34')).toEqual({ units: 1234n, scale: 2 })
    expect(parseDec('.5')).toEqual({ units: 5n, scale: 1 })
    expect(parseDec('-3')).toEqual({ units: -3n, scale: 0 })
    expect(parseDec('')).toBeUndefined()
    expect(parseDec('.')).toBeUndefined()
    expect(parseDec('1e5')).toBeUndefined()
    expect(parseDec('abc')).toBeUndefined()
  })

  it('counts the places of a step', () => {
    expect(placesOf('0.01')).toBe(2)
    expect(placesOf('0.00010')).toBe(4)
    expect(placesOf('1')).toBe(0)
    expect(placesOf('5.0')).toBe(0)
  })

  it('floors to the tick and lot grids exactly', () => {
    expect(formatDec(floorToStep(d('123.456'), d('0.01')), 2)).toBe('123.45')
    expect(formatDec(floorToStep(d('0.123456'), d('0.0001')), 4)).toBe('0.1234')
    expect(formatDec(floorToStep(d('17'), d('5')), 0)).toBe('15')
    expect(formatDec(floorToStep(d('0.3'), d('0.1')), 1)).toBe('0.3')
    expect(floorString('100.129', '0.01')).toBe('100.12')
    expect(floorString('x', '0.01')).toBe('')
  })

  it('rounds to the nearest step, halves up', () => {
    expect(formatDec(roundToStep(d('1.005'), d('0.01')), 2)).toBe('1.01')
    expect(formatDec(roundToStep(d('1.004'), d('0.01')), 2)).toBe('1.00')
    expect(fixed('65000.5', 2)).toBe('65,000.50')
    expect(fixed('0.123456', 4)).toBe('0.1235')
    expect(fixed(undefined, 2)).toBe('—')
  })

  it('cuts what may be spent towards zero instead of rounding it up', () => {
    expect(truncated('0.05374069', 6)).toBe('0.053740')
    expect(truncated('586.048883', 2)).toBe('586.04')
    expect(fixed('586.048883', 2)).toBe('586.05')
    expect(truncated('12', 2)).toBe('12.00')
    expect(truncated(undefined, 2)).toBe('—')
  })

  it('shows money by one rule: what was spent or received rounds half up, what may be spent is cut', () => {
    // The fills of the QA report: the same figures on every screen.
    expect(fixed('6.335', 2)).toBe('6.34')
    expect(fixed('145.7051', 2)).toBe('145.71')
    expect(fixed('76.2087', 2)).toBe('76.21')
    expect(formatDisplay('76.2087', 2)).toBe('76.21')
    expect(formatDisplay('76.2087', 2, 'truncate')).toBe('76.20')
    expect(truncated('9606546.529', 2)).toBe('9,606,546.52')
    // Halves go away from zero on the magnitude, and nothing shows as -0.
    expect(fixed('-1.005', 2)).toBe('-1.01')
    expect(fixed('-0.004', 2)).toBe('0.00')
    expect(fixed('0.5', 0)).toBe('1')
    expect(fixed(12, 1)).toBe('12.0')
    expect(formatDisplay('abc', 2)).toBe('—')
    expect(formatFee('0.000000005', 'BTC')).toBe('0.00000001 BTC')
  })

  it('groups thousands with commas in every language, never inside the decimals', () => {
    expect(fixed('337771903', 0)).toBe('337,771,903')
    expect(fixed('1616558.22', 2)).toBe('1,616,558.22')
    expect(fixed('10000000', 2)).toBe('10,000,000.00')
    expect(fixed('999.999', 2)).toBe('1,000.00')
    expect(fixed('0.12345678', 8)).toBe('0.12345678')
    expect(groupThousands('-1234567.8912')).toBe('-1,234,567.8912')
    expect(groupThousands('123')).toBe('123')
    expect(groupThousands('—')).toBe('—')
  })

  it('checks grid membership, compares and divides', () => {
    expect(onStep(d('100.10'), d('0.01'))).toBe(true)
    expect(onStep(d('100.105'), d('0.01'))).toBe(false)
    expect(cmpDec(d('0.30'), d('0.3'))).toBe(0)
    expect(cmpDec(d('2'), d('10'))).toBe(-1)
    expect(formatDec(divDec(d('100'), d('3'), 4)!, 4)).toBe('33.3333')
    expect(divDec(d('1'), d('0'), 2)).toBeUndefined()
  })

  it('sanitizes typed input to digits, one dot and the allowed places', () => {
    expect(sanitizeInput('12a.3.45', 2)).toBe('12.34')
    expect(sanitizeInput('1,5', 4)).toBe('1.5')
    expect(sanitizeInput('0.', 3)).toBe('0.')
  })

  it('keeps the value of a pasted amount grouped with commas, as the page shows amounts', () => {
    // The available balance and the minimum order value, copied from the form.
    expect(sanitizeInput('9,638.087414', 2)).toBe('9638.08')
    expect(sanitizeInput('5,000', 2)).toBe('5000')
    expect(sanitizeInput('5,000', 0)).toBe('5000')
    expect(sanitizeInput('100,000,000.00', 2)).toBe('100000000.00')
    expect(sanitizeInput('334,884,288', 0)).toBe('334884288')
    expect(sanitizeInput('1,000abc.55', 2)).toBe('1000.55')
    // A comma that cannot group thousands is a decimal comma.
    expect(sanitizeInput('1,5', 4)).toBe('1.5')
    expect(sanitizeInput('1,', 4)).toBe('1.')
    expect(sanitizeInput('0,00012', 6)).toBe('0.00012')
  })

  it('refuses decimals where there are none instead of merging them into the number (a point typed in an MNT price)', () => {
    // Typed key by key, each value passing through the field.
    let v = ''
    for (const ch of '1000.55') v = sanitizeInput(v + ch, 0)
    expect(v).toBe('1000.')
    expect(sanitizeInput('7.9', 0)).toBe('7.')
    v = ''
    for (const ch of '12.345') v = sanitizeInput(v + ch, 2)
    expect(v).toBe('12.34')
  })
})

describe('ratePercent', () => {
  it('shows a fee rate as a percentage without trailing zeros', () => {
    expect(ratePercent('0.001')).toBe('0.1%')
    expect(ratePercent('0.00075')).toBe('0.075%')
    expect(ratePercent('0.0009')).toBe('0.09%')
    expect(ratePercent('0.01')).toBe('1%')
    expect(ratePercent('0')).toBe('0%')
    expect(ratePercent('1')).toBe('100%')
    expect(ratePercent(undefined)).toBe('')
    expect(ratePercent('1e-3')).toBe('')
  })
})
