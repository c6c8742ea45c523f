import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect } from 'react'
import { getToken } from '@/lib/cookies'
import { useUserInfo } from '@/lib/session'
import { attachUserFeed, publishUserMessage } from './user-feed'
import { UserSocket, type PrivateChannel, type PrivateMessage } from './user-socket'

/**
 * Query-key prefixes refreshed by private updates, per group of channels.
 * They are the prefixes of the order lists of the trade page and the orders
 * pages (open orders, order history, trades, fills: ['trade', 'orders', ...]),
 * of the trade page's balance (['trade', 'balance']) and of every wallet
 * query (['wallet', ...]: balances, views, the deposit modal's recent
 * deposits and the history, which all move with a balance change or with a
 * deposit or withdrawal); the test checks them against those features' own
 * query keys.
 */
export const LIVE_KEYS = {
  orders: [['trade', 'orders']] as QueryKey[],
  balances: [['trade', 'balance'], ['wallet']] as QueryKey[],
  funds: [['wallet']] as QueryKey[],
}

type Group = keyof typeof LIVE_KEYS

/** The group of queries a private channel makes stale. */
const CHANNEL_GROUP: Record<PrivateChannel, Group> = {
  user_orders: 'orders',
  user_balances: 'balances',
  deposit: 'funds',
  withdraw: 'funds',
}

/** Coalesces invalidations: one refetch per query per burst of messages. */
export interface UserUpdateInvalidator {
  /** Routes one private message to the queries it makes stale. */
  onMessage(message: PrivateMessage): void
  /** Refreshes everything (after a reconnect, when updates may be missing). */
  all(): void
  /** Drops pending invalidations (unmount). */
  cancel(): void
}

const isPrefix = (prefix: QueryKey, key: QueryKey) =>
  prefix.length <= key.length && prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]))

/**
 * The keys to invalidate for some groups, each once: a key that a shorter
 * key of the set already covers (['wallet'] covers ['wallet', 'fiat']) is
 * left out.
 */
function keysOf(groups: Iterable<Group>): QueryKey[] {
  const unique = new Map<string, QueryKey>()
  for (const group of groups) for (const key of LIVE_KEYS[group]) unique.set(JSON.stringify(key), key)
  const keys = [...unique.values()]
  return keys.filter((key) => !keys.some((other) => other.length < key.length && isPrefix(other, key)))
}

/**
 * Invalidates the order, balance and wallet queries when private messages
 * arrive. A trade settles as several messages (two balances, the order), a
 * credited deposit as a deposit and a balance message; they are gathered
 * for delay ms so each list refetches once.
 */
export function createUserUpdateInvalidator(queryClient: QueryClient, delay = 250): UserUpdateInvalidator {
  const pending = new Set<Group>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    const keys = keysOf(pending)
    pending.clear()
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
  }
  const schedule = (group: Group) => {
    pending.add(group)
    timer ??= setTimeout(flush, delay)
  }
  return {
    onMessage(message) {
      const group = CHANNEL_GROUP[message.channel]
      if (group) schedule(group)
    },
    all() {
      for (const group of Object.keys(LIVE_KEYS) as Group[]) schedule(group)
    },
    cancel() {
      clearTimeout(timer)
      timer = undefined
      pending.clear()
    },
  }
}

/**
 * While a user is signed in, keeps an authenticated WebSocket open and
 * refreshes the open orders, order history, fills, balances (trade page and
 * wallet) and the wallet's deposits and withdrawals (history, the deposit
 * modal's confirmations) as the user's own updates arrive, so they change
 * without a reload. Mounted once, in the root layout; it is the app's only
 * private feed, and it shares the one WebSocket with the market channels.
 * Other features get its messages through user-feed
 * (subscribeUserChannel).
 */
export function useLiveUserUpdates(): void {
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  const userId = user?.id
  useEffect(() => {
    if (userId === undefined || typeof WebSocket === 'undefined') return
    const invalidator = createUserUpdateInvalidator(queryClient)
    // Rides on the app's one WebSocket (the market socket): no second connection.
    const socket = new UserSocket({
      token: getToken,
      onMessage: (m) => {
        invalidator.onMessage(m)
        publishUserMessage(m)
      },
      onReady: (resumed) => {
        if (resumed) invalidator.all()
      },
    })
    const detach = attachUserFeed(socket)
    socket.start()
    return () => {
      detach()
      socket.stop()
      invalidator.cancel()
    }
  }, [userId, queryClient])
}
