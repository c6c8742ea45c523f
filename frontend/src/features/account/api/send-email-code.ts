import { apiPost } from '@/lib/request-client'

/** operationType values of the e-mail codes this feature sends. */
export const EMAIL_OPERATION = {
  /** To a new address the account moves to (email=the new address). */
  changeTarget: 5,
  /** To the account's own address (no email: the server knows it). */
  ownAddress: 17,
} as const

/**
 * Sends an e-mail code (/v4/common/emailValidCode): to `email` when given
 * (the new address of a change), else to the signed-in account's address.
 */
export function sendEmailCode(operationType: number, email?: string) {
  return apiPost('/fe-ex-api/v4/common/emailValidCode', email ? { email: email.trim(), operationType } : { operationType })
}
