import { apiPost } from '@/lib/request-client'

/** operationType of the SMS code for a change to the account itself (sent to the bound phone). */
export const SMS_SECURITY_OPERATION = 11

/** Sends an SMS code to the signed-in account's bound phone (/v4/common/smsValidCode). */
export function sendSmsCode(operationType: number = SMS_SECURITY_OPERATION) {
  return apiPost('/fe-ex-api/v4/common/smsValidCode', { smsType: '0', operationType })
}
