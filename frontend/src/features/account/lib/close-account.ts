import { validateCode, validateGoogleCode, type ValidationKey } from '@/lib/account-validation'
import type { CancelRequest } from '../api/cancel-account'
import type { CancellationInfo } from '../api/check-cancellation'

/** The longest reason for leaving the server keeps (account.MaxReasonLen). */
export const MAX_REASON_LEN = 500

/** Where the user settles each kind of blocking reason. */
export const REASON_LINKS: Record<string, string> = {
  balance: '/wallet',
  open_orders: '/order/spot?tab=open',
  pending_withdrawals: '/wallet/history?tab=withdraw',
  pending_transfers: '/wallet/history?tab=transfer',
  pending_deposits: '/wallet/history?tab=deposit',
}

/** The link that fixes a reason, or undefined for a type this app does not know yet. */
export function reasonHref(type: string): string | undefined {
  return Object.hasOwn(REASON_LINKS, type) ? REASON_LINKS[type] : undefined
}

/** Characters of a reason as the server counts them (after trimming, by code point). */
export function reasonLength(reason: string): number {
  return Array.from(reason.trim()).length
}

/** The confirmation word every language also takes (a Mongolian user may type it on a Latin keyboard). */
export const CONFIRM_WORD_EN = 'CLOSE'

/** True when the typed confirmation is the page's word or CLOSE (spaces around and letter case aside). */
export function confirmMatches(typed: string, word: string): boolean {
  const t = typed.trim().toLocaleUpperCase()
  return t !== '' && (t === word.trim().toLocaleUpperCase() || t === CONFIRM_WORD_EN)
}

/** The closing form's values. */
export interface CloseValues {
  reason: string
  emailCode: string
  smsCode: string
  googleCode: string
  confirm: string
}

/** Empty form values. */
export const EMPTY_CLOSE: CloseValues = { reason: '', emailCode: '', smsCode: '', googleCode: '', confirm: '' }

/** A field's problem: a validation key, or the form's own (`reasonTooLong`, `confirmMismatch`, under `close.`). */
export type CloseError = ValidationKey | 'reasonTooLong' | 'confirmMismatch'

/** Problems per field. */
export type CloseErrors = Partial<Record<keyof CloseValues, CloseError>>

/** Checks the form: only the codes the check's need* flags name, the reason's length and the typed word. */
export function validateClose(
  values: CloseValues,
  info: Pick<CancellationInfo, 'needEmailCode' | 'needSmsCode' | 'needGoogleCode'>,
  word: string,
): CloseErrors {
  const errors: CloseErrors = {
    reason: reasonLength(values.reason) > MAX_REASON_LEN ? 'reasonTooLong' : undefined,
    emailCode: info.needEmailCode ? validateCode(values.emailCode) : undefined,
    smsCode: info.needSmsCode ? validateCode(values.smsCode) : undefined,
    googleCode: info.needGoogleCode ? validateGoogleCode(values.googleCode) : undefined,
    confirm: confirmMatches(values.confirm, word) ? undefined : 'confirmMismatch',
  }
  for (const key of Object.keys(errors) as (keyof CloseValues)[]) if (!errors[key]) delete errors[key]
  return errors
}

/** The request of a checked form: the codes the check asked for and the reason. */
export function closeRequest(
  values: CloseValues,
  info: Pick<CancellationInfo, 'needEmailCode' | 'needSmsCode' | 'needGoogleCode'>,
): CancelRequest {
  return {
    emailCode: info.needEmailCode ? values.emailCode : undefined,
    smsAuthCode: info.needSmsCode ? values.smsCode : undefined,
    googleCode: info.needGoogleCode ? values.googleCode : undefined,
    reason: values.reason.trim() || undefined,
  }
}
