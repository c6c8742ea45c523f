/**
 * What became of an order just placed. /order/create acknowledges an order
 * before the engine has seen it, so a post-only order that would take, a
 * fill-or-kill that cannot fill, an immediate-or-cancel or a market order
 * that finds nothing to trade against, or a stop-limit whose stop is already
 * reached is "placed" and then ends REJECTED or CANCELLED with nothing
 * filled. The form follows each order for a few seconds and says so instead
 * of leaving "Order placed" standing.
 */
import type { OrderView } from '../api/trade-api'
import { parseDec } from './decimal'

/** Order statuses of the API. */
export const STATUS_FILLED = 3
export const STATUS_CANCELLED = 4
export const STATUS_REJECTED = 5

/** Text key (under form.outcome) of the warning an order's end deserves. */
export type OutcomeWarning = 'postOnly' | 'fok' | 'ioc' | 'market' | 'stopLimit' | 'minValue' | 'selfTrade' | 'rejected'

/** Warnings by the engine's end reason (OrderView.end_reason). */
const REASON_WARNINGS: Record<string, OutcomeWarning> = {
  post_only_would_take: 'postOnly',
  fok_not_filled: 'fok',
  ioc_remainder: 'ioc',
  stop_would_trigger: 'stopLimit',
  below_min_notional: 'minValue',
  stp: 'selfTrade',
}

/** True once an order can no longer change. */
export function isFinal(status: number): boolean {
  return status === STATUS_FILLED || status === STATUS_CANCELLED || status === STATUS_REJECTED
}

/**
 * The warning for an order that ended with nothing filled, or undefined when
 * there is nothing to warn about. The engine REJECTS a post-only order that
 * would take and a stop-limit whose stop the last price has already reached
 * (and any order it finds malformed); it CANCELS a fill-or-kill that cannot
 * fill completely and an IOC or market order that finds nothing to trade
 * against. An IOC whose rest was cancelled after a part filled is normal and
 * gets none; a resting order that ends cancelled was cancelled by the user.
 */
export function outcomeWarning(
  type: string,
  order: Pick<OrderView, 'status' | 'deal_volume' | 'end_reason'>,
): OutcomeWarning | undefined {
  if ((parseDec(order.deal_volume)?.units ?? 0n) > 0n) return undefined
  // The server names the engine's reason; older answers without it fall
  // back to what the type and status imply.
  const byReason = order.end_reason && REASON_WARNINGS[order.end_reason]
  if (byReason) return byReason === 'ioc' && type === 'MARKET' ? 'market' : byReason
  if (order.status === STATUS_REJECTED) {
    switch (type) {
      case 'POST_ONLY':
        return 'postOnly'
      case 'STOP_LIMIT':
        return 'stopLimit'
      case 'FOK':
        return 'fok'
    }
    return 'rejected'
  }
  if (order.status === STATUS_CANCELLED) {
    switch (type) {
      case 'FOK':
        return 'fok'
      case 'IOC':
        return 'ioc'
      case 'MARKET':
        return 'market'
    }
  }
  return undefined
}

/** How {@link followOrder} polls. */
export interface FollowOptions {
  /** Wait before the first look; each later wait is one step longer (0.4 s, 0.8 s, 1.2 s ...). */
  intervalMs?: number
  /** Give up after this long (the order is resting, or the server is slow). */
  timeoutMs?: number
  signal?: AbortSignal
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })

/**
 * Looks the order up until it is final or the time is up; resolves with its
 * final state, or undefined when it is still open (or could not be read) by
 * then. Failed look-ups are retried quietly: this is a courtesy check, the
 * order lists show the truth either way.
 */
export async function followOrder(
  orderId: string,
  load: (orderId: string, signal?: AbortSignal) => Promise<OrderView>,
  { intervalMs = 400, timeoutMs = 5000, signal }: FollowOptions = {},
): Promise<OrderView | undefined> {
  const deadline = Date.now() + timeoutMs
  for (let look = 1; !signal?.aborted; look++) {
    await sleep(Math.min(intervalMs * look, Math.max(0, deadline - Date.now())), signal)
    if (signal?.aborted) return undefined
    try {
      const order = await load(orderId, signal)
      if (order && isFinal(order.status)) return order
    } catch {
      // Not readable yet (or offline): look again until the deadline.
    }
    if (Date.now() >= deadline) return undefined
  }
  return undefined
}
