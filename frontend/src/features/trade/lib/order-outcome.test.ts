import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { attachUserFeed, publishUserMessage } from '@/features/live-updates/user-feed'
import type { OrderView } from '../api/trade-api'
import { liveOrderFeed, outcomeWarning, watchOrder, type OrderFeed } from './order-outcome'

const order = (status: number, deal_volume = '0'): OrderView => ({
  order_id: '7',
  symbol: 'btcusdt',
  side: 'BUY',
  type: 'POST_ONLY',
  price: '100',
  volume: '1',
  deal_volume,
  deal_money: '0',
  avg_price: '0',
  status,
  status_text: '',
  created_at: 0,
})

describe('what a placed order came to', () => {
  it("names the engine's reason when the server gives it", () => {
    const ended = (status: number, end_reason: string, deal_volume = '0') => ({ ...order(status, deal_volume), end_reason })
    expect(outcomeWarning('MARKET', ended(5, 'below_min_notional'))).toBe('minValue')
    expect(outcomeWarning('LIMIT', ended(4, 'stp'))).toBe('selfTrade')
    expect(outcomeWarning('MARKET', ended(4, 'ioc_remainder'))).toBe('market')
    expect(outcomeWarning('IOC', ended(4, 'ioc_remainder'))).toBe('ioc')
    expect(outcomeWarning('POST_ONLY', ended(5, 'post_only_would_take'))).toBe('postOnly')
    expect(outcomeWarning('MARKET', ended(4, 'dust'))).toBe('marketFunds')
    // A user's own cancel is no surprise; a partial IOC fill is not warned about.
    expect(outcomeWarning('LIMIT', ended(4, 'cancelled'))).toBeUndefined()
    expect(outcomeWarning('IOC', ended(4, 'ioc_remainder', '0.1'))).toBeUndefined()
    // A market order is expected to fill: the rest cancelled is told.
    expect(outcomeWarning('MARKET', ended(4, 'ioc_remainder', '0.1'))).toBe('marketPartial')
  })

  it('warns about orders that ended without filling, per type', () => {
    expect(outcomeWarning('POST_ONLY', order(5))).toBe('postOnly')
    expect(outcomeWarning('STOP_LIMIT', order(5))).toBe('stopLimit')
    expect(outcomeWarning('FOK', order(4))).toBe('fok')
    expect(outcomeWarning('FOK', order(5, '0.0000'))).toBe('fok')
    expect(outcomeWarning('IOC', order(4))).toBe('ioc')
    expect(outcomeWarning('MARKET', order(4))).toBe('market')
    expect(outcomeWarning('LIMIT', order(5))).toBe('rejected')
    expect(outcomeWarning('IOC', order(5))).toBe('rejected')
  })
  it('says nothing about fills, partial IOCs, open orders or resting orders the user cancelled', () => {
    expect(outcomeWarning('IOC', order(4, '0.3'))).toBeUndefined()
    expect(outcomeWarning('FOK', order(3, '1'))).toBeUndefined()
    expect(outcomeWarning('MARKET', order(3, '1'))).toBeUndefined()
    expect(outcomeWarning('MARKET', order(4, '0.0001'))).toBe('marketPartial')
    expect(outcomeWarning('POST_ONLY', order(1))).toBeUndefined()
    for (const type of ['LIMIT', 'POST_ONLY', 'STOP_LIMIT']) expect(outcomeWarning(type, order(4))).toBeUndefined()
  })
})

/** A feed the test pushes orders into and switches on and off. */
function fakeFeed(ready = true) {
  const listeners = new Set<(o: OrderView) => void>()
  const feed: OrderFeed & { ready: boolean; push(o: OrderView): void; listeners: Set<(o: OrderView) => void> } = {
    ready,
    listeners,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    isReady: () => feed.ready,
    push: (o) => listeners.forEach((l) => l(o)),
  }
  return feed
}

const pushed = (status: number, extra: Partial<OrderView> = {}) => ({ ...order(status), ...extra })

describe('following a placed order', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())
  const opts = { fallbackMs: 2000, timeoutMs: 5000 }

  it('takes the final state from the push, without any look-up', async () => {
    const feed = fakeFeed()
    const load = vi.fn()
    const watch = watchOrder({ ...opts, feed })
    const result = watch.follow('7', load)
    feed.push(pushed(1, { order_id: '7' }))
    feed.push(pushed(5, { order_id: '8' })) // another order of the user
    await vi.advanceTimersByTimeAsync(300)
    feed.push(pushed(5, { order_id: '7', end_reason: 'post_only_would_take' }))
    await expect(result).resolves.toMatchObject({ order_id: '7', status: 5, end_reason: 'post_only_would_take' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(load).not.toHaveBeenCalled()
    expect(feed.listeners.size).toBe(0)
  })

  it('keeps a push that came before the answer to create', async () => {
    const feed = fakeFeed()
    const load = vi.fn()
    const watch = watchOrder({ ...opts, feed })
    feed.push(pushed(1, { order_id: '7' }))
    feed.push(pushed(4, { order_id: '7', end_reason: 'fok_not_filled' }))
    await expect(watch.follow('7', load)).resolves.toMatchObject({ status: 4, end_reason: 'fok_not_filled' })
    expect(load).not.toHaveBeenCalled()
    expect(feed.listeners.size).toBe(0)
  })

  it('never looks up a resting order whose placement was pushed', async () => {
    const feed = fakeFeed()
    const load = vi.fn().mockResolvedValue(order(1))
    const result = watchOrder({ ...opts, feed }).follow('7', load)
    feed.push(pushed(1, { order_id: '7' }))
    await vi.advanceTimersByTimeAsync(4999)
    expect(load).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).resolves.toBeUndefined()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(load).not.toHaveBeenCalled()
    expect(feed.listeners.size).toBe(0)
  })

  it('looks the order up once when the socket is down, and only once', async () => {
    const feed = fakeFeed(false)
    const load = vi.fn().mockResolvedValue(order(5))
    const result = watchOrder({ ...opts, feed }).follow('7', load)
    await vi.advanceTimersByTimeAsync(1999)
    expect(load).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).resolves.toMatchObject({ status: 5 })
    expect(load).toHaveBeenCalledTimes(1)
    expect(load).toHaveBeenCalledWith('7', undefined)

    // Still open at the look: no second one, it gives up at the deadline.
    const resting = vi.fn().mockResolvedValue(order(1))
    const later = watchOrder({ ...opts, feed }).follow('7', resting)
    await vi.advanceTimersByTimeAsync(60_000)
    await expect(later).resolves.toBeUndefined()
    expect(resting).toHaveBeenCalledTimes(1)
  })

  it('looks once when the socket is up but nothing came about the order, and still takes a late push', async () => {
    const feed = fakeFeed()
    const load = vi.fn().mockRejectedValue(new Error('offline'))
    const result = watchOrder({ ...opts, feed }).follow('7', load)
    await vi.advanceTimersByTimeAsync(2000)
    expect(load).toHaveBeenCalledTimes(1)
    feed.push(pushed(4, { order_id: '7', end_reason: 'ioc_remainder' }))
    await expect(result).resolves.toMatchObject({ status: 4 })
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('looks once when the socket went down after the placement was pushed', async () => {
    const feed = fakeFeed()
    const load = vi.fn().mockResolvedValue(order(1))
    const result = watchOrder({ ...opts, feed }).follow('7', load)
    feed.push(pushed(1, { order_id: '7' }))
    feed.ready = false
    await vi.advanceTimersByTimeAsync(60_000)
    await expect(result).resolves.toBeUndefined()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('stops listening when aborted or when the order was not placed', async () => {
    const feed = fakeFeed(false)
    const load = vi.fn()
    const stop = new AbortController()
    const result = watchOrder({ ...opts, feed, signal: stop.signal }).follow('7', load)
    stop.abort()
    await expect(result).resolves.toBeUndefined()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(load).not.toHaveBeenCalled()
    expect(feed.listeners.size).toBe(0)
    await expect(watchOrder({ ...opts, feed, signal: stop.signal }).follow('7', load)).resolves.toBeUndefined()

    const unplaced = watchOrder({ ...opts, feed })
    expect(feed.listeners.size).toBe(1)
    unplaced.stop()
    expect(feed.listeners.size).toBe(0)

    // The form went away while the order was being sent.
    const gone = new AbortController()
    const sending = watchOrder({ ...opts, feed, signal: gone.signal })
    expect(feed.listeners.size).toBe(1)
    gone.abort()
    expect(feed.listeners.size).toBe(0)
    await expect(sending.follow('7', load)).resolves.toBeUndefined()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(load).not.toHaveBeenCalled()
  })

  it("reads the app socket's user_orders messages", async () => {
    const detach = attachUserFeed({ isReady: true })
    expect(liveOrderFeed.isReady()).toBe(true)
    const load = vi.fn()
    const watch = watchOrder(opts)
    // The order view as internal/userfeed pushes it (OrderUpdate: spot.OrderView plus event).
    const data = { event: 'done', ...pushed(5, { order_id: '7', end_reason: 'post_only_would_take' }), fee: '0', fee_coin: 'BTC', updated_at: 1 }
    publishUserMessage({ channel: 'user_balances', ts: 1, data: { coin: 'USDT', status: 5, order_id: '7' } })
    publishUserMessage({ channel: 'user_orders', ts: 1, data: { order_id: '7' } }) // not an order view: ignored
    publishUserMessage({ channel: 'user_orders', ts: 2, data })
    const result = watch.follow('7', load)
    await vi.advanceTimersByTimeAsync(opts.timeoutMs)
    await expect(result).resolves.toEqual(data)
    expect(load).not.toHaveBeenCalled()
    detach()
    expect(liveOrderFeed.isReady()).toBe(false)
  })
})
