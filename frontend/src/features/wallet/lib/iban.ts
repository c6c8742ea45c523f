/**
 * IBAN rules of the add-bank form (spec §5, §8, §9): the user types only
 * the 18 digits after a fixed MN prefix; a paste must be exactly MN and 18
 * digits; MN is prepended on submit when absent.
 */

export const IBAN_PREFIX = 'MN'
export const IBAN_DIGITS = 18
export const IBAN_LENGTH = IBAN_PREFIX.length + IBAN_DIGITS

/** Message keys of the IBAN rules (texts in walletModals.iban.*). */
export type IbanMessage = 'needDigits' | 'pasteFormat' | 'clipboard' | 'required'

/** Typing rule: digits only, at most 18. */
export function ibanTyped(value: string): string {
  return value.replace(/\D/g, '').slice(0, IBAN_DIGITS)
}

/**
 * Paste rule: the pasted text (spaces ignored) must be MN followed by 18
 * digits, 20 characters; the digits are returned, or the message key.
 */
export function ibanPasted(text: string): { digits: string } | { error: IbanMessage } {
  const compact = text.replace(/\s+/g, '').toUpperCase()
  if (compact.length !== IBAN_LENGTH || !/^MN\d{18}$/.test(compact)) return { error: 'pasteFormat' }
  return { digits: compact.slice(IBAN_PREFIX.length) }
}

/** Validation on change: required, then exactly 18 digits. */
export function validateIbanDigits(digits: string): IbanMessage | undefined {
  if (digits === '') return 'required'
  return /^\d{18}$/.test(digits) ? undefined : 'needDigits'
}

/** The account sent on submit: MN prepended when absent. */
export function ibanForSubmit(value: string): string {
  const v = value.replace(/\s+/g, '').toUpperCase()
  return v.startsWith(IBAN_PREFIX) ? v : `${IBAN_PREFIX}${v}`
}
