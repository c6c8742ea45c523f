import { apiData } from '@/lib/request-client'

/**
 * The 24 h withdrawal limit as the withdrawal's cost call reports it (POST
 * /fe-ex-api/cost/Getcost, spec §7 get_cost): the user's limit, which
 * follows the verification level, what the withdrawals of the last 24 hours
 * used and what is left, all in USDT with 2 decimals. The limit is the same
 * for every coin, so it is read for USDT.
 */

/** The rolling 24 h usage. */
export interface WithdrawLimit {
  /** USDT. */
  limit: string
  used: string
  left: string
}

/** The coin the usage is read for. */
export const LIMIT_COIN = 'USDT'

interface CostLimitFields {
  total_withdraw_daily_max_limit?: string | number
  used_withdraw_daily_amount?: string | number
  left_withdraw_daily_amount?: string | number
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

/** The limit fields of a cost answer. */
export function withdrawLimitOf(raw: CostLimitFields | null | undefined): WithdrawLimit {
  return {
    limit: text(raw?.total_withdraw_daily_max_limit),
    used: text(raw?.used_withdraw_daily_amount),
    left: text(raw?.left_withdraw_daily_amount),
  }
}

/** The user's 24 h limit, used and left (USDT). */
export async function fetchWithdrawLimit(signal?: AbortSignal): Promise<WithdrawLimit> {
  // Silent: the limits page says in place when today's usage cannot be read.
  return withdrawLimitOf(await apiData<CostLimitFields | null>('/fe-ex-api/cost/Getcost', { symbol: LIMIT_COIN }, { signal, silent: true }))
}
