import { describe, expect, it } from 'vitest'
import {
  formatCut,
  cmpDec,
  compareDecimals,
  divDec,
  fixed,
  floorString,
  floorToStep,
  formatAtLeast,
  formatDec,
  formatDisplay,
  formatFee,
  formatFixed,
  groupThousands,
  isAmountText,
  isPositive,
  multiplyDecimals,
  onStep,
  parseDec,
  placesOf,
  ratePercent,
  roundToStep,
  sanitizeAmount,
  sanitizeInput,
  subtractDecimals,
  truncateDecimals,
  truncateTrim,
  truncated,
} from './decimal'

// The order form's helpers (they were the trade's).
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

// The wallet's helpers.
describe('truncateDecimals', () => {
  it('cuts without rounding and pads to the precision', () => {
    expect(truncateDecimals('12.34567', 3)).toBe('12.345')
    expect(truncateDecimals('12.9999', 0)).toBe('12')
    expect(truncateDecimals('0.5', 8)).toBe('0.50000000')
    expect(truncateDecimals('1000', 2)).toBe('1000.00')
    expect(truncateDecimals('-1.239', 2)).toBe('-1.23')
  })
  it('futures amounts: 3 decimals (spec §9)', () => {
    expect(truncateDecimals('0.0019', 3)).toBe('0.001')
    expect(truncateDecimals('0.0009', 3)).toBe('0.000')
    expect(truncateTrim('12.3450000', 3)).toBe('12.345')
    expect(truncateTrim('5.000', 3)).toBe('5')
  })
  it('keeps exact values far beyond float precision', () => {
    expect(truncateDecimals('123456789012345678.123456789', 8)).toBe('123456789012345678.12345678')
  })
  it('gives an empty string for non-numbers', () => {
    expect(truncateDecimals('abc', 2)).toBe('')
    expect(truncateDecimals('', 2)).toBe('')
  })
})

describe('sanitizeAmount (spec §5 amount rule)', () => {
  it('keeps digits and one decimal point', () => {
    expect(sanitizeAmount('0.1a.2')).toBe('0.12')
    expect(sanitizeAmount('1,5')).toBe('1.5')
    expect(sanitizeAmount('-12e3')).toBe('123')
    expect(sanitizeAmount('1.2.3.4')).toBe('1.234')
  })
  it('turns a leading point into 0. and drops leading zeros', () => {
    expect(sanitizeAmount('.5')).toBe('0.5')
    expect(sanitizeAmount('007')).toBe('7')
    expect(sanitizeAmount('00.5')).toBe('0.5')
    expect(sanitizeAmount('0')).toBe('0')
  })
  it('cuts the fraction to the allowed decimals', () => {
    expect(sanitizeAmount('12.34567', 3)).toBe('12.345')
    expect(sanitizeAmount('12.5', 0)).toBe('12')
    expect(sanitizeAmount('12.', 2)).toBe('12.')
  })
  it('produces text that matches the rule', () => {
    for (const s of ['1a2.3.4', '..', 'x', '9.99.9', ' 1 0 ']) {
      const out = sanitizeAmount(s)
      expect(out === '' || isAmountText(out)).toBe(true)
    }
  })
})

describe('decimal helpers', () => {
  it('formats half up with grouping', () => {
    expect(formatFixed('1234567.125', 2)).toBe('1,234,567.13')
    expect(formatFixed('0.000000015', 8)).toBe('0.00000002')
    expect(formatFixed('5', 4)).toBe('5.0000')
    expect(formatFixed(undefined, 2)).toBe('--')
  })
  it('multiplies, compares and subtracts exactly', () => {
    expect(multiplyDecimals('0.1', '0.2', 2)).toBe('0.02')
    expect(multiplyDecimals('0.03017755', '97250.5', 2)).toBe('2934.78')
    expect(compareDecimals('0.10', '0.1')).toBe(0)
    expect(compareDecimals('0.0999', '0.1')).toBe(-1)
    expect(compareDecimals('10', '9.99999999')).toBe(1)
    expect(subtractDecimals('0.1', '0.0002')).toBe('0.0998')
    expect(isPositive('0.000001')).toBe(true)
    expect(isPositive('0.000')).toBe(false)
    expect(isPositive('')).toBe(false)
  })
})

describe('formatCut (what an account holds, never rounded up)', () => {
  it('cuts and groups, and says -- for no number', () => {
    expect(formatCut('1234.5678', 2)).toBe('1,234.56')
    expect(formatCut('0.12349999', 4)).toBe('0.1234')
    expect(formatCut('7', 2)).toBe('7.00')
    expect(formatCut('abc', 2)).toBe('--')
  })
})

describe('formatAtLeast (records at the coin or fee precision, exactly)', () => {
  it('pads to the precision and groups thousands', () => {
    expect(formatAtLeast('2500', 6)).toBe('2,500.000000')
    expect(formatAtLeast('1011', 2)).toBe('1,011.00')
    expect(formatAtLeast('4', 2)).toBe('4.00')
    expect(formatAtLeast('0.25000000', 8)).toBe('0.25000000')
  })
  it('keeps significant digits beyond the precision instead of rounding them away', () => {
    expect(formatAtLeast('0.0005', 2)).toBe('0.0005')
    expect(formatAtLeast('0.00020000', 2)).toBe('0.0002')
    expect(formatAtLeast('1234.123456789', 8)).toBe('1,234.123456789')
  })
  it('shows -- for anything that is not a number', () => {
    expect(formatAtLeast(undefined, 2)).toBe('--')
    expect(formatAtLeast('abc', 2)).toBe('--')
  })
})

// One module, the screens' rules kept apart: each job keeps the behaviour its screen had.
describe('the trade and wallet rules stay distinct', () => {
  it('reads a signed decimal for the order form and only a plain one for the wallet', () => {
    expect(parseDec('+3')).toEqual({ units: 3n, scale: 0 })
    expect(isPositive('+3')).toBe(false)
    expect(compareDecimals('+3', '0')).toBe(0)
    expect(truncateDecimals('+3', 2)).toBe('')
    expect(fixed('+3', 2)).toBe('3.00')
    expect(formatFixed('+3', 2)).toBe('--')
  })
  it('rounds half up with its own placeholder, and cuts grouped or ungrouped', () => {
    expect(fixed('1234.565', 2)).toBe('1,234.57')
    expect(formatFixed('1234.565', 2)).toBe('1,234.57')
    expect(fixed('x', 2)).toBe('—')
    expect(formatFixed('x', 2)).toBe('--')
    expect(truncated('1234.569', 2)).toBe('1,234.56')
    expect(truncateDecimals('1234.569', 2)).toBe('1234.56')
    expect(truncateTrim('1234.500', 2)).toBe('1234.5')
    expect(formatAtLeast('1234.500', 2)).toBe('1,234.50')
    expect(multiplyDecimals('-0.125', '1', 2)).toBe('-0.13')
    expect(subtractDecimals('1', '1.005')).toBe('-0.005')
  })
  it('keeps the order form input rule and the wallet amount rule apart', () => {
    expect(sanitizeInput('5,000', 2)).toBe('5000')
    expect(sanitizeAmount('5,000', 2)).toBe('5.00')
    expect(sanitizeInput('007', 2)).toBe('007')
    expect(sanitizeAmount('007', 2)).toBe('7')
  })
})
