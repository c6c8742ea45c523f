import { validateCode, validateEmail, validateGoogleCode, type ValidationKey } from '@/lib/account-validation'
import type { UserInfo } from '@/lib/session'

/** How long withdrawals stay locked after the e-mail changes (the server's auth.EmailChangeLock). */
export const EMAIL_CHANGE_LOCK_MS = 24 * 60 * 60 * 1000

/** The account's own codes an e-mail change asks for, beside the new address's code. */
export interface EmailChangeFactors {
  /** The code sent to the current address (operationType 17): the account has an e-mail. */
  oldEmail: boolean
  /** The SMS code to the bound phone (operationType 11). */
  sms: boolean
  /** The Google authenticator code. */
  google: boolean
}

/**
 * The codes of the account's own factors, as a withdrawal asks for them
 * (the server's auth.WithdrawalFactors): the current address's when there
 * is one, SMS when the SMS check is on, Google when it is on; a phone that
 * is the account's only factor is asked for too.
 */
export function emailChangeFactors(
  user: Pick<UserInfo, 'email' | 'isOpenMobileCheck' | 'googleStatus' | 'mobileNumber'>,
): EmailChangeFactors {
  const oldEmail = !!user.email
  const google = user.googleStatus === 1
  let sms = user.isOpenMobileCheck === 1
  if (!oldEmail && !sms && !google && !!user.mobileNumber) sms = true
  return { oldEmail, sms, google }
}

/** The e-mail change form's values. */
export interface EmailChangeValues {
  email: string
  newCode: string
  oldCode: string
  smsCode: string
  googleCode: string
}

/** Empty form values. */
export const EMPTY_EMAIL_CHANGE: EmailChangeValues = { email: '', newCode: '', oldCode: '', smsCode: '', googleCode: '' }

/** A field's problem: a validation key of the page texts, or `sameAddress` (under `email.`). */
export type EmailChangeError = ValidationKey | 'sameAddress'

/** Problems per field; a field that is fine (or not asked for) has none. */
export type EmailChangeErrors = Partial<Record<keyof EmailChangeValues, EmailChangeError>>

/** True when two addresses are the same account address (case and spaces aside, as the server compares them). */
export function sameAddress(a: string | undefined, b: string | undefined): boolean {
  return !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase()
}

/** The new address alone: required, a valid address, not the current one. */
export function validateNewEmail(email: string, current: string | undefined): EmailChangeError | undefined {
  return validateEmail(email) ?? (sameAddress(email, current) ? 'sameAddress' : undefined)
}

/** Checks the form: the new address and its code always, the account's own codes its factors name. */
export function validateEmailChange(
  values: EmailChangeValues,
  factors: EmailChangeFactors,
  current: string | undefined,
): EmailChangeErrors {
  const errors: EmailChangeErrors = {
    email: validateNewEmail(values.email, current),
    newCode: validateCode(values.newCode),
    oldCode: factors.oldEmail ? validateCode(values.oldCode) : undefined,
    smsCode: factors.sms ? validateCode(values.smsCode) : undefined,
    googleCode: factors.google ? validateGoogleCode(values.googleCode) : undefined,
  }
  for (const key of Object.keys(errors) as (keyof EmailChangeValues)[]) if (!errors[key]) delete errors[key]
  return errors
}

/** The request body of a checked form: only the codes the factors name. */
export function emailChangeRequest(values: EmailChangeValues, factors: EmailChangeFactors) {
  return {
    email: values.email.trim(),
    emailCode: values.newCode,
    oldEmailCode: factors.oldEmail ? values.oldCode : undefined,
    smsAuthCode: factors.sms ? values.smsCode : undefined,
    googleCode: factors.google ? values.googleCode : undefined,
  }
}
