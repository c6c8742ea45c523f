import { describe, expect, it } from 'vitest'
import { parseRates } from './get-rates'

describe('parseRates', () => {
  it('keeps each locale\'s string rates and the currency sign', () => {
    expect(parseRates({ en_US: { BTC: '97250.5', USDT: '1', lang_logo: '$', bad: 3 }, mn_MN: { USDT: '3450', lang_logo: '₮' }, x: 'y' })).toEqual({
      en_US: { BTC: '97250.5', USDT: '1', lang_logo: '$' },
      mn_MN: { USDT: '3450', lang_logo: '₮' },
    })
  })
  it('reads anything else as no rates', () => {
    expect(parseRates(null)).toEqual({})
    expect(parseRates([{ en_US: {} }])).toEqual({})
  })
})
