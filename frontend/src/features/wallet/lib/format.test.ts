import { describe, expect, it } from 'vitest'
import {
  compareDecimals,
  formatAtLeast,
  formatFixed,
  isAmountText,
  isPositive,
  multiplyDecimals,
  rateLocale,
  sanitizeAmount,
  shortenAddress,
  splitDepositAddress,
  joinAddressMemo,
  splitSavedAddress,
  subtractDecimals,
  truncateDecimals,
  truncateTrim,
  valueInCurrency,
} from './format'

describe('shortenAddress (spec §5)', () => {
  it('keeps addresses of up to 37 characters', () => {
    const a37 = 'a'.repeat(37)
    expect(shortenAddress(a37)).toBe(a37)
    expect(shortenAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'.slice(0, 30))).toHaveLength(30)
  })
  it('shows the first 28, an ellipsis and the last 6 above 37', () => {
    const eth = '0x593814d3309e2dF31D112824F0f4B6b1c1d0D7d47'
    const short = shortenAddress(eth)
    expect(short).toBe(`${eth.slice(0, 28)}…${eth.slice(-6)}`)
    expect(short.startsWith('0x593814d3309e2dF31D112824F0')).toBe(true)
    expect(short.endsWith('0D7d47')).toBe(true)
    expect(shortenAddress('b'.repeat(38))).toBe(`${'b'.repeat(28)}…${'b'.repeat(6)}`)
  })
})

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

describe('valuation (spec §1)', () => {
  const rates = {
    en_US: { BTC: '97250.5', lang_logo: '$' },
    mn_MN: { BTC: '335514225', lang_logo: '₮' },
  }
  it('MNT uses the mn_MN table, anything else en_US', () => {
    expect(rateLocale('MNT')).toBe('mn_MN')
    expect(rateLocale('USD')).toBe('en_US')
    expect(rateLocale('EUR')).toBe('en_US')
    expect(valueInCurrency('0.5', 'MNT', rates)).toEqual({ sign: '₮', value: '167,757,112.50' })
    expect(valueInCurrency('0.5', 'USD', rates)).toEqual({ sign: '$', value: '48,625.25' })
  })
  it('has no value without a rate table', () => {
    expect(valueInCurrency('1', 'USD', undefined)).toBeUndefined()
    expect(valueInCurrency('x', 'USD', rates)).toBeUndefined()
  })
})

describe('valuation of other coins', () => {
  it('uses the coin rate of the locale table', () => {
    const rates = { en_US: { BTC: '97250.5', USDT: '1', lang_logo: '$' }, mn_MN: { USDT: '3450', lang_logo: '₮' } }
    expect(valueInCurrency('12.5', 'USD', rates, 'USDT')).toEqual({ sign: '$', value: '12.50' })
    expect(valueInCurrency('2', 'MNT', rates, 'usdt')).toEqual({ sign: '₮', value: '6,900.00' })
    expect(valueInCurrency('2', 'MNT', rates, 'BTC')).toBeUndefined()
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

describe('splitDepositAddress (spec §3: address_memo is split)', () => {
  const xrp = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3'
  it('shows addressLong alone and the memo apart when the server sends both forms', () => {
    expect(splitDepositAddress({ addressLong: xrp, addressStr: `${xrp}_100000`, memo: '100000' })).toEqual({ address: xrp, memo: '100000' })
  })
  it('cuts addressStr at its last underscore without addressLong', () => {
    expect(splitDepositAddress({ addressLong: '', addressStr: `${xrp}_100000`, memo: '100000' })).toEqual({ address: xrp, memo: '100000' })
    expect(splitDepositAddress({ addressStr: `${xrp}_4242`, memo: '' })).toEqual({ address: xrp, memo: '4242' })
  })
  it('leaves an address without a memo as it is', () => {
    expect(splitDepositAddress({ addressLong: 'bc1qexample', addressStr: 'bc1qexample', memo: '' })).toEqual({ address: 'bc1qexample', memo: '' })
  })
})

describe('splitSavedAddress (address_memo of the address book, as the server splits it)', () => {
  const ton = 'UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt'
  it('keeps a TON address whole: its 48 characters, then the memo', () => {
    expect(splitSavedAddress(`${ton}_555`, 'TON', true)).toEqual({ address: ton, memo: '555' })
    expect(splitSavedAddress(`${ton}_a_b`, 'TON', true)).toEqual({ address: ton, memo: 'a_b' })
    expect(splitSavedAddress(ton, 'TON', true)).toEqual({ address: ton, memo: '' })
  })
  it('splits XRP at the first underscore and never splits a chain without memos', () => {
    expect(splitSavedAddress('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3_100001', 'XRP', true)).toEqual({ address: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', memo: '100001' })
    expect(splitSavedAddress('0xabc_def', 'ETH', false)).toEqual({ address: '0xabc_def', memo: '' })
    expect(splitSavedAddress('0:abcdef_12', 'TON', true)).toEqual({ address: '0:abcdef', memo: '12' })
  })
  it('is undone by joinAddressMemo, which leaves a bare address without an underscore', () => {
    expect(joinAddressMemo(ton, '')).toBe(ton)
    expect(splitSavedAddress(joinAddressMemo(ton, '555'), 'TON', true)).toEqual({ address: ton, memo: '555' })
    expect(splitSavedAddress(joinAddressMemo('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', '7'), 'XRP', true)).toEqual({
      address: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3',
      memo: '7',
    })
  })
})
