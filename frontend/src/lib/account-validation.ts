/**
 * Client-side rules of the account forms (sign-in, sign-up, forgot password,
 * security settings). They mirror the server's rules so a user learns about a
 * mistake before a round trip; the server checks everything again.
 *
 * Validators return a text key of the page texts (e.g. 'codeLength') or
 * undefined when the value is fine, so each form shows the message in the
 * current language.
 */

/** Length of every verification code (spec §9). */
export const CODE_LENGTH = 6
/** Password length bounds of the account contract. */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 32
/** The longest e-mail address the forms accept (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254
/** Nickname length bounds. */
export const NICKNAME_MIN_LENGTH = 1
export const NICKNAME_MAX_LENGTH = 32

/** Text keys the validators return. */
export type ValidationKey =
  | 'required'
  | 'invalidEmail'
  | 'invalidPhone'
  | 'codeLength'
  | 'googleCodeLength'
  | 'passwordRule'
  | 'passwordMismatch'
  | 'nicknameRule'

/** Keeps only ASCII digits, cut to `max` characters (code and phone inputs accept digits only). */
export function digitsOnly(value: string, max = Number.POSITIVE_INFINITY): string {
  return value.replace(/\D/g, '').slice(0, max)
}

/** True for a plausible e-mail address: one @, no spaces, a dot in the domain. */
export function isEmail(value: string): boolean {
  const v = value.trim()
  return v.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v)
}

/**
 * True for a national phone number of the country code: digits only, 8
 * digits for Mongolia (+976), otherwise 5–14 digits so that country code and
 * number stay within E.164's 15 digits.
 */
export function isPhoneNumber(countryCode: string, number: string): boolean {
  const cc = digitsOnly(countryCode)
  if (!/^\d+$/.test(number)) return false
  if (cc === '976') return number.length === 8
  return number.length >= 5 && cc.length + number.length <= 15
}

/**
 * The password rule: 8–32 characters containing at least one letter and one
 * digit, without spaces or control characters (same as the server).
 */
export function isValidPassword(value: string): boolean {
  const chars = Array.from(value)
  if (chars.length < PASSWORD_MIN_LENGTH || chars.length > PASSWORD_MAX_LENGTH) return false
  if (/[\s\p{Cc}]/u.test(value)) return false
  return /\p{L}/u.test(value) && /\d/.test(value)
}

/** True for exactly six digits. */
export function isCode(value: string): boolean {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(value)
}

/** Required non-blank value. */
export function validateRequired(value: string): ValidationKey | undefined {
  return value.trim() === '' ? 'required' : undefined
}

/** E-mail field: required, then the format. */
export function validateEmail(value: string): ValidationKey | undefined {
  return validateRequired(value) ?? (isEmail(value) ? undefined : 'invalidEmail')
}

/** Phone field: required, then the number rule of the chosen country code. */
export function validatePhone(countryCode: string, number: string): ValidationKey | undefined {
  return validateRequired(number) ?? (isPhoneNumber(countryCode, number) ? undefined : 'invalidPhone')
}

/** SMS or e-mail code: 'Please enter a 6-digit verification code' unless six digits (spec §8). */
export function validateCode(value: string): ValidationKey | undefined {
  return validateRequired(value) ?? (isCode(value) ? undefined : 'codeLength')
}

/** Google authenticator code: its own message (with $n = 6) unless six digits (spec §8). */
export function validateGoogleCode(value: string): ValidationKey | undefined {
  return validateRequired(value) ?? (isCode(value) ? undefined : 'googleCodeLength')
}

/** New password: required, then the rule. */
export function validateNewPassword(value: string): ValidationKey | undefined {
  return validateRequired(value) ?? (isValidPassword(value) ? undefined : 'passwordRule')
}

/** How strong a new password reads as it is typed (none while empty). */
export type PasswordStrength = 'none' | 'weak' | 'fair' | 'strong'

/**
 * The strength shown under a new password: weak until it meets the rule
 * (8–32 characters with letters and digits), strong from 12 characters
 * with three kinds of character (lower case, upper case, digits, others),
 * fair between.
 */
export function passwordStrength(value: string): PasswordStrength {
  if (value === '') return 'none'
  if (!isValidPassword(value)) return 'weak'
  const kinds = [/\p{Ll}/u, /\p{Lu}/u, /\d/, /[^\p{L}\d]/u].filter((re) => re.test(value)).length
  return Array.from(value).length >= 12 && kinds >= 3 ? 'strong' : 'fair'
}

/**
 * A mismatch to show while the confirmation is typed: once what is typed
 * can no longer become the password (it is not a beginning of it, or it is
 * as long and differs).
 */
export function typedMismatch(password: string, confirmation: string): boolean {
  if (confirmation === '') return false
  return !password.startsWith(confirmation) || (confirmation.length >= password.length && confirmation !== password)
}

/** Confirmation: required, then equal to the password ('Password entires do not match. Try again'). */
export function validateConfirmation(password: string, confirmation: string): ValidationKey | undefined {
  return validateRequired(confirmation) ?? (password === confirmation ? undefined : 'passwordMismatch')
}

/** Nickname: required, 1–32 characters after trimming, no control characters or angle brackets (as the server). */
export function validateNickname(value: string): ValidationKey | undefined {
  const trimmed = value.trim()
  const n = Array.from(trimmed).length
  const ok = n >= NICKNAME_MIN_LENGTH && n <= NICKNAME_MAX_LENGTH && !/[\p{Cc}\p{Cf}<>]/u.test(trimmed)
  return validateRequired(value) ?? (ok ? undefined : 'nicknameRule')
}

/**
 * Resolves a validation key to a message. Google code messages use the
 * spec's '$n' placeholder for the code length.
 */
export function validationMessage(t: (key: string) => string, key: ValidationKey | undefined): string | undefined {
  if (!key) return undefined
  const text = t(key)
  if (key === 'googleCodeLength') {
    return text ? text.replace('$n', String(CODE_LENGTH)) : 'Please enter a verification code'
  }
  return text || key
}

/** True when no field of an error map holds a message. */
export function isClean(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).every((e) => !e)
}
