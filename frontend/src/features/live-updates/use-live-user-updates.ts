import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect } from 'react'
import { getConfig } from '@/lib/config'
import { getToken } from '@/lib/cookies'
import { useUserInfo } from '@/lib/session'
import { UserSocket, type PrivateMessage } from './user-socket'

/**
 * Query-key prefixes refreshed by private updates. They are the prefixes of
 * the order lists of the trade page and the orders pages (open orders, order
 * history, trades, fills: ['trade', 'orders', ...]), of the trade page's
 * balance (['trade', 'balance']) and of every wallet query (['wallet', ...],
 * which the wallet refreshes after any balance change); the test checks them
 * against those features' own query keys.
 */
export const LIVE_KEYS = {
  orders: [['trade', 'orders']] as QueryKey[],
  balances: [['trade', 'balance'], ['wallet']] as QueryKey[],
}

type Group = keyof typeof LIVE_KEYS

/** Coalesces invalidations: one refetch per group per burst of messages. */
export interface UserUpdateInvalidator {
  /** Routes one private message to the queries it makes stale. */
  onMessage(message: PrivateMessage): void
  /** Refreshes everything (after a reconnect, when updates may be missing). */
  all(): void
  /** Drops pending invalidations (unmount). */
  cancel(): void
}

/**
 * Invalidates the order and balance queries when private messages arrive. A
 * trade settles as several messages (two balances, the order); they are
 * gathered for delay ms so the lists refetch once.
 */
export function createUserUpdateInvalidator(queryClient: QueryClient, delay = 250): UserUpdateInvalidator {
  const timers = new Map<Group, ReturnType<typeof setTimeout>>()
  const flush = (group: Group) => {
    timers.delete(group)
    for (const queryKey of LIVE_KEYS[group]) void queryClient.invalidateQueries({ queryKey })
  }
  const schedule = (group: Group) => {
    if (!timers.has(group)) timers.set(group, setTimeout(() => flush(group), delay))
  }
  return {
    onMessage(message) {
      if (message.channel === 'user_orders') schedule('orders')
      else if (message.channel === 'user_balances') schedule('balances')
    },
    all() {
      schedule('orders')
      schedule('balances')
    },
    cancel() {
      for (const t of timers.values()) clearTimeout(t)
      timers.clear()
    },
  }
}

/**
 * While a user is signed in, keeps an authenticated WebSocket open and
 * refreshes the open orders, order history, fills and balances (trade page
 * and wallet) as the user's own order and balance updates arrive, so they
 * change without a reload. Mounted once, in the root layout.
 */
export function useLiveUserUpdates(): void {
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  const userId = user?.id
  useEffect(() => {
    if (userId === undefined || typeof WebSocket === 'undefined') return
    const invalidator = createUserUpdateInvalidator(queryClient)
    const socket = new UserSocket({
      url: () => getConfig().ws,
      token: getToken,
      onMessage: (m) => invalidator.onMessage(m),
      onReady: (resumed) => {
        if (resumed) invalidator.all()
      },
    })
    socket.start()
    return () => {
      socket.stop()
      invalidator.cancel()
    }
  }, [userId, queryClient])
}
