import { describe, expect, it } from 'vitest'
import { ibanForSubmit, ibanPasted, ibanTyped, validateIbanDigits } from './iban'

describe('IBAN input rules (spec §5)', () => {
  it('typing keeps digits only, at most 18', () => {
    expect(ibanTyped('12ab34')).toBe('1234')
    expect(ibanTyped('MN1234567890123456789999')).toBe('123456789012345678')
    expect(ibanTyped('')).toBe('')
  })
  it('a paste must be MN followed by 18 digits (20 characters)', () => {
    expect(ibanPasted('MN123456789012345678')).toEqual({ digits: '123456789012345678' })
    expect(ibanPasted(' mn12 3456 7890 1234 5678 ')).toEqual({ digits: '123456789012345678' })
    expect(ibanPasted('123456789012345678')).toEqual({ error: 'pasteFormat' })
    expect(ibanPasted('MN12345678901234567')).toEqual({ error: 'pasteFormat' })
    expect(ibanPasted('MN1234567890123456789')).toEqual({ error: 'pasteFormat' })
    expect(ibanPasted('GB12345678901234567X')).toEqual({ error: 'pasteFormat' })
  })
  it('validation on change: required, then exactly 18 digits', () => {
    expect(validateIbanDigits('')).toBe('required')
    expect(validateIbanDigits('12345')).toBe('needDigits')
    expect(validateIbanDigits('123456789012345678')).toBeUndefined()
  })
  it('MN is prepended on submit when absent', () => {
    expect(ibanForSubmit('123456789012345678')).toBe('MN123456789012345678')
    expect(ibanForSubmit('MN123456789012345678')).toBe('MN123456789012345678')
    expect(ibanForSubmit('mn123456789012345678')).toBe('MN123456789012345678')
  })
})
