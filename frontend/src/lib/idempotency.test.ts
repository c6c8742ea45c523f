import { describe, expect, it } from 'vitest'

import { newRequestId, RetryKeys } from './idempotency'

describe('RetryKeys', () => {
  it('sends the same key again for the same request after no answer, and a new one after an answer', () => {
    const keys = new RetryKeys()
    const order = { symbol: 'btcusdt', side: 'BUY', type: 'LIMIT', price: '50000', volume: '0.1' }
    const first = keys.keyFor(order)
    expect(first).toMatch(/^[A-Za-z0-9-]{8,64}$/)
    // A retry after a timeout: the same key, so the exchange places it once.
    expect(keys.keyFor({ ...order })).toBe(first)
    // A different order is never a retry of the first.
    const other = keys.keyFor({ ...order, price: '50001' })
    expect(other).not.toBe(first)
    // Once the exchange answered, the same order again is a new order.
    keys.answered()
    expect(keys.keyFor({ ...order, price: '50001' })).not.toBe(other)
  })

  it('makes distinct keys', () => {
    expect(new Set(Array.from({ length: 50 }, newRequestId)).size).toBe(50)
  })
})
