import { apiPost, isSuccess, type ApiEnvelope } from '@/lib/request-client'

/**
 * Calls of the sign-in screens (API contract: accounts, codes, forgot
 * password). Non-zero answers have already been shown by the request client's
 * global handler when these resolve, so callers only branch on success.
 */

/** operationType values of the code-sending endpoints. */
export const OPERATION = {
  register: 1,
  forgotPassword: 3,
} as const

/** The account a form names: an e-mail address or a phone number. */
export type AccountRef = { kind: 'email'; email: string } | { kind: 'phone'; countryCode: string; mobileNumber: string }

/** The account fields of a request body. */
export function accountBody(account: AccountRef): Record<string, string> {
  return account.kind === 'email'
    ? { email: account.email.trim() }
    : { countryCode: account.countryCode, mobileNumber: account.mobileNumber }
}

/** A second-factor challenge answered by /user/login_in. */
export interface LoginChallenge {
  type: 'google' | 'mobile'
  token: string
}

/** Data of a successful sign-in. */
export interface SessionData {
  token: string
}

/** True when login_in answered with a second-factor challenge rather than a session. */
export function isChallenge(data: unknown): data is LoginChallenge {
  if (typeof data !== 'object' || data === null) return false
  const d = data as Record<string, unknown>
  return (d.type === 'google' || d.type === 'mobile') && typeof d.token === 'string'
}

/** Seconds to wait from a rate-limited answer (data.retryAfter), if any. */
export function retryAfterOf(envelope: ApiEnvelope<unknown>): number | undefined {
  const data = envelope.data as { retryAfter?: unknown } | null
  const value = Number(data?.retryAfter)
  return Number.isFinite(value) && value > 0 ? value : undefined
}

export function login(account: AccountRef, loginPword: string, opts?: { silent?: boolean }) {
  return apiPost<SessionData | LoginChallenge>('/fe-ex-api/user/login_in', { ...accountBody(account), loginPword }, opts)
}

export function confirmLogin(token: string, authCode: string) {
  return apiPost<SessionData>('/fe-ex-api/user/confirm_login', { token, authCode })
}

/** Where the codes of an authenticator reset went, masked. */
export interface ResetTargets {
  email: string
  mobile: string
}

/** Lost authenticator at sign-in: codes (operationType 29) to the account's e-mail and phone. */
export function sendAuthenticatorResetCodes(token: string) {
  return apiPost<ResetTargets>('/fe-ex-api/user/authenticator_reset/send_codes', { token })
}

/** Turns the authenticator off with both codes and signs in (withdrawals locked 24 h). */
export function resetAuthenticator(token: string, emailCode: string, smsAuthCode: string) {
  return apiPost<SessionData>('/fe-ex-api/user/authenticator_reset/confirm', { token, emailCode, smsAuthCode })
}

/** Sends a code to the account: e-mail or SMS by the account's kind. */
export function sendCode(account: AccountRef, operationType: number) {
  return account.kind === 'email'
    ? apiPost('/fe-ex-api/v4/common/emailValidCode', { email: account.email.trim(), operationType })
    : apiPost('/fe-ex-api/v4/common/smsValidCode', {
        countryCode: account.countryCode,
        mobileNumber: account.mobileNumber,
        smsType: '0',
        operationType,
      })
}

export interface RegisterInput {
  account: AccountRef
  loginPword: string
  code: string
  invitedCode?: string
}

export function register({ account, loginPword, code, invitedCode }: RegisterInput) {
  const body: Record<string, unknown> = { ...accountBody(account), loginPword, code }
  if (invitedCode?.trim()) body.invitedCode = invitedCode.trim()
  return apiPost<{ uid: string | number }>('/fe-ex-api/user/register', body)
}

/** Forgot password step 1: sends a code (operationType 3) to the account. */
export function resetPasswordStepOne(account: AccountRef) {
  return apiPost('/fe-ex-api/user/reset_password_step_one', accountBody(account))
}

/** Step 2: exchanges the code for a reset token. */
export function resetPasswordStepTwo(account: AccountRef, code: string) {
  return apiPost<{ token: string }>('/fe-ex-api/user/reset_password_step_two', { ...accountBody(account), code })
}

/** Step 3: sets the new password; every session of the user ends. */
export function resetPasswordStepThree(token: string, loginPword: string) {
  return apiPost('/fe-ex-api/user/reset_password_step_three', { token, loginPword })
}

export { isSuccess }
