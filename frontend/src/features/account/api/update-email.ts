import { apiPost } from '@/lib/request-client'

/** Path of the e-mail change (API contract: profile area). */
export const EMAIL_UPDATE_PATH = '/fe-ex-api/user/email_update'

/** What /user/email_update takes: the new address with its code, and the account's own codes. */
export interface EmailUpdate {
  /** The new address. */
  email: string
  /** Code of operationType 5 sent to the new address. */
  emailCode: string
  /** Code of operationType 17 sent to the current address (when the account has one). */
  oldEmailCode?: string
  /** SMS code of operationType 11 (when the SMS check is on, or the phone is the only factor). */
  smsAuthCode?: string
  /** Google authenticator code (when it is on). */
  googleCode?: string
}

/** The answer of a stored change. */
export interface EmailUpdated {
  email: string
  /** Unix ms: withdrawals are locked until then (24 hours). */
  withdrawLockedUntil: number
}

/**
 * Changes the e-mail, or adds one to a phone account. Codes the account does
 * not need are left out of the body. A refusal is toasted by the request
 * client; the envelope tells the caller which.
 */
export function updateEmail(change: EmailUpdate) {
  const body: Record<string, unknown> = { email: change.email.trim(), emailCode: change.emailCode }
  if (change.oldEmailCode) body.oldEmailCode = change.oldEmailCode
  if (change.smsAuthCode) body.smsAuthCode = change.smsAuthCode
  if (change.googleCode) body.googleCode = change.googleCode
  return apiPost<EmailUpdated>(EMAIL_UPDATE_PATH, body)
}
