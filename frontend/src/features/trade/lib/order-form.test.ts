import { describe, expect, it } from 'vitest'
import { getBundledTexts } from '@/lib/bundled-texts'
import { lookup } from '@/lib/i18n'
import {
  amountFor,
  availablePlaces,
  buildOrderRequest,
  cleanNumberInput,
  farFromLast,
  isMarketBuyByAmount,
  isQuoteEntry,
  marketBuyHold,
  ORDER_TYPES,
  percentFill,
  percentOfBalance,
  stopAlreadyReached,
  totalFor,
  totalPlaces,
  validateOrder,
  type OrderDraft,
  type PairRules,
} from './order-form'

const rules: PairRules = {
  symbol: 'btcusdt',
  base: 'BTC',
  quote: 'USDT',
  pricePrecision: 2,
  volumePrecision: 4,
  priceTick: '0.01',
  lotSize: '0.0001',
  minQty: '0.0001',
  minNotional: '5',
}

const draft = (over: Partial<OrderDraft>): OrderDraft => ({
  side: 'BUY',
  type: 'LIMIT',
  price: '',
  stopPrice: '',
  amount: '',
  total: '',
  ...over,
})

describe('available balance places', () => {
  it("uses the paying coin's own places, and the pair's only when the coin's are not known", () => {
    const usdtMnt = { ...rules, symbol: 'usdtmnt', base: 'USDT', quote: 'MNT', pricePrecision: 1, priceTick: '0.1', lotSize: '0.01' }
    // MNT has 2 places although USDT/MNT prices have 1; USDT has 6 although its lot has 2.
    expect(availablePlaces({ ...usdtMnt, basePlaces: 6, quotePlaces: 2 }, 'BUY')).toBe(2)
    expect(availablePlaces({ ...usdtMnt, basePlaces: 6, quotePlaces: 2 }, 'SELL')).toBe(6)
    expect(availablePlaces(usdtMnt, 'BUY')).toBe(1)
    expect(availablePlaces(usdtMnt, 'SELL')).toBe(2)
  })
})

describe('quote totals', () => {
  const btcMnt: PairRules = { ...rules, symbol: 'btcmnt', quote: 'MNT', pricePrecision: 0, volumePrecision: 6, priceTick: '1', lotSize: '0.000001', minNotional: '5000' }

  // BTC/MNT prices have no decimals, its totals are tugriks with 2.
  it("keeps a total at the quote coin's places, not the price's", () => {
    expect(totalPlaces({ ...btcMnt, quotePlaces: 2 })).toBe(2)
    expect(totalFor('0.123457', '334884288', { ...btcMnt, quotePlaces: 2 })).toBe('41343809.54')
    expect(percentFill(50, 'BUY', 'MARKET', '100000.55', '', { ...btcMnt, quotePlaces: 2 })).toEqual({ amount: '', total: '50000.27' })
    // Without the coin's places, the price's as before.
    expect(totalPlaces(btcMnt)).toBe(0)
    expect(totalFor('0.123457', '334884288', btcMnt)).toBe('41343809')
  })

  // The engine takes a market buy's total on its grid of one tick × one lot (TON/USDT: 0.001 × 0.01): USDT's 6 places would be off it.
  it("never goes finer than the engine's grid of quote amounts", () => {
    expect(totalPlaces({ ...rules, priceTick: '0.001', pricePrecision: 3, lotSize: '0.01', quotePlaces: 6 })).toBe(5)
    expect(totalPlaces({ ...rules, priceTick: '0.01', lotSize: '0.000001', quotePlaces: 6 })).toBe(6)
  })
})

describe('post-only in Mongolian', () => {
  // The home page called it "зөвхөн захиалагч" ("only the orderer"); the trade screens "Зөвхөн мэйкер".
  it('has one name on the home page and the trade and orders screens', () => {
    const name = lookup(getBundledTexts('trade', 'mn-MN'), 'form.types.POST_ONLY')
    expect(name).toBe('Зөвхөн мэйкер')
    expect(lookup(getBundledTexts('orders', 'mn-MN'), 'types.POST_ONLY')).toBe(name)
    const home = lookup(getBundledTexts('home', 'mn-MN'), 'features.items.trade.body') ?? ''
    expect(home.toLowerCase()).toContain(name!.toLowerCase())
    expect(home).not.toContain('захиалагч')
  })

  // The orders screens called fill-or-kill "Бүгд эсвэл цуцлах", the trade screen "Бүгдийг эсвэл цуцлах".
  it.each(['en-US', 'mn-MN'])('names every order type the same on the trade and orders screens (%s)', (locale) => {
    for (const type of ORDER_TYPES) {
      expect(lookup(getBundledTexts('orders', locale), `types.${type}`), type).toBe(lookup(getBundledTexts('trade', locale), `form.types.${type}`))
    }
  })
})

describe('percentage slider', () => {
  it('buys pct of the quote balance floored to the lot', () => {
    expect(percentFill(25, 'BUY', 'LIMIT', '1000', '30000', rules)).toEqual({ amount: '0.0083', total: '249.00' })
    expect(percentFill(100, 'BUY', 'LIMIT', '1000', '30000', rules)).toEqual({ amount: '0.0333', total: '999.00' })
  })
  it('fills only the total of a market buy', () => {
    expect(percentFill(50, 'BUY', 'MARKET', '1000.555', '', rules)).toEqual({ amount: '', total: '500.27' })
  })
  it('sells pct of the base balance', () => {
    expect(percentFill(75, 'SELL', 'LIMIT', '0.12345', '30000', rules)).toEqual({ amount: '0.0925', total: '2775.00' })
    expect(percentFill(100, 'SELL', 'MARKET', '0.5', '', rules)).toEqual({ amount: '0.5000', total: '' })
  })
  it('gives nothing without a balance', () => {
    expect(percentFill(50, 'BUY', 'LIMIT', '0', '30000', rules)).toEqual({ amount: '', total: '' })
  })
})

describe('slider position of a typed amount', () => {
  it('is the share of the balance a sell would sell', () => {
    expect(percentOfBalance(draft({ side: 'SELL', amount: '0.25' }), '1')).toBe(25)
    expect(percentOfBalance(draft({ side: 'SELL', type: 'MARKET', amount: '0.3333' }), '1')).toBe(33)
    expect(percentOfBalance(draft({ side: 'SELL', amount: '0.6666' }), '1')).toBe(67)
  })
  it('is the share of the quote balance a buy would spend', () => {
    // 0.01 BTC at 30000 spends 300 of 1200 USDT.
    expect(percentOfBalance(draft({ price: '30000', amount: '0.01' }), '1200')).toBe(25)
    // Without a price yet, a typed total counts.
    expect(percentOfBalance(draft({ total: '600' }), '1200')).toBe(50)
    expect(percentOfBalance(draft({ type: 'MARKET', total: '900' }), '1200')).toBe(75)
  })
  it('stays within 0..100', () => {
    expect(percentOfBalance(draft({ side: 'SELL', amount: '2' }), '1')).toBe(100)
    expect(percentOfBalance(draft({ side: 'SELL', amount: '' }), '1')).toBe(0)
    expect(percentOfBalance(draft({ side: 'SELL', amount: '0.5' }), '0')).toBe(0)
    expect(percentOfBalance(draft({ side: 'SELL', amount: '0.5' }), undefined)).toBe(0)
  })
  it('comes back to where the slider put it', () => {
    for (const p of [25, 50, 75, 100]) {
      const sell = percentFill(p, 'SELL', 'LIMIT', '0.8', '30000', rules)
      expect(percentOfBalance(draft({ side: 'SELL', price: '30000', ...sell }), '0.8')).toBe(p)
      const buy = percentFill(p, 'BUY', 'MARKET', '1000', '', rules)
      expect(percentOfBalance(draft({ type: 'MARKET', ...buy }), '1000')).toBe(p)
    }
  })
})

describe('percentage fill never offers more than there is', () => {
  it('truncates to the lot and the total places, never rounding up', () => {
    // All of 0.12349999 BTC is cut to the 0.0001 lot, not rounded to 0.1235.
    expect(percentFill(100, 'SELL', 'LIMIT', '0.12349999', '30000', rules).amount).toBe('0.1234')
    // 100% of 586.048883 USDT as a market buy: 586.04, not 586.05.
    expect(percentFill(100, 'BUY', 'MARKET', '586.048883', '', rules).total).toBe('586.04')
    // A buy's amount × price never exceeds the balance.
    const buy = percentFill(100, 'BUY', 'LIMIT', '586.048883', '29999.99', rules)
    expect(buy).toEqual({ amount: '0.0195', total: '584.99' })
  })
  it('follows a coarser lot', () => {
    expect(percentFill(50, 'SELL', 'LIMIT', '7', '2', { ...rules, lotSize: '0.5', volumePrecision: 1 })).toEqual({ amount: '3.5', total: '7.00' })
  })
})

describe('amount and total', () => {
  it('syncs amount and total at the price', () => {
    expect(totalFor('0.0123', '30000.5', rules)).toBe('369.00')
    expect(amountFor('100', '30000', rules)).toBe('0.0033')
    expect(amountFor('100', '', rules)).toBe('')
  })
})

describe('order validation', () => {
  it('accepts a valid limit buy', () => {
    expect(validateOrder(draft({ price: '30000.00', amount: '0.0010' }), rules, '1000')).toEqual([])
  })
  it('requires price and amount', () => {
    const keys = validateOrder(draft({}), rules, '1000').map((e) => e.key)
    expect(keys).toEqual(['priceRequired', 'amountRequired'])
  })
  it('says a typed zero must be more, not that the number is missing', () => {
    const errs = (d: Partial<OrderDraft>) => validateOrder(draft(d), rules, '1000').map((e) => [e.field, e.key])
    expect(errs({ price: '0', amount: '0' })).toEqual([['price', 'priceZero'], ['amount', 'amountZero']])
    expect(errs({ price: '0.00', amount: '0.' })).toEqual([['price', 'priceZero'], ['amount', 'amountZero']])
    expect(errs({ type: 'STOP_LIMIT', price: '30000', stopPrice: '0', amount: '0.001' })).toEqual([['stopPrice', 'stopZero']])
    expect(errs({ type: 'MARKET', total: '0' })).toEqual([['total', 'totalZero']])
    // Nothing, or only a point, is still a missing number.
    expect(errs({ price: '.', amount: '' })).toEqual([['price', 'priceRequired'], ['amount', 'amountRequired']])
    expect(errs({ type: 'STOP_LIMIT', price: '30000', stopPrice: '', amount: '0.001' })).toEqual([['stopPrice', 'stopRequired']])
    expect(errs({ type: 'MARKET', total: '' })).toEqual([['total', 'totalRequired']])
  })
  it('has the words for a zero in both languages', () => {
    for (const key of ['priceZero', 'stopZero', 'amountZero', 'totalZero'])
      for (const lan of ['en-US', 'mn-MN'] as const) expect(lookup(getBundledTexts('trade', lan), `form.errors.${key}`)).toMatch(/0/)
  })
  it('rejects off-grid price and amount', () => {
    const errs = validateOrder(draft({ price: '30000.005', amount: '0.00015' }), rules, '1000')
    expect(errs.map((e) => [e.field, e.key])).toContainEqual(['price', 'priceTick'])
    expect(errs.map((e) => [e.field, e.key])).toContainEqual(['amount', 'amountLot'])
  })
  it('enforces the minimum notional and the balance', () => {
    expect(validateOrder(draft({ price: '100', amount: '0.0100' }), rules, '1000').map((e) => e.key)).toEqual(['minNotional'])
    expect(validateOrder(draft({ price: '30000', amount: '1' }), rules, '1000').map((e) => e.key)).toEqual(['insufficient'])
    expect(validateOrder(draft({ side: 'SELL', price: '30000', amount: '1' }), rules, '0.5').map((e) => e.key)).toEqual(['insufficient'])
  })
  it('validates a market buy by its total', () => {
    expect(validateOrder(draft({ type: 'MARKET', total: '' }), rules, '10').map((e) => e.key)).toEqual(['totalRequired'])
    expect(validateOrder(draft({ type: 'MARKET', total: '2' }), rules, '10').map((e) => e.key)).toEqual(['minNotional'])
    expect(validateOrder(draft({ type: 'MARKET', total: '20' }), rules, '10').map((e) => e.key)).toEqual(['insufficient'])
    expect(validateOrder(draft({ type: 'MARKET', total: '10' }), rules, '10')).toEqual([])
  })
  it('requires a stop price for stop-limit', () => {
    expect(validateOrder(draft({ type: 'STOP_LIMIT', price: '30000', amount: '0.001' }), rules, '1000').map((e) => e.key)).toEqual(['stopRequired'])
  })
  it('refuses a stop-limit whose stop the last price has already reached (a buy stop at or below it, a sell stop at or above it)', () => {
    const stop = (side: 'BUY' | 'SELL', stopPrice: string, last?: string) =>
      validateOrder(draft({ side, type: 'STOP_LIMIT', price: '30000', stopPrice, amount: '0.001' }), rules, '1000', last).map((e) => e.key)
    expect(stop('BUY', '29000', '29000')).toEqual(['stopReachedBuy'])
    expect(stop('BUY', '28999.99', '29000')).toEqual(['stopReachedBuy'])
    expect(stop('BUY', '29000.01', '29000')).toEqual([])
    expect(stop('SELL', '29000', '29000')).toEqual(['stopReachedSell'])
    expect(stop('SELL', '29000.01', '29000')).toEqual(['stopReachedSell'])
    expect(stop('SELL', '28999.99', '29000')).toEqual([])
    // Without a last price (no trade yet) there is nothing to compare with.
    expect(stop('BUY', '1', undefined)).toEqual([])
    expect(stop('BUY', '1', '0')).toEqual([])
    expect(validateOrder(draft({ type: 'STOP_LIMIT', price: '30000', stopPrice: '1', amount: '0.001' }), rules, '1000', '2')).toEqual([
      { field: 'stopPrice', key: 'stopReachedBuy', vars: { last: '2' } },
    ])
    // Other types ignore the last price.
    expect(validateOrder(draft({ price: '30000', stopPrice: '1', amount: '0.001' }), rules, '1000', '2')).toEqual([])
    expect(stopAlreadyReached('SELL', '', '5')).toBe(false)
  })
  it('builds the create body per type', () => {
    expect(buildOrderRequest(draft({ price: '30000', amount: '0.001' }), rules)).toEqual({ symbol: 'btcusdt', side: 'BUY', type: 'LIMIT', price: '30000', volume: '0.001' })
    expect(buildOrderRequest(draft({ type: 'MARKET', total: '50' }), rules)).toEqual({ symbol: 'btcusdt', side: 'BUY', type: 'MARKET', quoteVolume: '50' })
    expect(buildOrderRequest(draft({ side: 'SELL', type: 'STOP_LIMIT', price: '1', stopPrice: '2', amount: '3' }), rules)).toEqual({
      symbol: 'btcusdt', side: 'SELL', type: 'STOP_LIMIT', price: '1', stopPrice: '2', volume: '3',
    })
    // A point typed last is not sent ("302204908." on a pair without price decimals).
    expect(buildOrderRequest(draft({ side: 'SELL', type: 'STOP_LIMIT', price: '302204908.', stopPrice: '2.', amount: '3.' }), rules)).toEqual({
      symbol: 'btcusdt', side: 'SELL', type: 'STOP_LIMIT', price: '302204908', stopPrice: '2', volume: '3',
    })
    expect(buildOrderRequest(draft({ type: 'MARKET', total: '50.' }), rules)).toMatchObject({ quoteVolume: '50' })
  })
})

describe('market sell', () => {
  const sell = (over: Partial<OrderDraft>) => draft({ side: 'SELL', type: 'MARKET', ...over })
  const best = { bid: '97000.00', ask: '97010.00' }

  it('refuses an amount worth less than the minimum order value at the best bid', () => {
    // 0.00001 BTC is about 1 USDT against a 5 USDT minimum (lot 0.00001 on this pair).
    const fine = { ...rules, lotSize: '0.00001', minQty: '0.00001' }
    expect(validateOrder(sell({ amount: '0.00001' }), fine, '1', undefined, best)).toEqual([
      { field: 'amount', key: 'minNotional', vars: { min: '5', coin: 'USDT' } },
    ])
    // 0.0001 BTC × 97,000 = 9.70 USDT: enough. The best ask does not count for a sell.
    expect(validateOrder(sell({ amount: '0.0001' }), rules, '1', undefined, best)).toEqual([])
    expect(validateOrder(sell({ amount: '0.00005' }), fine, '1', undefined, { bid: '100000.00', ask: '1.00' })).toEqual([])
  })
  it('leaves the value to the server without a best bid', () => {
    const fine = { ...rules, lotSize: '0.00001', minQty: '0.00001' }
    expect(validateOrder(sell({ amount: '0.00001' }), fine, '1')).toEqual([])
    expect(validateOrder(sell({ amount: '0.00001' }), fine, '1', undefined, { ask: '97010.00' })).toEqual([])
    expect(validateOrder(sell({ amount: '0.00001' }), fine, '1', undefined, { bid: '0' })).toEqual([])
  })
  it('does not value priced orders at the book', () => {
    expect(validateOrder(draft({ side: 'SELL', price: '100000', amount: '0.0001' }), rules, '1', undefined, { bid: '1.00' })).toEqual([])
  })
})

describe('market buy by amount', () => {
  const byAmount = (over: Partial<OrderDraft>) => draft({ type: 'MARKET', marketBy: 'amount', ...over })

  it('is a buy entered as a base amount, not as a total', () => {
    expect(isMarketBuyByAmount(byAmount({}))).toBe(true)
    expect(isQuoteEntry(byAmount({}))).toBe(false)
    // By total is the default; the choice means nothing to sells and priced orders.
    expect(isQuoteEntry(draft({ type: 'MARKET' }))).toBe(true)
    expect(isMarketBuyByAmount(byAmount({ side: 'SELL' }))).toBe(false)
    expect(isMarketBuyByAmount(byAmount({ type: 'LIMIT' }))).toBe(false)
  })
  it('requires an amount on the lot grid and at least the minimum quantity', () => {
    expect(validateOrder(byAmount({ amount: '' }), rules, '1000').map((e) => [e.field, e.key])).toEqual([['amount', 'amountRequired']])
    expect(validateOrder(byAmount({ amount: '0' }), rules, '1000').map((e) => e.key)).toEqual(['amountZero'])
    expect(validateOrder(byAmount({ amount: '0.00015' }), rules, '1000').map((e) => [e.field, e.key])).toEqual([['amount', 'amountLot']])
    expect(validateOrder(byAmount({ amount: '0.0001' }), rules, '1000')).toEqual([])
    const errs = validateOrder(byAmount({ amount: '0.0001' }), { ...rules, minQty: '0.001' }, '1000')
    expect(errs).toEqual([{ field: 'amount', key: 'minQty', vars: { min: '0.001', coin: 'BTC' } }])
  })
  it('asks only for some quote balance (it has no price to value the amount at)', () => {
    // Far more than 1 USDT could buy: the server spends what there is.
    expect(validateOrder(byAmount({ amount: '10' }), rules, '1')).toEqual([])
    expect(validateOrder(byAmount({ amount: '0.01' }), rules, '0')).toEqual([{ field: 'amount', key: 'insufficient' }])
    expect(validateOrder(byAmount({ amount: '0.01' }), rules, '0.00')).toEqual([{ field: 'amount', key: 'insufficient' }])
    // Not loaded yet: nothing to say.
    expect(validateOrder(byAmount({ amount: '0.01' }), rules, undefined)).toEqual([])
    // No minimum value check here: the engine values it at the best ask.
    expect(validateOrder(byAmount({ amount: '0.0001' }), { ...rules, minNotional: '1000000' }, '1000')).toEqual([])
  })
  it('values the amount at the best ask, when the book has one, against the minimum order value', () => {
    const best = { bid: '29990.00', ask: '30010.00' }
    // 0.0001 BTC at 30,010 is about 3 USDT, below the 5 USDT minimum.
    expect(validateOrder(byAmount({ amount: '0.0001' }), rules, '1000', undefined, best)).toEqual([
      { field: 'amount', key: 'minNotional', vars: { min: '5', coin: 'USDT' } },
    ])
    expect(validateOrder(byAmount({ amount: '0.0002' }), rules, '1000', undefined, best)).toEqual([])
    // Without an ask (an empty side of the book) it is left to the server.
    expect(validateOrder(byAmount({ amount: '0.0001' }), rules, '1000', undefined, { bid: '29990.00' })).toEqual([])
  })
  it('ignores a stale total', () => {
    expect(validateOrder(byAmount({ amount: '0.001', total: '1' }), rules, '1000')).toEqual([])
  })
  it('sends volume and no quoteVolume', () => {
    expect(buildOrderRequest(byAmount({ amount: '0.0100', total: '50' }), rules)).toEqual({ symbol: 'btcusdt', side: 'BUY', type: 'MARKET', volume: '0.0100' })
    expect(buildOrderRequest(draft({ type: 'MARKET', marketBy: 'total', amount: '0.01', total: '50' }), rules)).toEqual({
      symbol: 'btcusdt', side: 'BUY', type: 'MARKET', quoteVolume: '50',
    })
    // A sell sends its volume whichever way a buy would be entered.
    expect(buildOrderRequest(byAmount({ side: 'SELL', amount: '0.5' }), rules)).toEqual({ symbol: 'btcusdt', side: 'SELL', type: 'MARKET', volume: '0.5' })
  })
  it('puts the slider at 0 %', () => {
    expect(percentOfBalance(byAmount({ amount: '0.01', total: '500' }), '1000')).toBe(0)
  })
})

describe('cleaning a typed or pasted number', () => {
  it('keeps digits and one point and says when it dropped anything else', () => {
    expect(cleanNumberInput('abc-1e5', 2)).toEqual({ value: '15', notice: 'chars' })
    expect(cleanNumberInput('-5', 2)).toEqual({ value: '5', notice: 'chars' })
    expect(cleanNumberInput('12.3.45', 4)).toEqual({ value: '12.345', notice: 'chars' })
    // European grouping would silently become another number.
    expect(cleanNumberInput('1.000.000', 6)).toEqual({ value: '1.000000', notice: 'chars' })
    expect(cleanNumberInput('1.000,5', 6)).toEqual({ value: '1.0005', notice: 'chars' })
    expect(cleanNumberInput('1,2,3', 6)).toEqual({ value: '1.23', notice: 'chars' })
    expect(cleanNumberInput('97000a', 2)).toEqual({ value: '97000', notice: 'chars' })
  })
  it('says when it cut decimals the field does not take', () => {
    expect(cleanNumberInput('97000.12345', 2)).toEqual({ value: '97000.12', notice: 'places' })
    expect(cleanNumberInput('0.0012345678', 6)).toEqual({ value: '0.001234', notice: 'places' })
    expect(cleanNumberInput('7.9', 0)).toEqual({ value: '7.', notice: 'places' })
    // Letters and too many decimals at once: the letters are said first.
    expect(cleanNumberInput('x1.234', 2)).toEqual({ value: '1.23', notice: 'chars' })
  })
  it('keeps quiet when the number is kept', () => {
    for (const [raw, value] of [
      ['97000.12', '97000.12'],
      ['97000.', '97000.'],
      ['', ''],
      ['.5', '.5'],
      // Spaces around or grouping a pasted number, thousands commas and a decimal comma keep its value.
      [' 97000.12 ', '97000.12'],
      ['97 000', '97000'],
      ['97\u00a0000,5', '97000.5'],
      ['9,638.08', '9638.08'],
      ['5,000', '5000'],
      ['1,5', '1.5'],
      ['0,000123', '0.000123'],
    ])
      expect(cleanNumberInput(raw, 6)).toEqual({ value })
  })
})

describe('farFromLast', () => {
  it('does not count a buy exactly 5% above the last price, and counts one beyond it', () => {
    expect(farFromLast('BUY', '31500', '30000')).toBeUndefined()
    expect(farFromLast('BUY', '31500.01', '30000')).toEqual({ direction: 'above', percent: '5.00' })
    expect(farFromLast('BUY', '31600', '30000')).toEqual({ direction: 'above', percent: '5.33' })
  })
  it('does not count a sell exactly 5% below the last price, and counts one beyond it', () => {
    expect(farFromLast('SELL', '28500', '30000')).toBeUndefined()
    expect(farFromLast('SELL', '28499.99', '30000')).toEqual({ direction: 'below', percent: '5.00' })
    expect(farFromLast('SELL', '27000', '30000')).toEqual({ direction: 'below', percent: '10.00' })
  })
  it('leaves the cheap side alone: a buy below or a sell above the last price', () => {
    expect(farFromLast('BUY', '1000', '30000')).toBeUndefined()
    expect(farFromLast('SELL', '90000', '30000')).toBeUndefined()
  })
  it('says nothing without both prices', () => {
    expect(farFromLast('BUY', '40000', undefined)).toBeUndefined()
    expect(farFromLast('BUY', '40000', '0')).toBeUndefined()
    expect(farFromLast('BUY', '', '30000')).toBeUndefined()
  })
  it('takes another threshold', () => {
    expect(farFromLast('BUY', '30300', '30000', 1)).toBeUndefined()
    expect(farFromLast('BUY', '30301', '30000', 1)).toEqual({ direction: 'above', percent: '1.00' })
  })
})

describe('marketBuyHold', () => {
  it('is the balance, at most the amount at the last price plus 50%', () => {
    // 0.01 BTC at 30,000 is 300 USDT: at most 450 is held.
    expect(Number(marketBuyHold('0.01', '1000', '30000'))).toBe(450)
    expect(marketBuyHold('1', '1000.55', '30000')).toBe('1000.55')
  })
  it('is the balance without a last price, and unknown without a balance', () => {
    expect(marketBuyHold('0.01', '1000', undefined)).toBe('1000')
    expect(marketBuyHold('0.01', undefined, '30000')).toBeUndefined()
  })
})
