import { describe, expect, it } from 'vitest'
import type { TriggerOrder } from '../api/futures-api'
import { positionTrigger } from '../test-fixtures'
import { estimatePnl, positionSideOf, positionTpsl, tpslChanges, tpslDirection, tpslKindOf, tpslRequest, validateTpsl, type TpslCheck } from './tpsl'

const trigger = (over: Partial<TriggerOrder>): TriggerOrder => positionTrigger({ triggerId: '1', ctime: 1, mtime: 1, ...over })

describe('TP/SL sides', () => {
  it("fires a long's take-profit on a rise and its stop-loss on a fall, a short's the reverse", () => {
    expect(tpslDirection('LONG', 'tp')).toBe('RISE')
    expect(tpslDirection('LONG', 'sl')).toBe('FALL')
    expect(tpslDirection('SHORT', 'tp')).toBe('FALL')
    expect(tpslDirection('SHORT', 'sl')).toBe('RISE')
    expect(positionSideOf('BUY')).toBe('LONG')
    expect(positionSideOf('SELL')).toBe('SHORT')
  })

  it("tells a position's TP from its SL, and leaves out what is not one of them", () => {
    const long = { symbol: 'BTCUSDT', side: 'LONG' as const }
    const short = { symbol: 'BTCUSDT', side: 'SHORT' as const }
    expect(tpslKindOf(trigger({ direction: 'RISE' }), long)).toBe('tp')
    expect(tpslKindOf(trigger({ direction: 'FALL' }), long)).toBe('sl')
    expect(tpslKindOf(trigger({ direction: 'FALL' }), short)).toBe('tp')
    expect(tpslKindOf(trigger({ direction: 'RISE' }), short)).toBe('sl')
    // A stop order with a size, another contract's, or one that fired are not the position's TP/SL.
    expect(tpslKindOf(trigger({ closePosition: false, volume: 5 }), long)).toBeUndefined()
    expect(tpslKindOf(trigger({ symbol: 'ETHUSDT' }), long)).toBeUndefined()
    expect(tpslKindOf(trigger({ status: 'TRIGGERED' }), long)).toBeUndefined()
    const list = [trigger({ triggerId: '3', direction: 'FALL', triggerPrice: '47000.0' }), trigger({ triggerId: '2' }), trigger({ triggerId: '1', symbol: 'ETHUSDT' })]
    expect(positionTpsl(list, long)).toEqual({ tp: [list[1]], sl: [list[0]] })
    expect(positionTpsl(undefined, long)).toEqual({ tp: [], sl: [] })
  })
})

describe('validateTpsl', () => {
  const base: TpslCheck = { kind: 'tp', side: 'LONG', price: '', priceTick: '0.1', reference: '50000.0', triggerBy: 'MARK' }
  const key = (over: Partial<TpslCheck>) => validateTpsl({ ...base, ...over })?.key

  it('takes an empty field as none', () => {
    expect(validateTpsl(base)).toBeUndefined()
    expect(key({ price: '  ' })).toBeUndefined()
  })

  it('wants a price above 0 on the tick', () => {
    expect(key({ price: 'abc' })).toBe('invalid')
    expect(key({ price: '0' })).toBe('zero')
    expect(validateTpsl({ ...base, price: '52000.05' })).toEqual({ key: 'tick', vars: { tick: '0.1' } })
    expect(key({ price: '52000.' })).toBeUndefined()
  })

  it('keeps a take-profit on the side it fires from: above the mark for a long, below for a short', () => {
    expect(key({ price: '52000' })).toBeUndefined()
    expect(validateTpsl({ ...base, price: '49000' })).toEqual({ key: 'aboveMark', vars: { price: '50000.0' } })
    // At the mark it would fire at once (the server's 18021).
    expect(key({ price: '50000' })).toBe('aboveMark')
    expect(key({ side: 'SHORT', price: '48000' })).toBeUndefined()
    expect(key({ side: 'SHORT', price: '52000' })).toBe('belowMark')
  })

  it('keeps a stop-loss on the other side, against the last price when it watches the last', () => {
    expect(key({ kind: 'sl', price: '48000' })).toBeUndefined()
    expect(key({ kind: 'sl', price: '51000' })).toBe('belowMark')
    expect(key({ kind: 'sl', side: 'SHORT', price: '51000' })).toBeUndefined()
    expect(validateTpsl({ ...base, kind: 'sl', side: 'SHORT', price: '49990', triggerBy: 'LAST', reference: '50010.0' })).toEqual({ key: 'aboveLast', vars: { price: '50010.0' } })
  })

  it("also checks an order's TP/SL against the order's price", () => {
    // A long to be bought at 51,000 with the mark at 50,000: its take-profit must be above 51,000 too.
    expect(validateTpsl({ ...base, price: '50500', orderPrice: '51000' })).toEqual({ key: 'aboveOrder', vars: { price: '51000' } })
    expect(key({ kind: 'sl', price: '48000', orderPrice: '47000' })).toBe('belowOrder')
    expect(key({ price: '52000', orderPrice: '49000' })).toBeUndefined()
  })

  it('checks nothing against a price it does not have', () => {
    expect(key({ price: '1', reference: undefined })).toBeUndefined()
    expect(key({ price: '1', reference: '' })).toBeUndefined()
  })
})

describe('estimatePnl', () => {
  const btc = { volume: 10, contractValue: '0.001' }
  it('is (exit − entry) × contracts × contract value for a long, the reverse for a short, exactly', () => {
    expect(estimatePnl({ side: 'LONG', entry: '48750.0', exit: '52000.0', ...btc })).toBe('32.5000')
    expect(estimatePnl({ side: 'LONG', entry: '48750.0', exit: '47000', ...btc })).toBe('-17.5000')
    expect(estimatePnl({ side: 'SHORT', entry: '3000.00', exit: '2900.5', volume: 4, contractValue: '0.01' })).toBe('3.9800')
    expect(estimatePnl({ side: 'SHORT', entry: '0.3', exit: '0.1', volume: 3, contractValue: '1' })).toBe('0.6')
  })
  it('is nothing without the numbers', () => {
    expect(estimatePnl({ side: 'LONG', entry: '48750', exit: '', ...btc })).toBeUndefined()
    expect(estimatePnl({ side: 'LONG', entry: undefined, exit: '1', ...btc })).toBeUndefined()
    expect(estimatePnl({ side: 'LONG', entry: '1', exit: '2', volume: 0, contractValue: '0.001' })).toBeUndefined()
    expect(estimatePnl({ side: 'LONG', entry: '1', exit: '0', ...btc })).toBeUndefined()
  })
})

describe('the requests', () => {
  it("sends a TP/SL as a trigger that closes the whole position, at the typed price", () => {
    expect(tpslRequest('BTCUSDT', ' 52000. ', 'LAST')).toEqual({ symbol: 'BTCUSDT', triggerPrice: '52000', triggerBy: 'LAST', closePosition: true })
    // With an order: tied to it (armed by its fill).
    expect(tpslRequest('BTCUSDT', '52000', 'MARK', undefined, '77')).toEqual({
      symbol: 'BTCUSDT',
      triggerPrice: '52000',
      triggerBy: 'MARK',
      closePosition: true,
      parentOrderId: '77',
    })
  })

  it('arms what changed and cancels what it replaces, and leaves an unchanged price alone', () => {
    const tp = trigger({ triggerId: '7', triggerPrice: '52000.0' })
    const sl = trigger({ triggerId: '8', triggerPrice: '47000.0', direction: 'FALL' })
    const current = { tp: [tp], sl: [sl] }
    // The same prices (as typed, 52000 = 52000.0) and the same watched price: nothing to do.
    expect(tpslChanges({ tp: '52000', sl: '47000.0' }, 'MARK', current)).toEqual([])
    // A new take-profit replaces the old; an emptied stop-loss is cancelled.
    expect(tpslChanges({ tp: '53000', sl: '' }, 'MARK', current)).toEqual([
      { kind: 'tp', price: '53000', cancel: [tp] },
      { kind: 'sl', price: '', cancel: [sl] },
    ])
    // Watching the last price instead is a change of both.
    expect(tpslChanges({ tp: '52000', sl: '47000' }, 'LAST', current).map((c) => c.kind)).toEqual(['tp', 'sl'])
    // Where there was none, a price is armed; an empty field with none changes nothing.
    expect(tpslChanges({ tp: '', sl: '46000' }, 'MARK', { tp: [], sl: [] })).toEqual([{ kind: 'sl', price: '46000', cancel: [] }])
  })
})
