import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { isUserFeedReady } from '@/features/live-updates/user-feed'
import { useMarketSocketOpen } from '@/features/trade/api/use-market-connection'
import { getMarketSocket, type LineClient, type MarketMessage, type MarketSocket } from '@/lib/market-socket'
import { futuresKeys, LIVE_POLL_MS, POLL_MS, type MarketInfo } from './futures-api'

/**
 * The futures screens' share of the signed-in user's private feed. After
 * sign-in the app's one WebSocket is authenticated (features/live-updates
 * owns that), and the server pushes `user_futures` whenever one of the
 * user's positions, orders or trigger orders changes:
 *
 *   {"channel": "user_futures", "ts": …, "data": {"event": "position" | "order" | "trigger", "symbol": "BTCUSDT", "id"?, "status"?}}
 *
 * The message says what changed, not how: the screens read it again. This
 * module watches the shared line as a passive client (it never keeps the
 * line open itself, and it needs no change to the app-wide feed, which is
 * part of the first load): it hands the messages to the futures pages and
 * tells whether the feed is up, so their polling can slow from
 * {@link POLL_MS} to {@link LIVE_POLL_MS} (kept as the fallback).
 */

/** The private channel of futures changes (internal/userfeed ChannelFutures). */
export const FUTURES_CHANNEL = 'user_futures'

/** The data of a user_futures message. */
export interface FuturesUpdate {
  event: 'position' | 'order' | 'trigger'
  symbol: string
  /** The order's or trigger order's id. */
  id?: string
  status?: string
}

/** What a futures page does with the feed. */
export interface FuturesFeedListener {
  /** One change of the user's. */
  onUpdate?(update: FuturesUpdate): void
  /** The feed came back after a drop: changes may have been missed. */
  onResume?(): void
}

/** The part of the shared socket the feed uses. */
export type FeedLine = Pick<MarketSocket, 'attach' | 'onStateChange'>

/** Reads a pushed frame as a futures update (undefined for anything else). */
export function futuresUpdateOf(frame: Record<string, unknown>): FuturesUpdate | undefined {
  if (frame.channel !== FUTURES_CHANNEL || frame.event_rep !== undefined) return undefined
  const data = frame.data as Partial<FuturesUpdate> | null | undefined
  if (!data || typeof data !== 'object') return undefined
  if (data.event !== 'position' && data.event !== 'order' && data.event !== 'trigger') return undefined
  return { event: data.event, symbol: typeof data.symbol === 'string' ? data.symbol : '', id: data.id, status: data.status }
}

/** The futures feed over a line; one per app ({@link futuresFeed}), others in tests. */
export class FuturesFeed {
  private readonly listeners = new Set<FuturesFeedListener>()
  private readonly watchers = new Set<() => void>()
  private detachers: (() => void)[] = []
  private live = false
  private wasLive = false
  private readonly line: () => FeedLine
  private readonly ready: () => boolean

  constructor(line: () => FeedLine, ready: () => boolean) {
    this.line = line
    this.ready = ready
  }

  /** True while the private feed is up (the line open and the user's token accepted). */
  get isLive(): boolean {
    return this.ready()
  }

  /** Listens to the user's futures changes; returns the remover. */
  listen(listener: FuturesFeedListener): () => void {
    this.listeners.add(listener)
    this.wake()
    return () => {
      this.listeners.delete(listener)
      this.sleep()
    }
  }

  /** Calls fn whenever {@link isLive} may have changed; returns the remover (fits useSyncExternalStore). */
  watch(fn: () => void): () => void {
    this.watchers.add(fn)
    this.wake()
    return () => {
      this.watchers.delete(fn)
      this.sleep()
    }
  }

  private wake(): void {
    if (this.detachers.length > 0) return
    const line = this.line()
    const client: LineClient = {
      // Passive: the feed's owner keeps the line open while someone is signed in.
      wanted: () => false,
      onOpen: () => this.check(),
      onClose: () => this.check(),
      onMessage: (m) => {
        // The auth answer reaches the clients one by one: look once the app's feed has read it.
        if (m.event_rep === 'auth') setTimeout(() => this.check(), 0)
        const update = futuresUpdateOf(m)
        if (update) for (const l of [...this.listeners]) l.onUpdate?.(update)
      },
    }
    this.detachers = [line.attach(client), line.onStateChange(() => this.check())]
    this.live = this.ready()
    this.wasLive = this.live
  }

  private sleep(): void {
    if (this.listeners.size > 0 || this.watchers.size > 0) return
    for (const detach of this.detachers) detach()
    this.detachers = []
  }

  /** Tells the watchers when the feed went up or down, and the listeners when it came back. */
  check(): void {
    const now = this.ready()
    if (now === this.live) return
    this.live = now
    this.watchers.forEach((fn) => fn())
    if (now && this.wasLive) for (const l of [...this.listeners]) l.onResume?.()
    if (now) this.wasLive = true
  }
}

/** The app's futures feed, on the app's one WebSocket. */
export const futuresFeed = new FuturesFeed(getMarketSocket, isUserFeedReady)

/** True while user_futures is connected (the page re-renders when that changes). */
export function useFuturesLive(feed: FuturesFeed = futuresFeed): boolean {
  return useSyncExternalStore(
    (fn) => feed.watch(fn),
    () => feed.isLive,
    () => false,
  )
}

/** The polling interval of the signed-in futures queries: 2 s, or 10 s while the feed tells of each change. */
export function usePollMs(factor = 1): number {
  return (useFuturesLive() ? LIVE_POLL_MS : POLL_MS) * factor
}

/** The queries a change makes stale, by what changed. */
export const LIVE_FUTURES_KEYS: Record<FuturesUpdate['event'], QueryKey[]> = {
  // A position moves the account (margin, PnL), ends in the history, and counts in the statistics.
  position: [futuresKeys.assets, futuresKeys.closed, futuresKeys.stats],
  // An order holds margin; its fills change the lists of orders and trades, and the statistics.
  order: [futuresKeys.assets, futuresKeys.orders, futuresKeys.stats],
  trigger: [futuresKeys.triggers],
}

/** Everything private of the futures screens (after a resumed feed). */
const ALL_KEYS: QueryKey[] = [futuresKeys.assets, futuresKeys.orders, futuresKeys.triggers, futuresKeys.closed, futuresKeys.stats]

/**
 * Refetches what a burst of changes made stale, each query once: a fill
 * comes as an order and a position message (and a trigger's, when one
 * fired), gathered for `delay` ms.
 */
export function createFuturesInvalidator(queryClient: QueryClient, delay = 150) {
  const pending = new Map<string, QueryKey>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    const keys = [...pending.values()]
    pending.clear()
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
  }
  const add = (keys: QueryKey[]) => {
    for (const k of keys) pending.set(JSON.stringify(k), k)
    timer ??= setTimeout(flush, delay)
  }
  return {
    onUpdate: (u: FuturesUpdate) => add(LIVE_FUTURES_KEYS[u.event]),
    onResume: () => add(ALL_KEYS),
    cancel: () => {
      clearTimeout(timer)
      timer = undefined
      pending.clear()
    },
  }
}

/**
 * While a futures page is open, reads the account, positions, orders and
 * trigger orders again as soon as the server says they changed (mounted
 * once per page; the lists keep polling, slower while this works).
 */
export function useFuturesLiveUpdates(enabled: boolean, feed: FuturesFeed = futuresFeed): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!enabled) return
    const invalidator = createFuturesInvalidator(queryClient)
    const stop = feed.listen(invalidator)
    return () => {
      stop()
      invalidator.cancel()
    }
  }, [enabled, feed, queryClient])
}

/**
 * A contract's mark channel, `market_<marketSymbol>_mark` (internal/futures/marks.go): the
 * price loop pushes the mark and index prices and the funding, as public_market_info shows
 * them, whenever one of them changed (at most once a second):
 *
 *   {"channel": "market_btcusdtperp_mark", "ts": …, "tick": {"symbol": "BTCUSDT", "markPrice": "50010.0",
 *    "indexPrice": "50005.0", "fundingRate": "0.0001", "lastFundingRate": "0.0001", "nextFundingTime": …, "time": …}}
 */
export const markChannel = (marketSymbol: string) => `market_${marketSymbol}_mark`

/** What the mark channel pushes: these fields of {@link MarketInfo}. */
export type MarkUpdate = Pick<MarketInfo, 'symbol' | 'markPrice' | 'indexPrice' | 'fundingRate' | 'lastFundingRate' | 'nextFundingTime' | 'time'>

/** Reads a mark channel's message (undefined for anything else). */
export function markUpdateOf(message: MarketMessage): MarkUpdate | undefined {
  const t = message.tick as Partial<MarkUpdate> | null | undefined
  if (!t || typeof t !== 'object') return undefined
  const { symbol, markPrice, indexPrice, fundingRate, lastFundingRate, nextFundingTime, time } = t
  if (typeof symbol !== 'string' || typeof markPrice !== 'string' || typeof indexPrice !== 'string') return undefined
  if (typeof fundingRate !== 'string' || typeof lastFundingRate !== 'string') return undefined
  if (typeof nextFundingTime !== 'number' || typeof time !== 'number') return undefined
  return { symbol, markPrice, indexPrice, fundingRate, lastFundingRate, nextFundingTime, time }
}

/**
 * Shows a pushed mark at once: it goes into the contract's public_market_info and its
 * price_list entry (what those hold already when it is older is kept; before the first
 * answer there is nothing to complete, and the answer comes soon).
 */
export function applyMark(queryClient: QueryClient, update: MarkUpdate): void {
  const merge = (old: MarketInfo) => (old.time > update.time ? old : { ...old, ...update })
  queryClient.setQueryData<MarketInfo>(futuresKeys.market(update.symbol), (old) => old && merge(old))
  queryClient.setQueryData<MarketInfo[]>(futuresKeys.prices, (list) => list?.map((m) => (m.symbol === update.symbol ? merge(m) : m)))
}

/** How often public_market_info is read while the mark channel is not pushing. */
export const MARK_POLL_MS = 3000
/** ... and while it is: only a fallback (the open interest and insurance fund have no channel). */
export const LIVE_MARK_POLL_MS = 15_000

/**
 * Listens to a contract's mark channel while mounted and answers how often its
 * public_market_info should be read: {@link LIVE_MARK_POLL_MS} once a mark has arrived
 * on the open socket, {@link MARK_POLL_MS} otherwise (the socket down, or nothing pushed
 * since it opened: a server without the channel, or a mark that has not moved).
 */
export function useMarkChannel(contract: { symbol: string; marketSymbol: string }, socket: MarketSocket = getMarketSocket()): number {
  const queryClient = useQueryClient()
  const channel = markChannel(contract.marketSymbol)
  // The channel a mark last arrived on since the socket (re)opened.
  const [pushedOn, setPushedOn] = useState<string>()
  useEffect(() => {
    const stopState = socket.onStateChange((open) => {
      if (!open) setPushedOn(undefined)
    })
    const stop = socket.subscribe(channel, (m) => {
      const update = markUpdateOf(m)
      if (!update || update.symbol !== contract.symbol) return
      applyMark(queryClient, update)
      setPushedOn(channel)
    })
    return () => {
      stop()
      stopState()
    }
  }, [socket, channel, contract.symbol, queryClient])
  const open = useMarketSocketOpen(socket)
  return open && pushedOn === channel ? LIVE_MARK_POLL_MS : MARK_POLL_MS
}
