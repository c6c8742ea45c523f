import { describe, expect, it } from 'vitest'
import { BTCUSDT, HEDGE_LONG, HEDGE_SHORT, LONG, openOrder } from '../test-fixtures'
import { closesPosition, hedgeActionKey, hedgeClosable, hedgeExposure, hedgePositionSide, hedgeSideOf, isHedge } from './hedge'
import { buildOrder, validateDraft } from './order'
import { positionTpsl, tpslRequest } from './tpsl'

describe('hedge mode', () => {
  it('tells the mode and the position side of a record', () => {
    expect(isHedge({ positionMode: 2 })).toBe(true)
    expect(isHedge({ positionMode: 1 })).toBe(false)
    expect(isHedge(undefined)).toBe(false)
    expect(hedgeSideOf({ positionSide: 'LONG' })).toBe('LONG')
    expect(hedgeSideOf({ positionSide: 'BOTH' })).toBeUndefined()
    expect(hedgeSideOf({})).toBeUndefined()
  })

  it('pairs each side with the position it opens or closes', () => {
    expect(hedgePositionSide('BUY', 'open')).toBe('LONG')
    expect(hedgePositionSide('SELL', 'open')).toBe('SHORT')
    expect(hedgePositionSide('SELL', 'close')).toBe('LONG')
    expect(hedgePositionSide('BUY', 'close')).toBe('SHORT')
    expect(closesPosition('SELL', 'LONG')).toBe(true)
    expect(closesPosition('BUY', 'LONG')).toBe(false)
    expect(hedgeActionKey({ side: 'BUY', positionSide: 'LONG' })).toBe('positionMode.actions.openLong')
    expect(hedgeActionKey({ side: 'SELL', positionSide: 'LONG' })).toBe('positionMode.actions.closeLong')
    expect(hedgeActionKey({ side: 'SELL', positionSide: 'SHORT' })).toBe('positionMode.actions.openShort')
    expect(hedgeActionKey({ side: 'BUY', positionSide: 'SHORT' })).toBe('positionMode.actions.closeShort')
    expect(hedgeActionKey({ side: 'BUY', positionSide: 'BOTH' })).toBeUndefined()
  })

  it("counts a side's position and its open orders apart from the other side's", () => {
    const orders = [
      openOrder({ side: 'SELL', positionSide: 'LONG', volume: 3, dealVolume: 1 }),
      openOrder({ side: 'SELL', positionSide: 'SHORT', volume: 4 }),
      openOrder({ side: 'BUY', positionSide: 'SHORT', volume: 5 }),
    ]
    const positions = [HEDGE_LONG, HEDGE_SHORT]
    expect(hedgeExposure(positions, orders, 'BTCUSDT', 'SELL', 'LONG')).toEqual({ position: 10, openSameSide: 2 })
    expect(hedgeExposure(positions, orders, 'BTCUSDT', 'SELL', 'SHORT')).toEqual({ position: -6, openSameSide: 4 })
    expect(hedgeClosable(HEDGE_LONG, orders)).toBe(8)
    expect(hedgeClosable(HEDGE_SHORT, orders)).toBe(1)
  })

  it('sends positionSide instead of reduceOnly and caps a close at what it can close', () => {
    const close = { side: 'SELL' as const, type: 'MARKET' as const, price: '', volume: '9', timeInForce: 'GTC' as const, reduceOnly: false, positionSide: 'LONG' as const }
    expect(buildOrder(close, 'BTCUSDT')).toEqual({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', volume: 9, positionSide: 'LONG' })
    expect(validateDraft(close, BTCUSDT, { closable: 8 })).toEqual([{ field: 'volume', key: 'closeTooLarge', vars: { max: '8' } }])
    expect(validateDraft(close, BTCUSDT, { closable: 0 })[0].key).toBe('closeNothing')
    // An opening order is checked against its cost, not a position.
    expect(validateDraft({ ...close, side: 'BUY' }, BTCUSDT, { closable: 0, cost: '1', available: '100' })).toEqual([])
  })

  it("sets a hedge-mode position's TP/SL on its own side", () => {
    expect(tpslRequest('BTCUSDT', '47000', 'MARK', 'LONG')).toEqual({ symbol: 'BTCUSDT', triggerPrice: '47000', triggerBy: 'MARK', closePosition: true, side: 'SELL', positionSide: 'LONG' })
    expect(tpslRequest('BTCUSDT', '47000', 'MARK')).toEqual({ symbol: 'BTCUSDT', triggerPrice: '47000', triggerBy: 'MARK', closePosition: true })
    const base = { symbol: 'BTCUSDT', type: 'MARKET' as const, price: '', volume: 0, triggerBy: 'MARK' as const, closePosition: true, reduceOnly: true, status: 'NOT_TRIGGERED' as const, reason: '', ctime: 1, mtime: 1 }
    const longSl = { ...base, triggerId: '1', side: 'SELL' as const, triggerPrice: '47000', direction: 'FALL' as const, positionSide: 'LONG' as const }
    const shortSl = { ...base, triggerId: '2', side: 'BUY' as const, triggerPrice: '53000', direction: 'RISE' as const, positionSide: 'SHORT' as const }
    expect(positionTpsl([longSl, shortSl], HEDGE_LONG).sl.map((x) => x.triggerId)).toEqual(['1'])
    expect(positionTpsl([longSl, shortSl], HEDGE_SHORT).sl.map((x) => x.triggerId)).toEqual(['2'])
    // One-way mode matches by the contract and direction, as before.
    expect(positionTpsl([longSl], LONG).sl).toHaveLength(1)
  })
})
