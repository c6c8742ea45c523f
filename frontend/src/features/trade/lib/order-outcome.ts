/**
 * What became of an order just placed. /order/create acknowledges an order
 * before the engine has seen it, so a post-only order that would take, a
 * fill-or-kill that cannot fill, an immediate-or-cancel or a market order
 * that finds nothing to trade against, or a stop-limit whose stop is already
 * reached is "placed" and then ends REJECTED or CANCELLED with nothing
 * filled. The form follows each order for a few seconds and says so instead
 * of leaving "Order placed" standing. It learns how the order ended from the
 * user_orders messages of the app's private socket (features/live-updates)
 * and reads /order/detail at most once, when no message came.
 */
import { isUserFeedReady, subscribeUserChannel } from '@/features/live-updates/user-feed'
import type { OrderView } from '../api/trade-api'
import { parseDec } from '@/lib/decimal'

/** Order statuses of the API. */
export const STATUS_FILLED = 3
export const STATUS_CANCELLED = 4
export const STATUS_REJECTED = 5

/** Text key (under form.outcome) of the warning an order's end deserves. */
export type OutcomeWarning =
  | 'postOnly'
  | 'fok'
  | 'ioc'
  | 'market'
  | 'marketFunds'
  | 'marketPartial'
  | 'stopLimit'
  | 'minValue'
  | 'selfTrade'
  | 'rejected'

/** Warnings by the engine's end reason (OrderView.end_reason). */
const REASON_WARNINGS: Record<string, OutcomeWarning> = {
  post_only_would_take: 'postOnly',
  fok_not_filled: 'fok',
  ioc_remainder: 'ioc',
  stop_would_trigger: 'stopLimit',
  below_min_notional: 'minValue',
  stp: 'selfTrade',
  // Only a market buy ends as dust with nothing filled: the funds for it
  // (its total, or the balance held for a buy by amount) buy no single lot.
  dust: 'marketFunds',
}

/** True once an order can no longer change. */
export function isFinal(status: number): boolean {
  return status === STATUS_FILLED || status === STATUS_CANCELLED || status === STATUS_REJECTED
}

/**
 * The warning for an order that ended with nothing filled, or for a market
 * order that ended partly filled, or undefined when there is nothing to warn
 * about. A market order is expected to fill: when the book runs out of
 * orders, or a market buy runs out of the funds held for it, the rest is
 * cancelled and the trader is told what was traded ('marketPartial'). The engine REJECTS a post-only order that
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
  if ((parseDec(order.deal_volume)?.units ?? 0n) > 0n) {
    return type === 'MARKET' && order.status === STATUS_CANCELLED ? 'marketPartial' : undefined
  }
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

/** Where pushed orders come from; tests pass their own. */
export interface OrderFeed {
  /** Listens to the user's pushed orders; returns the unsubscriber. */
  subscribe(listener: (order: OrderView) => void): () => void
  /** True while pushes arrive (the private socket is open and signed in). */
  isReady(): boolean
}

/** A pushed order: the data of a user_orders message (internal/userfeed OrderUpdate, spot.OrderView plus event). */
function pushedOrder(data: unknown): OrderView | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const o = data as Partial<OrderView>
  if (o.order_id === undefined || o.order_id === null || typeof o.status !== 'number') return undefined
  return o as OrderView
}

/** The user_orders messages of the app-wide private socket. */
export const liveOrderFeed: OrderFeed = {
  subscribe: (listener) =>
    subscribeUserChannel('user_orders', (m) => {
      const order = pushedOrder(m.data)
      if (order) listener(order)
    }),
  isReady: isUserFeedReady,
}

/** How orders are followed. */
export interface FollowOptions {
  /** The pushed orders (default: the app's private socket). */
  feed?: OrderFeed
  /**
   * When nothing was pushed about the order by then, or the socket is down
   * and no final push came, look it up once with /order/detail.
   */
  fallbackMs?: number
  /** Give up after this long (the order is resting, or the server is slow). */
  timeoutMs?: number
  signal?: AbortSignal
}

/** The follow-up of an order about to be placed (see {@link watchOrder}). */
export interface OrderWatch {
  /**
   * Follows the order the create call answered with; resolves with its final
   * state, or undefined when it is still open (or could not be read) at the
   * deadline or the follow-up was stopped.
   */
  follow(orderId: string, load: (orderId: string, signal?: AbortSignal) => Promise<OrderView>): Promise<OrderView | undefined>
  /** Stops listening (the order was not placed); a follow-up under way resolves undefined. */
  stop(): void
}

/**
 * Starts following an order before it is sent: the push that ends an order
 * (a post-only rejected at once) can beat the answer to /order/create, so
 * the watch listens from the start and keeps what was pushed. Once the
 * order id is known, {@link OrderWatch.follow} waits for the push that shows
 * the order final. /order/detail is a fallback, read at most once, at
 * fallbackMs, and only when nothing was pushed about the order or the socket
 * is not ready: a resting order, whose placement was pushed, is never
 * looked up, and nothing polls. Failed look-ups are quiet: this is a
 * courtesy check, the order lists show the truth either way.
 */
export function watchOrder({ feed = liveOrderFeed, fallbackMs = 2500, timeoutMs = 5000, signal }: FollowOptions = {}): OrderWatch {
  /** The last pushed state of each order seen since the watch started. */
  const pushed = new Map<string, OrderView>()
  const timers: ReturnType<typeof setTimeout>[] = []
  let following: string | undefined
  let settle: ((order?: OrderView) => void) | undefined
  let stopped = false
  const unsubscribe = feed.subscribe((order) => {
    const id = String(order.order_id)
    pushed.set(id, order)
    if (id === following && isFinal(order.status)) end(order)
  })
  /** Stops listening and resolves the follow-up, if any, with order. */
  function end(order?: OrderView) {
    if (stopped) return
    stopped = true
    unsubscribe()
    timers.forEach(clearTimeout)
    signal?.removeEventListener('abort', abort)
    settle?.(order)
    settle = undefined
  }
  const abort = () => end()
  signal?.addEventListener('abort', abort, { once: true })
  if (signal?.aborted) end()
  return {
    stop: () => end(),
    follow(orderId, load) {
      return new Promise((resolve) => {
        if (stopped || following !== undefined) {
          resolve(undefined)
          return
        }
        following = orderId
        settle = resolve
        const known = pushed.get(orderId)
        if (known && isFinal(known.status)) {
          end(known)
          return
        }
        timers.push(
          setTimeout(() => {
            if (pushed.has(orderId) && feed.isReady()) return
            load(orderId, signal).then(
              (order) => {
                if (order && isFinal(order.status)) end(order)
              },
              () => {
                // Not readable (or offline): a push may still come until the deadline.
              },
            )
          }, fallbackMs),
          setTimeout(() => end(), timeoutMs),
        )
      })
    },
  }
}
