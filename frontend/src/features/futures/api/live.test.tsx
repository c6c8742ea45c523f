import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LineClient } from '@/lib/market-socket'
import { assetsQuery, closedPositionsQuery, futuresKeys, openOrdersQuery, orderHistoryQuery, statisticsQuery, triggerHistoryQuery, triggerOrdersQuery } from './futures-api'
import { createFuturesInvalidator, FuturesFeed, futuresUpdateOf, useFuturesLive, useFuturesLiveUpdates, type FeedLine } from './live'

/** A line the test drives: the clients attached, its state listeners, and whether the feed is up. */
function fakeLine() {
  const clients = new Set<LineClient>()
  const states = new Set<(open: boolean) => void>()
  const state = { ready: false }
  const line: FeedLine = {
    attach: (c) => {
      clients.add(c)
      return () => clients.delete(c)
    },
    onStateChange: (fn) => {
      states.add(fn)
      return () => states.delete(fn)
    },
  } as FeedLine
  return {
    clients,
    state,
    feed: new FuturesFeed(() => line, () => state.ready),
    push: (m: Record<string, unknown>) => clients.forEach((c) => c.onMessage?.(m)),
    /** The feed goes up or down (the line opens and the token is accepted, or it drops). */
    set: (ready: boolean) => {
      state.ready = ready
      states.forEach((fn) => fn(ready))
    },
  }
}

const update = (event: string, symbol = 'BTCUSDT') => ({ channel: 'user_futures', ts: 1, data: { event, symbol, id: '9', status: 'NEW' } })

describe('futuresUpdateOf', () => {
  it('reads user_futures messages and nothing else', () => {
    expect(futuresUpdateOf(update('order'))).toEqual({ event: 'order', symbol: 'BTCUSDT', id: '9', status: 'NEW' })
    expect(futuresUpdateOf({ channel: 'user_futures', data: { event: 'position', symbol: 'ETHUSDT' } })).toEqual({ event: 'position', symbol: 'ETHUSDT', id: undefined, status: undefined })
    expect(futuresUpdateOf({ channel: 'user_orders', data: { event: 'order' } })).toBeUndefined()
    expect(futuresUpdateOf({ channel: 'user_futures', event_rep: 'sub', data: { event: 'order' } })).toBeUndefined()
    expect(futuresUpdateOf({ channel: 'user_futures', data: { event: 'balance' } })).toBeUndefined()
    expect(futuresUpdateOf({ channel: 'user_futures', data: null })).toBeUndefined()
  })
})

describe('FuturesFeed', () => {
  it('watches the shared line only while someone listens, and never keeps it open itself', () => {
    const l = fakeLine()
    expect(l.clients.size).toBe(0)
    const seen: string[] = []
    const stop = l.feed.listen({ onUpdate: (u) => seen.push(`${u.event}:${u.symbol}`) })
    expect(l.clients.size).toBe(1)
    expect([...l.clients][0].wanted()).toBe(false)
    l.push(update('trigger', 'ETHUSDT'))
    l.push({ channel: 'market_btcusdtperp_ticker', tick: {} })
    expect(seen).toEqual(['trigger:ETHUSDT'])
    stop()
    expect(l.clients.size).toBe(0)
  })

  it('tells its watchers when the feed goes up or down, and its listeners when it comes back after a drop', () => {
    vi.useFakeTimers()
    try {
      const l = fakeLine()
      const changes = vi.fn()
      const resumed = vi.fn()
      l.feed.watch(changes)
      l.feed.listen({ onResume: resumed })
      // Up for the first time: no resume (the page read everything when it opened).
      l.set(true)
      expect(changes).toHaveBeenCalledTimes(1)
      expect(l.feed.isLive).toBe(true)
      expect(resumed).not.toHaveBeenCalled()
      l.set(false)
      expect(changes).toHaveBeenCalledTimes(2)
      // Back: the token's acceptance arrives as a frame; the feed looks once the app's feed has read it.
      l.state.ready = true
      l.push({ event_rep: 'auth', status: 'ok' })
      expect(changes).toHaveBeenCalledTimes(2)
      vi.runAllTimers()
      expect(changes).toHaveBeenCalledTimes(3)
      expect(resumed).toHaveBeenCalledTimes(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('createFuturesInvalidator', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  function seeded() {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } })
    const keys: Record<string, QueryKey> = {
      assets: assetsQuery.queryKey,
      open: openOrdersQuery(undefined, 1, 50).queryKey,
      history: orderHistoryQuery('BTCUSDT', 2, 20).queryKey,
      waiting: triggerOrdersQuery(undefined, 1, 100).queryKey,
      triggerHistory: triggerHistoryQuery(undefined, 1, 20).queryKey,
      closed: closedPositionsQuery(undefined, 1, 20).queryKey,
      stats: statisticsQuery('USDT', 7).queryKey,
      config: futuresKeys.config('BTCUSDT'),
    }
    for (const k of Object.values(keys)) qc.setQueryData(k, { seeded: true })
    const stale = () => Object.fromEntries(Object.entries(keys).map(([name, k]) => [name, qc.getQueryState(k)?.isInvalidated ?? false]))
    return { qc, stale }
  }

  it('reads the account and orders again on an order change, the trigger orders on a trigger change, once per burst', () => {
    const { qc, stale } = seeded()
    const spy = vi.spyOn(qc, 'invalidateQueries')
    const inv = createFuturesInvalidator(qc, 150)
    inv.onUpdate({ event: 'order', symbol: 'BTCUSDT' })
    inv.onUpdate({ event: 'order', symbol: 'BTCUSDT' })
    inv.onUpdate({ event: 'trigger', symbol: 'BTCUSDT' })
    expect(spy).not.toHaveBeenCalled()
    vi.advanceTimersByTime(150)
    expect(spy).toHaveBeenCalledTimes(4)
    expect(stale()).toEqual({ assets: true, open: true, history: true, waiting: true, triggerHistory: true, closed: false, stats: true, config: false })
  })

  it('reads the account, the position history and the statistics on a position change; everything after a resume', () => {
    let s = seeded()
    let inv = createFuturesInvalidator(s.qc, 150)
    inv.onUpdate({ event: 'position', symbol: 'ETHUSDT' })
    vi.advanceTimersByTime(150)
    expect(s.stale()).toMatchObject({ assets: true, open: false, waiting: false, closed: true, stats: true })
    s = seeded()
    inv = createFuturesInvalidator(s.qc, 150)
    inv.onResume()
    vi.advanceTimersByTime(150)
    expect(s.stale()).toEqual({ assets: true, open: true, history: true, waiting: true, triggerHistory: true, closed: true, stats: true, config: false })
  })
})

describe('the hooks', () => {
  it('refetch what a pushed change made stale while the page is open, and say whether the feed is up', async () => {
    const l = fakeLine()
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } })
    qc.setQueryData(assetsQuery.queryKey, { accountList: [], positionList: [] })
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>
    const { result, unmount } = renderHook(
      () => {
        useFuturesLiveUpdates(true, l.feed)
        return useFuturesLive(l.feed)
      },
      { wrapper },
    )
    expect(result.current).toBe(false)
    act(() => l.set(true))
    expect(result.current).toBe(true)
    act(() => l.push(update('position')))
    await vi.waitFor(() => expect(qc.getQueryState(assetsQuery.queryKey)?.isInvalidated).toBe(true))
    unmount()
    expect(l.clients.size).toBe(0)
  })
})
