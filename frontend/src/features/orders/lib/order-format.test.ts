import { describe, expect, it } from 'vitest'
import { getBundledTexts } from '@/lib/bundled-texts'
import { lookup } from '@/lib/i18n'
import { parseSpotPairs, stepPlaces, type SpotOrder, type SpotPair } from '../api/orders-api'
import { fixed as tradeFixed } from '@/lib/decimal'
import {
  endReasonKey,
  fixed,
  formatDateTime,
  formatFee,
  isOpenOrder,
  isPositive,
  orderAmount,
  orderAvgPrice,
  orderPrice,
  orderTotal,
  pairOf,
  quoteAmount,
  statusKey,
  statusPalette,
} from './order-format'

const BTC: SpotPair = { symbol: 'btcusdt', routeSymbol: 'BTC_USDT', base: 'BTC', quote: 'USDT', showName: 'BTC/USDT', pricePrecision: 2, volumePlaces: 6 }

function order(over: Partial<SpotOrder>): SpotOrder {
  return {
    order_id: '1',
    symbol: 'btcusdt',
    side: 'BUY',
    type: 'LIMIT',
    price: '30000',
    volume: '0.5',
    deal_volume: '0',
    deal_money: '0',
    avg_price: '0',
    status: 1,
    status_text: 'NEW',
    created_at: 0,
    ...over,
  }
}

describe('fixed', () => {
  it('pads and rounds decimals half up without floats, grouping thousands', () => {
    expect(fixed('30000', 2)).toBe('30,000.00')
    expect(fixed('0.1234567', 6)).toBe('0.123457')
    expect(fixed('12345678901234567890.125', 2)).toBe('12,345,678,901,234,567,890.13')
    expect(fixed('.5', 1)).toBe('0.5')
    expect(fixed('007', 0)).toBe('7')
    expect(fixed('-0.001', 2)).toBe('0.00')
  })

  it('shows a dash for what is not a decimal and the raw value without places', () => {
    expect(fixed(undefined, 2)).toBe('—')
    expect(fixed('', 2)).toBe('—')
    expect(fixed('1e5', 2)).toBe('—')
    expect(fixed('12.5', undefined)).toBe('12.5')
    expect(fixed('1234.5', undefined)).toBe('1,234.5')
  })

  it('shows a fill exactly as the trade page does', () => {
    // The QA report: 6.34 and 145.71 on the trade page, 6.33 and 145.70 here.
    for (const [value, places] of [['6.335', 2], ['145.7051', 2], ['76.2087', 2], ['97123.456', 2], ['0.0000655', 6]] as const) {
      expect(fixed(value, places)).toBe(tradeFixed(value, places))
    }
    expect(fixed('6.335', 2)).toBe('6.34')
    expect(fixed('76.2087', 2)).toBe('76.21')
  })

  it('tells positive amounts', () => {
    expect(isPositive('0.0001')).toBe(true)
    expect(isPositive('0')).toBe(false)
    expect(isPositive('0.000')).toBe(false)
    expect(isPositive('-1')).toBe(false)
    expect(isPositive(undefined)).toBe(false)
  })
})

describe('formatFee', () => {
  it('shows every fee at the ledger 8 places with its coin, so a column lines up', () => {
    expect(formatFee('0.0000003', 'BTC')).toBe('0.00000030 BTC')
    expect(formatFee('0.00000051', 'BTC')).toBe('0.00000051 BTC')
    expect(formatFee('11.01717161', 'MNT')).toBe('11.01717161 MNT')
    expect(formatFee('0.052', undefined)).toBe('0.05200000')
    expect(formatFee(undefined, 'BTC')).toBe('—')
  })
})

describe('status labels', () => {
  it('maps every API status to a text of both languages', () => {
    const cases: [Partial<SpotOrder>, string, string, string][] = [
      [{ status: 1 }, '1', 'Open', 'blue'],
      [{ status: 2, deal_volume: '0.1' }, '2', 'Partially filled', 'orange'],
      [{ status: 3, deal_volume: '0.5' }, '3', 'Filled', 'green'],
      [{ status: 4 }, '4', 'Cancelled', 'gray'],
      [{ status: 4, deal_volume: '0.2' }, 'partCancelled', 'Partly filled, cancelled', 'orange'],
      [{ status: 5 }, '5', 'Rejected', 'red'],
      [{ status: 9 }, 'unknown', 'Unknown', 'gray'],
    ]
    const en = getBundledTexts('orders', 'en-US')
    const mn = getBundledTexts('orders', 'mn-MN')
    for (const [over, key, text, palette] of cases) {
      const o = order(over)
      expect(statusKey(o)).toBe(key)
      expect(statusPalette(o)).toBe(palette)
      expect(lookup(en, `status.${key}`)).toBe(text)
      const mnText = lookup(mn, `status.${key}`)
      expect(mnText).toBeTruthy()
      expect(mnText).not.toBe(text)
    }
  })

  it('knows which orders can still be cancelled', () => {
    expect([1, 2, 3, 4, 5].map((status) => isOpenOrder({ status }))).toEqual([true, true, false, false, false])
  })
})

describe('order values', () => {
  it('shows the price or none for market orders', () => {
    expect(orderPrice(order({}), BTC)).toBe('30,000.00')
    expect(orderPrice(order({ type: 'MARKET', price: '0' }), BTC)).toBeUndefined()
  })

  it('shows the base amount, or the quote budget of a market buy', () => {
    expect(orderAmount(order({}), BTC)).toBe('0.500000')
    expect(orderAmount(order({ type: 'MARKET', volume: '0', quote_volume: '50' }), BTC)).toBe('50.00 USDT')
    // The budget is in the quote coin: at its places (MNT 2) when known, not the price's (USDT/MNT 1).
    const usdtMnt: SpotPair = { symbol: 'usdtmnt', routeSymbol: 'USDT_MNT', base: 'USDT', quote: 'MNT', showName: 'USDT/MNT', pricePrecision: 1, volumePlaces: 2, quotePlaces: 2 }
    expect(orderAmount(order({ symbol: 'usdtmnt', type: 'MARKET', volume: '0', quote_volume: '10000000' }), usdtMnt)).toBe('10,000,000.00 MNT')
  })

  // BTC/MNT prices have no decimals, but its totals are tugriks: MNT has 2 places (the QA report: 41,343,810 for 41,343,809.54).
  it('shows totals in the quote coin at its places, not the price places', () => {
    const btcMnt: SpotPair = { symbol: 'btcmnt', routeSymbol: 'BTC_MNT', base: 'BTC', quote: 'MNT', showName: 'BTC/MNT', pricePrecision: 0, volumePlaces: 6, quotePlaces: 2 }
    const filled = order({ symbol: 'btcmnt', price: '334884288', volume: '0.123457', deal_volume: '0.123457', avg_price: '334884288', deal_money: '41343809.543616', status: 3 })
    expect(orderTotal(filled, btcMnt)).toBe('41,343,809.54')
    expect(orderAvgPrice(filled, btcMnt)).toBe('334,884,288')
    expect(quoteAmount('1145.705', btcMnt)).toBe('1,145.71')
    // Without the coin's places, the price's.
    expect(quoteAmount('1145.705', { ...btcMnt, quotePlaces: undefined })).toBe('1,146')
    // Nothing traded: no average and no total.
    expect(orderTotal(order({ deal_money: '0' }), btcMnt)).toBe('—')
    expect(orderAvgPrice(order({ deal_volume: '0', avg_price: '0' }), btcMnt)).toBe('—')
  })

  it('falls back to the symbol when the pair list is missing', () => {
    expect(pairOf(undefined, 'ethusdt')).toMatchObject({ showName: 'ETHUSDT' })
    expect(pairOf([BTC], 'btcusdt')).toBe(BTC)
    expect(orderAmount(order({ symbol: 'ethusdt', volume: '1.5' }), pairOf(undefined, 'ethusdt'))).toBe('1.5')
  })

  it('formats local date and time', () => {
    expect(formatDateTime(new Date(2025, 0, 2, 3, 4, 5).getTime())).toBe('2025-01-02 03:04:05')
    expect(formatDateTime(0)).toBe('—')
  })
})

describe('end reasons', () => {
  it("tells why the exchange ended an order, in both languages, and nothing for the user's own cancel or a fill", () => {
    const en = getBundledTexts('orders', 'en-US')
    const mn = getBundledTexts('orders', 'mn-MN')
    const cases: [Partial<SpotOrder>, string | undefined][] = [
      [{ status: 5, end_reason: 'post_only_would_take' }, 'post_only_would_take'],
      [{ status: 4, end_reason: 'fok_not_filled' }, 'fok_not_filled'],
      [{ status: 4, deal_volume: '0.1', end_reason: 'ioc_remainder' }, 'ioc_remainder'],
      [{ status: 4, end_reason: 'stp' }, 'stp'],
      [{ status: 4, end_reason: 'dust' }, 'dust'],
      // A part filled and the rest fell below the minimum amount: not a lack of funds.
      [{ status: 4, deal_volume: '0.000994', end_reason: 'dust' }, 'dustRest'],
      [{ status: 5, end_reason: 'below_min_notional' }, 'below_min_notional'],
      [{ status: 5, end_reason: 'below_min_qty' }, 'below_min_qty'],
      [{ status: 5, end_reason: 'stop_would_trigger' }, 'stop_would_trigger'],
      [{ status: 5, end_reason: 'price_off_tick' }, 'price'],
      [{ status: 5, end_reason: 'qty_off_lot' }, 'amount'],
      [{ status: 4, end_reason: 'cancelled' }, undefined],
      [{ status: 3, end_reason: 'filled' }, undefined],
      [{ status: 5 }, undefined],
      [{ status: 5, end_reason: 'something_new' }, undefined],
      [{ status: 1, end_reason: 'stp' }, undefined],
    ]
    for (const [over, key] of cases) {
      expect(endReasonKey(order(over)), JSON.stringify(over)).toBe(key)
      if (!key) continue
      expect(lookup(en, `reasons.${key}`), key).toBeTruthy()
      expect(lookup(mn, `reasons.${key}`), key).toBeTruthy()
      expect(lookup(mn, `reasons.${key}`)).not.toBe(lookup(en, `reasons.${key}`))
    }
    expect(lookup(en, 'reasons.post_only_would_take')).toBe('Would have traded at once (post-only)')
  })
})

describe('pairs', () => {
  it('reads the market info into pairs with display places', () => {
    const pairs = parseSpotPairs({
      market: {
        USDT: {
          'ETH/USDT': { symbol: 'ethusdt', base: 'eth', quote: 'usdt', pricePrecision: 2, lotSize: '0.00001' },
          'BTC/USDT': { symbol: 'btcusdt', base: 'BTC', quote: 'USDT', showName: 'BTC/USDT', pricePrecision: 2, lotSize: '0.000001' },
        },
        MNT: { 'USDT/MNT': { symbol: 'usdtmnt', base: 'USDT', quote: 'MNT', pricePrecision: 1, lotSize: '0.01' }, junk: 3 },
      },
    })
    expect(pairs.map((p) => [p.symbol, p.showName, p.pricePrecision, p.volumePlaces])).toEqual([
      ['btcusdt', 'BTC/USDT', 2, 6],
      ['ethusdt', 'ETH/USDT', 2, 5],
      ['usdtmnt', 'USDT/MNT', 1, 2],
    ])
    expect(parseSpotPairs(null)).toEqual([])
    // The quote coin's places come from the coin list's showPrecision.
    const withCoins = parseSpotPairs({
      coinList: { MNT: { showPrecision: 2 }, USDT: { showPrecision: 6 } },
      market: { MNT: { 'USDT/MNT': { symbol: 'usdtmnt', base: 'USDT', quote: 'MNT', pricePrecision: 1, lotSize: '0.01' } } },
    })
    expect(withCoins[0].quotePlaces).toBe(2)
  })

  it('counts the places of a step', () => {
    expect(stepPlaces('0.0001')).toBe(4)
    expect(stepPlaces('0.01000')).toBe(2)
    expect(stepPlaces('1')).toBe(0)
    expect(stepPlaces('1.0')).toBe(0)
  })
})
