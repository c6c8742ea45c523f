import { describe, expect, it, vi } from 'vitest'
import type { OrderView } from '../api/trade-api'
import { followOrder, outcomeWarning } from './order-outcome'

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
    // A user's own cancel is no surprise; a partial fill is not warned about.
    expect(outcomeWarning('LIMIT', ended(4, 'cancelled'))).toBeUndefined()
    expect(outcomeWarning('MARKET', ended(4, 'ioc_remainder', '0.1'))).toBeUndefined()
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
    expect(outcomeWarning('MARKET', order(4, '0.0001'))).toBeUndefined()
    expect(outcomeWarning('POST_ONLY', order(1))).toBeUndefined()
    for (const type of ['LIMIT', 'POST_ONLY', 'STOP_LIMIT']) expect(outcomeWarning(type, order(4))).toBeUndefined()
  })
  it('looks the order up until it is final', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(order(1)).mockResolvedValue(order(5))
    await expect(followOrder('7', load, { intervalMs: 1, timeoutMs: 1000 })).resolves.toMatchObject({ status: 5 })
    expect(load).toHaveBeenCalledTimes(3)
    expect(load).toHaveBeenCalledWith('7', undefined)
  })
  it('gives up on an order still open at the deadline, or when stopped', async () => {
    const load = vi.fn().mockResolvedValue(order(1))
    await expect(followOrder('7', load, { intervalMs: 5, timeoutMs: 60 })).resolves.toBeUndefined()
    // Waits of 5, 10, 15, 20 ms, then the rest up to the deadline: a few looks, not a busy loop.
    expect(load.mock.calls.length).toBeGreaterThan(1)
    expect(load.mock.calls.length).toBeLessThanOrEqual(6)
    const stop = new AbortController()
    const later = followOrder('7', load, { intervalMs: 10_000, timeoutMs: 60_000, signal: stop.signal })
    stop.abort()
    await expect(later).resolves.toBeUndefined()
  })
})
