import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MarketSocket } from '@/lib/market-socket'
import { FakeSocket } from '@/test/fake-socket'
import { depthQuery, klineQuery, tickerQuery, tradesQuery } from './trade-api'
import { MARKET_SNAPSHOT_KEYS, useResyncAfterReconnect } from './use-market-connection'

describe('useResyncAfterReconnect', () => {
  let sockets: FakeSocket[]
  let socket: MarketSocket
  let qc: QueryClient
  const keys = [tickerQuery('btcusdt').queryKey, depthQuery('btcusdt', 0).queryKey, tradesQuery('btcusdt').queryKey, klineQuery('btcusdt', '15min').queryKey]
  const other = ['trade', 'orders', 'open', 'btcusdt', 1, 10]
  const stale = () => keys.map((k) => qc.getQueryState(k)?.isInvalidated ?? false)

  beforeEach(() => {
    vi.useFakeTimers()
    sockets = []
    socket = new MarketSocket({
      url: 'ws://x/ws',
      create: (u) => {
        const s = new FakeSocket(u)
        sockets.push(s)
        return s
      },
      baseDelay: 100,
      pingInterval: 0,
    })
    qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
    for (const k of [...keys, other]) qc.setQueryData(k, { seeded: true })
  })
  afterEach(() => {
    socket.close()
    vi.useRealTimers()
  })

  function mount(queryKeys?: Parameters<typeof useResyncAfterReconnect>[0]) {
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>
    return renderHook(() => useResyncAfterReconnect(queryKeys, socket), { wrapper })
  }

  it("covers the trade page's ticker, book, recent trades and candles", () => {
    for (const k of keys) expect(MARKET_SNAPSHOT_KEYS.some((p) => p.every((part, i) => part === k[i]))).toBe(true)
  })

  it('reads the market snapshots again once the socket is back after a drop (pushes of the gap never come), not on the first open', () => {
    socket.subscribe('market_btcusdt_trade_ticker', () => {})
    mount()
    act(() => sockets[0].open())
    expect(stale()).toEqual([false, false, false, false])
    act(() => sockets[0].drop())
    // Still down: nothing to read yet.
    expect(stale()).toEqual([false, false, false, false])
    act(() => vi.advanceTimersByTime(100))
    act(() => sockets[1].open())
    expect(stale()).toEqual([true, true, true, true])
    // The user's own lists have their own resync (the private feed's).
    expect(qc.getQueryState(other)?.isInvalidated).toBe(false)
  })

  it('does nothing when the line merely stops being wanted or is closed', () => {
    const off = socket.subscribe('market_btcusdt_ticker', () => {})
    mount()
    act(() => sockets[0].open())
    act(() => sockets[0].drop())
    expect(socket.isReconnecting).toBe(true)
    act(() => off())
    expect(socket.isReconnecting).toBe(false)
    expect(stale()).toEqual([false, false, false, false])
  })

  it('takes the keys a page names (the market overview: its tickers)', () => {
    const tickers = ['market-tickers']
    qc.setQueryData(tickers, {})
    socket.subscribe('market_btcusdt_ticker', () => {})
    mount([tickers])
    act(() => sockets[0].open())
    act(() => sockets[0].drop())
    act(() => vi.advanceTimersByTime(100))
    act(() => sockets[1].open())
    expect(qc.getQueryState(tickers)?.isInvalidated).toBe(true)
    expect(stale()).toEqual([false, false, false, false])
  })
})
