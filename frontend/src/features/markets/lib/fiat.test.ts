import { describe, expect, it } from 'vitest'
import { parseDec } from '@/lib/decimal'
import { fiatPlaces, formatFiatPrice, rateLocale, shownCurrency, toFiat } from './fiat'

const rates = {
  en_US: { BTC: '97250.5', USDT: '1', MNT: '0.00028986', TRX: '0.2473', lang_logo: '$' },
  mn_MN: { BTC: '335514225', USDT: '3450', MNT: '1', lang_logo: '₮' },
}

describe('fiat prices', () => {
  it('reads the mn_MN table for MNT and the en_US one (in USD) for every other currency, as the wallet does', () => {
    expect(rateLocale('MNT')).toBe('mn_MN')
    expect(rateLocale('mont')).toBe('mn_MN')
    expect(rateLocale('USD')).toBe('en_US')
    expect(rateLocale('EUR')).toBe('en_US')
    expect(shownCurrency('EUR')).toBe('USD')
    expect(shownCurrency('MNT')).toBe('MNT')
  })

  it('values a price through its quote coin\'s rate, exactly', () => {
    expect(formatFiatPrice(toFiat('97500.5', 'USDT', 'USD', rates))).toBe('$97,500.50')
    expect(formatFiatPrice(toFiat('97500.5', 'usdt', 'MNT', rates))).toBe('₮336,376,725.00')
    // A BTC/MNT price in dollars through the MNT rate.
    expect(formatFiatPrice(toFiat('336000000', 'MNT', 'USD', rates))).toBe('$97,392.96')
    expect(toFiat('97500.5', 'USDT', 'USD', rates)?.value).toEqual(parseDec('97500.5'))
  })

  it('shows 2 decimals, or 4 significant digits below one unit', () => {
    expect(formatFiatPrice(toFiat('0.24957', 'USDT', 'USD', rates))).toBe('$0.2496')
    expect(formatFiatPrice(toFiat('0.0000123456', 'USDT', 'USD', rates))).toBe('$0.00001235')
    expect(formatFiatPrice(toFiat('1.005', 'USDT', 'USD', rates))).toBe('$1.01')
    expect(fiatPlaces(parseDec('0')!)).toBe(2)
    expect(fiatPlaces(parseDec('0.5')!)).toBe(4)
    expect(fiatPlaces(parseDec('0.000000001')!)).toBe(8)
  })

  it('has no fiat price without the price, the table or the coin\'s rate', () => {
    expect(toFiat(undefined, 'USDT', 'USD', rates)).toBeUndefined()
    expect(toFiat('1', 'USDT', 'USD', undefined)).toBeUndefined()
    expect(toFiat('1', 'DOGE', 'USD', rates)).toBeUndefined()
    expect(toFiat('1', 'USDT', 'USD', { en_US: { USDT: '0' } })).toBeUndefined()
    expect(formatFiatPrice(undefined)).toBe('—')
  })
})
