import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { balanceQuery, openOrdersQuery, orderHistoryQuery, tickerQuery, tradeHistoryQuery } from '@/features/trade/api/trade-api'
import { ordersKeys } from '@/features/orders/api/orders-api'
import { walletKeys } from '@/features/wallet/api/wallet-api'
import { getConfig } from '@/lib/config'
import { getMarketSocket } from '@/lib/market-socket'
import { userInfoKey } from '@/lib/session'
import { FakeSocket } from '@/test/fake-socket'
import { createUserUpdateInvalidator, useLiveUserUpdates } from './use-live-user-updates'
import { isUserFeedReady, subscribeUserChannel } from './user-feed'
import type { PrivateMessage } from './user-socket'

// The keys the trade page and the wallet really use (their own query
// options), so a renamed key fails here instead of silently going stale.
const ORDER_KEYS: QueryKey[] = [
  openOrdersQuery('btcusdt').queryKey,
  orderHistoryQuery('btcusdt').queryKey,
  tradeHistoryQuery('btcusdt').queryKey,
  ordersKeys.open('btcusdt'),
  ordersKeys.fills('42'),
]
const BALANCE_KEYS: QueryKey[] = [balanceQuery.queryKey, walletKeys.fiat('USD'), walletKeys.overview('MNT'), walletKeys.otc('USD')]
// What a deposit or a withdrawal moves: every wallet query, among them the
// history tabs and the deposit modal's recent deposits (the filters the
// history page and the modal build), and the wallet balances.
const DEPOSIT_FILTER = { coinSymbol: 'BTC', page: 1, pageSize: 3 }
const HISTORY_FILTER = { coinSymbol: undefined, status: undefined, startTime: 1_700_000_000_000, page: 2, pageSize: 10 }
const FUNDS_KEYS: QueryKey[] = [
  walletKeys.history('deposit', DEPOSIT_FILTER),
  walletKeys.history('deposit', HISTORY_FILTER),
  walletKeys.history('withdraw', HISTORY_FILTER),
  walletKeys.assets('deposit'),
  walletKeys.overview('MNT'),
  walletKeys.fiat('USD'),
]
const OTHER_KEYS: QueryKey[] = [tickerQuery('btcusdt').queryKey, ['market-tickers'], userInfoKey]

function seeded(): QueryClient {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
  for (const key of [...ORDER_KEYS, ...BALANCE_KEYS, ...FUNDS_KEYS, ...OTHER_KEYS]) qc.setQueryData(key, { seeded: true })
  return qc
}

function stale(qc: QueryClient, keys: QueryKey[]): boolean[] {
  return keys.map((k) => qc.getQueryState(k)?.isInvalidated ?? false)
}

describe('createUserUpdateInvalidator', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('refreshes the order lists on user_orders and the balances on user_balances, once per burst', () => {
    const qc = seeded()
    const spy = vi.spyOn(qc, 'invalidateQueries')
    const inv = createUserUpdateInvalidator(qc, 250)
    inv.onMessage({ channel: 'user_orders', ts: 1, data: { event: 'trade' } })
    inv.onMessage({ channel: 'user_orders', ts: 2, data: { event: 'done' } })
    expect(stale(qc, ORDER_KEYS).some(Boolean)).toBe(false)
    vi.advanceTimersByTime(250)
    expect(stale(qc, ORDER_KEYS).every(Boolean)).toBe(true)
    expect(stale(qc, BALANCE_KEYS)).toEqual([false, false, false, false])
    expect(spy).toHaveBeenCalledTimes(1)

    inv.onMessage({ channel: 'user_balances', ts: 3, data: { coin: 'USDT' } })
    inv.onMessage({ channel: 'user_balances', ts: 4, data: { coin: 'BTC' } })
    vi.advanceTimersByTime(250)
    expect(stale(qc, BALANCE_KEYS)).toEqual([true, true, true, true])
    expect(stale(qc, OTHER_KEYS)).toEqual([false, false, false])
    expect(spy).toHaveBeenCalledTimes(3) // trade balance + wallet
  })

  it('refreshes every wallet query, history and recent deposits included, on deposit and withdraw messages', () => {
    const qc = seeded()
    const spy = vi.spyOn(qc, 'invalidateQueries')
    const inv = createUserUpdateInvalidator(qc, 250)
    // The deposit record as internal/deposit pushes it on each confirmation.
    const deposit = { id: 'd1', coin: 'BTC', chain: 'BTC', txid: 'ab', vout: 0, address: 'bc1q', amount: '0.5', confirmations: 1, requiredConfirmations: 2, status: 'confirming', createTime: 1 }
    inv.onMessage({ channel: 'deposit', ts: 1, data: deposit })
    inv.onMessage({ channel: 'deposit', ts: 2, data: { ...deposit, confirmations: 2, status: 'credited' } })
    vi.advanceTimersByTime(249)
    expect(stale(qc, FUNDS_KEYS).some(Boolean)).toBe(false)
    vi.advanceTimersByTime(1)
    expect(stale(qc, FUNDS_KEYS).every(Boolean)).toBe(true)
    expect(stale(qc, ORDER_KEYS).some(Boolean)).toBe(false)
    expect(stale(qc, [balanceQuery.queryKey, ...OTHER_KEYS]).some(Boolean)).toBe(false)
    expect(spy).toHaveBeenCalledTimes(1)
    expect(spy).toHaveBeenLastCalledWith({ queryKey: walletKeys.all })

    const qc2 = seeded()
    const inv2 = createUserUpdateInvalidator(qc2, 250)
    inv2.onMessage({ channel: 'withdraw', ts: 3, data: { id: 'w1', kind: 'chain', coin: 'USDT', status: 'PROCESSING', createTime: 1, updateTime: 2 } })
    vi.advanceTimersByTime(250)
    expect(stale(qc2, FUNDS_KEYS).every(Boolean)).toBe(true)
    expect(stale(qc2, [...ORDER_KEYS, balanceQuery.queryKey, ...OTHER_KEYS]).some(Boolean)).toBe(false)
  })

  it('coalesces a credited deposit and its balance message into one refresh of each query', () => {
    const qc = seeded()
    const spy = vi.spyOn(qc, 'invalidateQueries')
    const inv = createUserUpdateInvalidator(qc, 250)
    inv.onMessage({ channel: 'deposit', ts: 1, data: { id: 'd1', status: 'credited' } })
    inv.onMessage({ channel: 'user_balances', ts: 1, data: { coin: 'BTC', normal: '0.5', lock: '0' } })
    inv.onMessage({ channel: 'withdraw', ts: 2, data: { id: 'w1', status: 'PENDING' } })
    vi.advanceTimersByTime(250)
    expect(stale(qc, [...BALANCE_KEYS, ...FUNDS_KEYS]).every(Boolean)).toBe(true)
    // ['trade', 'balance'] and ['wallet'] once each, not the wallet twice.
    const invalidated = spy.mock.calls.map((c) => c[0]?.queryKey)
    expect(invalidated).toHaveLength(2)
    expect(invalidated).toEqual(expect.arrayContaining([balanceQuery.queryKey, walletKeys.all]))
  })

  it('refreshes everything after a reconnect and drops pending work on cancel', () => {
    const qc = seeded()
    const inv = createUserUpdateInvalidator(qc, 250)
    inv.all()
    vi.advanceTimersByTime(250)
    expect(stale(qc, [...ORDER_KEYS, ...BALANCE_KEYS, ...FUNDS_KEYS]).every(Boolean)).toBe(true)
    expect(stale(qc, OTHER_KEYS)).toEqual([false, false, false])

    const qc2 = seeded()
    const inv2 = createUserUpdateInvalidator(qc2, 250)
    inv2.onMessage({ channel: 'user_orders' })
    inv2.cancel()
    vi.advanceTimersByTime(1000)
    expect(stale(qc2, ORDER_KEYS).some(Boolean)).toBe(false)
  })
})

describe('useLiveUserUpdates', () => {
  const RealWebSocket = globalThis.WebSocket
  beforeEach(() => {
    vi.useFakeTimers()
    FakeSocket.instances = []
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket
  })
  afterEach(() => {
    globalThis.WebSocket = RealWebSocket
    vi.useRealTimers()
  })

  function mount(qc: QueryClient) {
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>
    return renderHook(() => useLiveUserUpdates(), { wrapper })
  }

  it('stays offline while nobody is signed in', () => {
    const qc = seeded()
    qc.setQueryData(userInfoKey, null)
    document.cookie = 'token=tok-anon; path=/'
    mount(qc)
    expect(FakeSocket.instances).toHaveLength(0)
  })

  it('authenticates the socket of a signed-in user and refreshes orders, balances and deposits as updates arrive', () => {
    const qc = seeded()
    qc.setQueryData(userInfoKey, { id: '10000001', email: 'a@example.mn' })
    document.cookie = 'token=tok-9; path=/'
    const { unmount } = mount(qc)
    expect(FakeSocket.instances).toHaveLength(1)
    const ws = FakeSocket.instances[0]
    expect(ws.url).toBe(getConfig().ws)
    act(() => ws.open())
    expect(ws.sent).toEqual([{ event: 'auth', params: { token: 'tok-9' } }])
    act(() => ws.push({ event_rep: 'auth', status: 'ok' }))

    act(() => ws.push({ channel: 'user_orders', ts: 1, data: { order_id: '5', event: 'done', status_text: 'CANCELLED' } }))
    act(() => vi.advanceTimersByTime(300))
    expect(stale(qc, ORDER_KEYS).every(Boolean)).toBe(true)
    expect(stale(qc, BALANCE_KEYS)).toEqual([false, false, false, false])

    act(() => ws.push({ channel: 'user_balances', ts: 2, data: { coin: 'USDT', normal: '100', lock: '0' } }))
    act(() => vi.advanceTimersByTime(300))
    expect(stale(qc, BALANCE_KEYS)).toEqual([true, true, true, true])
    expect(stale(qc, OTHER_KEYS)).toEqual([false, false, false])

    // A deposit confirmation refreshes the history and the deposit modal's list.
    for (const key of FUNDS_KEYS) qc.setQueryData(key, { seeded: 2 })
    expect(stale(qc, FUNDS_KEYS).some(Boolean)).toBe(false)
    act(() => ws.push({ channel: 'deposit', ts: 3, data: { id: 'd1', coin: 'BTC', confirmations: 1, requiredConfirmations: 2, status: 'confirming' } }))
    act(() => vi.advanceTimersByTime(300))
    expect(stale(qc, FUNDS_KEYS).every(Boolean)).toBe(true)
    expect(stale(qc, OTHER_KEYS)).toEqual([false, false, false])
    // It is the only socket: the wallet opens none of its own.
    expect(FakeSocket.instances).toHaveLength(1)

    unmount()
    expect(ws.closed).toBe(true)
  })

  it("passes the socket's messages to the features listening to their channel, and says when they can arrive", () => {
    const qc = seeded()
    qc.setQueryData(userInfoKey, { id: '10000001', email: 'a@example.mn' })
    document.cookie = 'token=tok-9; path=/'
    const orders: PrivateMessage[] = []
    const balances: PrivateMessage[] = []
    // A broken listener does not keep the message from the next one.
    const failing = subscribeUserChannel('user_orders', () => {
      throw new Error('a broken listener')
    })
    const stopOrders = subscribeUserChannel('user_orders', (m) => orders.push(m))
    const stopBalances = subscribeUserChannel('user_balances', (m) => balances.push(m))
    expect(isUserFeedReady()).toBe(false)
    const { unmount } = mount(qc)
    const ws = FakeSocket.instances[0]
    act(() => ws.open())
    expect(isUserFeedReady()).toBe(false)
    act(() => ws.push({ event_rep: 'auth', status: 'ok' }))
    expect(isUserFeedReady()).toBe(true)

    // The order view as internal/userfeed pushes it: spot.OrderView plus event.
    const done = {
      channel: 'user_orders',
      ts: 5,
      data: { event: 'done', order_id: '42', symbol: 'btcusdt', type: 'POST_ONLY', status: 5, status_text: 'REJECTED', end_reason: 'post_only_would_take', deal_volume: '0' },
    }
    const balance = { channel: 'user_balances', ts: 6, data: { coin: 'USDT', normal: '100', lock: '0' } }
    act(() => ws.push(done))
    act(() => ws.push(balance))
    act(() => ws.push({ channel: 'market_btcusdt_ticker', ts: 7, tick: { close: '1' } }))
    expect(orders).toEqual([done])
    expect(balances).toEqual([balance])
    // The lists still refresh: the listeners come on top of the invalidation.
    act(() => vi.advanceTimersByTime(300))
    expect(stale(qc, ORDER_KEYS).every(Boolean)).toBe(true)

    stopOrders()
    act(() => ws.push(done))
    expect(orders).toHaveLength(1)
    act(() => ws.drop())
    expect(isUserFeedReady()).toBe(false)
    act(() => vi.advanceTimersByTime(1000))
    const again = FakeSocket.instances[1]
    act(() => again.open())
    act(() => again.push({ event_rep: 'auth', status: 'ok' }))
    expect(isUserFeedReady()).toBe(true)
    act(() => again.push(balance))
    expect(balances).toHaveLength(2)
    // Still the app's one private socket at a time.
    expect(FakeSocket.instances.filter((s) => !s.closed && s.readyState !== 3)).toHaveLength(1)

    unmount()
    expect(isUserFeedReady()).toBe(false)
    stopBalances()
    failing()
  })

  it('shares the market socket of the trade page: one WebSocket carries the market channels and the private feed', () => {
    const qc = seeded()
    qc.setQueryData(userInfoKey, { id: '10000001', email: 'a@example.mn' })
    document.cookie = 'token=tok-9; path=/'
    const ticker = vi.fn()
    const off = getMarketSocket().subscribe('market_btcusdt_ticker', ticker)
    const orders: PrivateMessage[] = []
    const stopOrders = subscribeUserChannel('user_orders', (m) => orders.push(m))
    const { unmount } = mount(qc)
    expect(FakeSocket.instances).toHaveLength(1)
    const ws = FakeSocket.instances[0]
    act(() => ws.open())
    expect(ws.sent).toEqual([
      { event: 'auth', params: { token: 'tok-9' } },
      { event: 'sub', params: { channel: 'market_btcusdt_ticker' } },
    ])
    act(() => ws.push({ event_rep: 'auth', status: 'ok' }))
    expect(isUserFeedReady()).toBe(true)
    const order = { channel: 'user_orders', ts: 1, data: { order_id: '5', event: 'placed' } }
    act(() => ws.push(order))
    act(() => ws.push({ channel: 'market_btcusdt_ticker', ts: 2, tick: { close: '1' } }))
    expect(orders).toEqual([order])
    expect(ticker).toHaveBeenCalledTimes(1)

    // The socket drops (the server restarts): one reconnect, auth and subs again.
    act(() => ws.drop())
    act(() => vi.advanceTimersByTime(1000))
    expect(FakeSocket.instances).toHaveLength(2)
    const again = FakeSocket.instances[1]
    act(() => again.open())
    expect(again.sent).toEqual([
      { event: 'auth', params: { token: 'tok-9' } },
      { event: 'sub', params: { channel: 'market_btcusdt_ticker' } },
    ])
    act(() => again.push({ event_rep: 'auth', status: 'ok' }))
    expect(isUserFeedReady()).toBe(true)

    // Signing out (unmount) keeps the market data on a fresh, unauthenticated connection.
    unmount()
    expect(again.closed).toBe(true)
    expect(FakeSocket.instances).toHaveLength(3)
    act(() => FakeSocket.instances[2].open())
    expect(FakeSocket.instances[2].sent).toEqual([{ event: 'sub', params: { channel: 'market_btcusdt_ticker' } }])
    off()
    stopOrders()
    getMarketSocket().close()
  })
})
