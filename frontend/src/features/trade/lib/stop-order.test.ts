import { describe, expect, it } from 'vitest'
import { hasStop, stopOperator, stopState, type StopOrderFields } from './stop-order'

const stopBuy: StopOrderFields = { type: 'STOP_LIMIT', side: 'BUY', status: 1, stop_price: '98000', deal_volume: '0' }
const stopSell: StopOrderFields = { ...stopBuy, side: 'SELL', stop_price: '90000' }

describe('stop-limit orders in the order lists', () => {
  it('states the condition the engine activates on: a buy at or above, a sell at or below', () => {
    expect(stopOperator('BUY')).toBe('≥')
    expect(stopOperator('SELL')).toBe('≤')
    expect(hasStop(stopBuy)).toBe(true)
    expect(hasStop({ stop_price: undefined })).toBe(false)
    expect(hasStop({ stop_price: '0' })).toBe(false)
  })

  it('waits while the last price has not reached the stop', () => {
    expect(stopState(stopBuy, '97000')).toBe('waiting')
    expect(stopState(stopBuy, '98000')).toBe('triggered')
    expect(stopState(stopBuy, '98000.01')).toBe('triggered')
    expect(stopState(stopSell, '90000.01')).toBe('waiting')
    expect(stopState(stopSell, '89999')).toBe('triggered')
  })

  it('knows a stop has triggered once the order traded, and takes the server word first', () => {
    expect(stopState({ ...stopBuy, status: 2, deal_volume: '0.001' }, '97000')).toBe('triggered')
    expect(stopState({ ...stopBuy, triggered: true }, '97000')).toBe('triggered')
    expect(stopState({ ...stopBuy, triggered: false }, '99000')).toBe('waiting')
  })

  it('says nothing of finished orders, orders without a stop, or without a last price', () => {
    expect(stopState({ ...stopBuy, status: 4 }, '97000')).toBeUndefined()
    expect(stopState({ ...stopBuy, type: 'LIMIT', stop_price: undefined }, '97000')).toBeUndefined()
    expect(stopState(stopBuy, undefined)).toBeUndefined()
  })
})
