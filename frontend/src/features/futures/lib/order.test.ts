import { describe, expect, it } from 'vitest'
import { BTCUSDT } from '../test-fixtures'
import { buildOrder, closingSide, marketReferencePrice, validateDraft, wholeContracts, type FuturesDraft } from './order'
import { contractPair } from './contract'
import { CONTRACT_SYMBOL, isContractSymbol, parseFuturesOrdersSearch } from './search'
import { confirmOn } from './page-config'

const limit: FuturesDraft = { side: 'BUY', type: 'LIMIT', price: '50000.0', volume: '10', timeInForce: 'GTC', reduceOnly: false }
const keys = (d: FuturesDraft, ctx = {}, c = BTCUSDT) => validateDraft(d, c, ctx).map((e) => `${e.field}:${e.key}`)

describe('validateDraft', () => {
  it('accepts a limit order on the tick in whole contracts', () => {
    expect(keys(limit)).toEqual([])
    expect(keys({ ...limit, type: 'MARKET', price: '' })).toEqual([])
  })

  it('wants a limit price above 0 on the tick', () => {
    expect(keys({ ...limit, price: '' })).toEqual(['price:priceRequired'])
    expect(keys({ ...limit, price: '0' })).toEqual(['price:priceZero'])
    expect(validateDraft({ ...limit, price: '50000.05' }, BTCUSDT)).toEqual([{ field: 'price', key: 'priceTick', vars: { tick: '0.1' } }])
  })

  it('wants whole contracts from the minimum to the order limit', () => {
    expect(keys({ ...limit, volume: '' })).toEqual(['volume:volumeRequired'])
    expect(keys({ ...limit, volume: '1.5' })).toEqual(['volume:volumeWhole'])
    expect(keys({ ...limit, volume: '2.' })).toEqual(['volume:volumeWhole'])
    expect(keys({ ...limit, volume: '0' })).toEqual(['volume:volumeZero'])
    expect(validateDraft({ ...limit, volume: '3' }, { ...BTCUSDT, minQty: 5 })).toEqual([{ field: 'volume', key: 'volumeMin', vars: { min: '5' } }])
    expect(validateDraft({ ...limit, volume: '1000001' }, BTCUSDT)).toEqual([{ field: 'volume', key: 'volumeMax', vars: { max: '1000000' } }])
  })

  it('refuses what costs more than is available, but not a reduce-only order', () => {
    expect(keys(limit, { cost: '25.25', available: '25.24' })).toEqual(['volume:insufficient'])
    expect(keys(limit, { cost: '25.25', available: '25.25' })).toEqual([])
    expect(keys({ ...limit, reduceOnly: true }, { cost: '25.25', available: '0', closable: 10 })).toEqual([])
  })

  it('keeps a reduce-only order within what it can close', () => {
    expect(validateDraft({ ...limit, reduceOnly: true }, BTCUSDT, { closable: 4 })).toEqual([{ field: 'volume', key: 'reduceOnlyTooLarge', vars: { max: '4' } }])
    expect(keys({ ...limit, reduceOnly: true }, { closable: 0 })).toEqual(['volume:reduceOnlyNothing'])
  })
})

describe('buildOrder', () => {
  it('sends a limit order with its price, time in force and contracts as a number', () => {
    expect(buildOrder({ ...limit, price: '50000.', timeInForce: 'POST_ONLY' }, 'BTCUSDT', 'k1')).toEqual({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      price: '50000',
      timeInForce: 'POST_ONLY',
      volume: 10,
      reduceOnly: false,
      clientOid: 'k1',
    })
  })

  it('sends a market order without a price or a time in force', () => {
    expect(buildOrder({ ...limit, type: 'MARKET', side: 'SELL', reduceOnly: true }, 'BTCUSDT')).toEqual({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', volume: 10, reduceOnly: true })
  })
})

describe('helpers', () => {
  it('reads whole contracts only', () => {
    expect(wholeContracts('12')).toBe(12)
    expect(wholeContracts(' 7 ')).toBe(7)
    expect(wholeContracts('1.0')).toBeUndefined()
    expect(wholeContracts('1e3')).toBeUndefined()
    expect(wholeContracts('')).toBeUndefined()
  })

  it('values a market order at the other side of the book, else the last, else the mark price', () => {
    expect(marketReferencePrice('BUY', { bid: '49990', ask: '50010' }, '50000', '50005')).toBe('50010')
    expect(marketReferencePrice('SELL', { bid: '49990', ask: '50010' }, '50000')).toBe('49990')
    expect(marketReferencePrice('SELL', { ask: '50010' }, '50000')).toBe('50000')
    expect(marketReferencePrice('BUY', undefined, '', '50005')).toBe('50005')
    expect(marketReferencePrice('BUY', undefined, undefined, undefined)).toBeUndefined()
  })

  it('closes a long by selling and a short by buying', () => {
    expect(closingSide('LONG')).toBe('SELL')
    expect(closingSide('SHORT')).toBe('BUY')
  })

  it('matches only contract symbols as the route', () => {
    expect(isContractSymbol('BTCUSDT')).toBe(true)
    expect(isContractSymbol('guide')).toBe(false)
    expect(isContractSymbol('btcusdt')).toBe(false)
    expect(isContractSymbol('BTC')).toBe(false)
    expect(CONTRACT_SYMBOL.test('A'.repeat(21))).toBe(false)
  })

  it('gives the spot components a contract as a pair of its market symbol', () => {
    expect(contractPair(BTCUSDT)).toMatchObject({ symbol: 'btcusdtperp', routeSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', pricePrecision: 1, volumePrecision: 3, priceTick: '0.1' })
  })

  it('keeps only sensible search values of the orders page', () => {
    expect(parseFuturesOrdersSearch({ tab: 'history', symbol: 'BTCUSDT', page: '3' })).toEqual({ tab: 'history', symbol: 'BTCUSDT', page: 3 })
    expect(parseFuturesOrdersSearch({ tab: 'x', symbol: 'btc', page: 1 })).toEqual({})
    for (const tab of ['triggers', 'triggerHistory', 'positionHistory']) expect(parseFuturesOrdersSearch({ tab })).toEqual({ tab })
    expect(parseFuturesOrdersSearch({ page: 2.5 })).toEqual({})
  })

  it('asks for confirmations unless they were turned off', () => {
    expect(confirmOn(undefined, 'orderConfirm')).toBe(true)
    expect(confirmOn({ pageConfig: { orderConfirm: '0' } }, 'orderConfirm')).toBe(false)
    expect(confirmOn({ pageConfig: { orderConfirm: '0' } }, 'closeConfirm')).toBe(true)
    expect(confirmOn({ pageConfig: null }, 'closeConfirm')).toBe(true)
  })
})
