import { apiPost } from '@/lib/request-client'

/** Code of a cancellation refused while something still needs the account (data: the check's answer). */
export const CODE_CANCELLATION_BLOCKED = '16203'

/** What /user/user_cancellation takes: the codes the check named and an optional reason. */
export interface CancelRequest {
  emailCode?: string
  smsAuthCode?: string
  googleCode?: string
  reason?: string
}

/** The answer of a stored cancellation. */
export interface Cancelled {
  cancelledAt: number
}

/**
 * Closes the signed-in account. The server ends every session and clears
 * the cookies. Silent: the caller shows the refusal (16203 carries the
 * check's answer as data, shown as the list of reasons).
 */
export function cancelAccount(req: CancelRequest) {
  const body: Record<string, unknown> = {}
  if (req.emailCode) body.emailCode = req.emailCode
  if (req.smsAuthCode) body.smsAuthCode = req.smsAuthCode
  if (req.googleCode) body.googleCode = req.googleCode
  const reason = req.reason?.trim()
  if (reason) body.reason = reason
  return apiPost<Cancelled>('/fe-ex-api/user/user_cancellation', body, { silent: true })
}
