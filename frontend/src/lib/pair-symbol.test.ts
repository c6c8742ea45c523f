import { describe, expect, it } from 'vitest'
import { pairSymbol } from './pair-symbol'

describe('pairSymbol', () => {
  it('reads every spelling of a pair as the server symbol', () => {
    for (const s of ['BTC_USDT', 'BTC/USDT', 'btc-usdt', 'btcusdt']) expect(pairSymbol(s)).toBe('btcusdt')
    expect(pairSymbol('USDT/MNT')).toBe('usdtmnt')
  })
})
