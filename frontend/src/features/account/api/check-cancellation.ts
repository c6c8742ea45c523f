import { apiData } from '@/lib/request-client'

/** Why an account cannot be closed yet (reason types of the API contract). */
export type ReasonType = 'balance' | 'open_orders' | 'pending_withdrawals' | 'pending_transfers' | 'pending_deposits'

/** One non-zero balance of a balance reason. */
export interface Holding {
  /** spot, earn, futures, margin_cross, margin_isolated or otc. */
  account: string
  /** The pair of an isolated margin account. */
  symbol?: string
  coin: string
  available: string
  frozen: string
  total: string
}

/** One thing that keeps the account from being closed; msg is in the request's language. */
export interface CancelReason {
  type: ReasonType | string
  code: string
  msg: string
  count: number
  balances?: Holding[]
}

/** check_user_cancellation_info's answer. */
export interface CancellationInfo {
  canCancel: boolean
  reasons: CancelReason[]
  /** API keys a cancellation deletes. */
  apiKeys: number
  needEmailCode: boolean
  needSmsCode: boolean
  needGoogleCode: boolean
}

/** Normalises an answer (or the data of a 16203 refusal) into a CancellationInfo. */
export function toCancellationInfo(raw: unknown): CancellationInfo {
  const r = (raw ?? {}) as Partial<CancellationInfo>
  return {
    canCancel: r.canCancel === true,
    reasons: Array.isArray(r.reasons) ? r.reasons : [],
    apiKeys: Number(r.apiKeys ?? 0) || 0,
    needEmailCode: r.needEmailCode === true,
    needSmsCode: r.needSmsCode === true,
    needGoogleCode: r.needGoogleCode === true,
  }
}

/** Runs the cancellation check: every reason the account cannot be closed yet and the codes a closing asks for. */
export async function checkCancellation(signal?: AbortSignal): Promise<CancellationInfo> {
  return toCancellationInfo(await apiData('/fe-ex-api/user/check_user_cancellation_info', {}, { signal }))
}

/** Query key of the check. */
export const cancellationKey = ['account', 'cancellation'] as const
