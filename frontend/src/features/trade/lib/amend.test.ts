import { describe, expect, it } from 'vitest'
import { BTC_USDT } from '../test-pair'
import { canAmend, validateAmend } from './amend'

const order = { type: 'LIMIT', status: 1, price: '60000', volume: '0.01', deal_volume: '0' }

describe('amending an order', () => {
  it('is offered for open resting orders only', () => {
    expect(canAmend(order)).toBe(true)
    expect(canAmend({ ...order, type: 'POST_ONLY', status: 2 })).toBe(true)
    expect(canAmend({ ...order, type: 'STOP_LIMIT' })).toBe(true)
    expect(canAmend({ ...order, type: 'MARKET' })).toBe(false)
    expect(canAmend({ ...order, type: 'IOC' })).toBe(false)
    expect(canAmend({ ...order, status: 3 })).toBe(false)
    expect(canAmend({ ...order, status: 4 })).toBe(false)
    // A market buy by quote has no base amount to reduce.
    expect(canAmend({ ...order, volume: '0' })).toBe(false)
  })

  it('takes an amount below the current one and above the filled part, on the lot grid', () => {
    expect(validateAmend(order, '', BTC_USDT)).toEqual({ key: 'required' })
    expect(validateAmend(order, '0', BTC_USDT)).toEqual({ key: 'required' })
    expect(validateAmend(order, '0.01', BTC_USDT)).toEqual({ key: 'range', vars: { amount: '0.01', filled: '0' } })
    expect(validateAmend(order, '0.02', BTC_USDT)?.key).toBe('range')
    const part = { ...order, status: 2, deal_volume: '0.004' }
    expect(validateAmend(part, '0.004', BTC_USDT)).toEqual({ key: 'range', vars: { amount: '0.01', filled: '0.004' } })
    expect(validateAmend(order, '0.0050001', BTC_USDT)).toEqual({ key: 'lot', vars: { lot: '0.000001' } })
    expect(validateAmend(order, '0.005', BTC_USDT)).toBeUndefined()
  })

  it('leaves at least the minimum amount and order value to fill', () => {
    // 0.00001 BTC minimum; at 60,000 USDT, 5 USDT is 0.0000834 BTC.
    const part = { ...order, status: 2, deal_volume: '0.004' }
    expect(validateAmend(part, '0.004005', BTC_USDT)).toEqual({ key: 'minQty', vars: { min: '0.00001', coin: 'BTC' } })
    expect(validateAmend(part, '0.004050', BTC_USDT)).toEqual({ key: 'minNotional', vars: { min: '5', coin: 'USDT' } })
    expect(validateAmend(part, '0.004084', BTC_USDT)).toBeUndefined()
  })
})
