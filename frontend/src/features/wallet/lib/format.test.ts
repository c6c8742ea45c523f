import { describe, expect, it } from 'vitest'
import {
  arrivalMinutes,
  explorerHref,
  rateLocale,
  shortenAddress,
  splitDepositAddress,
  joinAddressMemo,
  sameAddress,
  splitSavedAddress,
  valueInCurrency,
} from './format'

describe('sameAddress (as the server compares addresses)', () => {
  it('takes bech32 and EVM addresses in any letter case', () => {
    expect(sameAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ', 'BTC')).toBe(true)
    expect(sameAddress('0x593814d3309e2dF31D112824F0f4B6b1c1d0D7d4', ' 0x593814D3309E2DF31D112824F0F4B6B1C1D0D7D4 ', 'ETH')).toBe(true)
    expect(sameAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx', 'BTC')).toBe(false)
  })
  it('keeps base58 addresses case-sensitive', () => {
    expect(sameAddress('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'tjrabprwbzy45sbavfcjinpjc18kjprtv8', 'TRC20')).toBe(false)
  })
  it('takes a TON account in its bounceable, non-bounceable, base64 and raw forms', () => {
    const friendly = 'UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt'
    const raw = '0:24f0d21c1c76656872ad41ddb6b1c584796c72e604867a1a18ae8fdeb05f22b3'
    expect(sameAddress(friendly, 'EQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is-xo', 'TON')).toBe(true)
    expect(sameAddress(friendly, 'EQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro/esF8is+xo', 'TON')).toBe(true)
    expect(sameAddress(friendly, raw.toUpperCase().replace('0X', '0x'), 'TON')).toBe(true)
    expect(sameAddress(friendly, raw.slice(0, -1) + '4', 'TON')).toBe(false)
  })
})

describe('shortenAddress (spec §5)', () => {
  it('keeps addresses of up to 37 characters', () => {
    const a37 = 'a'.repeat(37)
    expect(shortenAddress(a37)).toBe(a37)
    expect(shortenAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'.slice(0, 30))).toHaveLength(30)
  })
  it('shows the first 28, an ellipsis and the last 6 above 37', () => {
    const eth = '0x593814d3309e2dF31D112824F0f4B6b1c1d0D7d47'
    const short = shortenAddress(eth)
    expect(short).toBe(`${eth.slice(0, 28)}…${eth.slice(-6)}`)
    expect(short.startsWith('0x593814d3309e2dF31D112824F0')).toBe(true)
    expect(short.endsWith('0D7d47')).toBe(true)
    expect(shortenAddress('b'.repeat(38))).toBe(`${'b'.repeat(28)}…${'b'.repeat(6)}`)
  })
})

describe('valuation (spec §1)', () => {
  const rates = {
    en_US: { BTC: '97250.5', lang_logo: '$' },
    mn_MN: { BTC: '335514225', lang_logo: '₮' },
  }
  it('MNT uses the mn_MN table, anything else en_US', () => {
    expect(rateLocale('MNT')).toBe('mn_MN')
    expect(rateLocale('USD')).toBe('en_US')
    expect(rateLocale('EUR')).toBe('en_US')
    expect(valueInCurrency('0.5', 'MNT', rates)).toEqual({ sign: '₮', value: '167,757,112.50' })
    expect(valueInCurrency('0.5', 'USD', rates)).toEqual({ sign: '$', value: '48,625.25' })
  })
  it('has no value without a rate table', () => {
    expect(valueInCurrency('1', 'USD', undefined)).toBeUndefined()
    expect(valueInCurrency('x', 'USD', rates)).toBeUndefined()
  })
})

describe('valuation of other coins', () => {
  it('uses the coin rate of the locale table', () => {
    const rates = { en_US: { BTC: '97250.5', USDT: '1', lang_logo: '$' }, mn_MN: { USDT: '3450', lang_logo: '₮' } }
    expect(valueInCurrency('12.5', 'USD', rates, 'USDT')).toEqual({ sign: '$', value: '12.50' })
    expect(valueInCurrency('2', 'MNT', rates, 'usdt')).toEqual({ sign: '₮', value: '6,900.00' })
    expect(valueInCurrency('2', 'MNT', rates, 'BTC')).toBeUndefined()
  })
})

describe('splitDepositAddress (spec §3: address_memo is split)', () => {
  const xrp = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3'
  it('shows addressLong alone and the memo apart when the server sends both forms', () => {
    expect(splitDepositAddress({ addressLong: xrp, addressStr: `${xrp}_100000`, memo: '100000' })).toEqual({ address: xrp, memo: '100000' })
  })
  it('cuts addressStr at its last underscore without addressLong', () => {
    expect(splitDepositAddress({ addressLong: '', addressStr: `${xrp}_100000`, memo: '100000' })).toEqual({ address: xrp, memo: '100000' })
    expect(splitDepositAddress({ addressStr: `${xrp}_4242`, memo: '' })).toEqual({ address: xrp, memo: '4242' })
  })
  it('leaves an address without a memo as it is', () => {
    expect(splitDepositAddress({ addressLong: 'bc1qexample', addressStr: 'bc1qexample', memo: '' })).toEqual({ address: 'bc1qexample', memo: '' })
  })
})

describe('splitSavedAddress (address_memo of the address book, as the server splits it)', () => {
  const ton = 'UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt'
  it('keeps a TON address whole: its 48 characters, then the memo', () => {
    expect(splitSavedAddress(`${ton}_555`, 'TON', true)).toEqual({ address: ton, memo: '555' })
    expect(splitSavedAddress(`${ton}_a_b`, 'TON', true)).toEqual({ address: ton, memo: 'a_b' })
    expect(splitSavedAddress(ton, 'TON', true)).toEqual({ address: ton, memo: '' })
  })
  it('splits XRP at the first underscore and never splits a chain without memos', () => {
    expect(splitSavedAddress('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3_100001', 'XRP', true)).toEqual({ address: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', memo: '100001' })
    expect(splitSavedAddress('0xabc_def', 'ETH', false)).toEqual({ address: '0xabc_def', memo: '' })
    expect(splitSavedAddress('0:abcdef_12', 'TON', true)).toEqual({ address: '0:abcdef', memo: '12' })
  })
  it('is undone by joinAddressMemo, which leaves a bare address without an underscore', () => {
    expect(joinAddressMemo(ton, '')).toBe(ton)
    expect(splitSavedAddress(joinAddressMemo(ton, '555'), 'TON', true)).toEqual({ address: ton, memo: '555' })
    expect(splitSavedAddress(joinAddressMemo('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', '7'), 'XRP', true)).toEqual({
      address: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3',
      memo: '7',
    })
  })
})

describe('deposit arrival', () => {
  it('is whole minutes, 0 under a minute, and unknown without a block time', () => {
    expect(arrivalMinutes(1200)).toBe(20)
    expect(arrivalMinutes(144)).toBe(2)
    expect(arrivalMinutes(57)).toBe(0)
    expect(arrivalMinutes(0)).toBeUndefined()
    expect(arrivalMinutes(undefined)).toBeUndefined()
  })
})

describe('explorer links', () => {
  it('opens an http(s) page or a path on this site, nothing else', () => {
    expect(explorerHref('https://mempool.space/tx/ab')).toBe('https://mempool.space/tx/ab')
    expect(explorerHref('http://127.0.0.1:4000/tx/ab')).toBe('http://127.0.0.1:4000/tx/ab')
    expect(explorerHref('/dev/chain/tx?chain=BTC&txid=ab')).toBe('/dev/chain/tx?chain=BTC&txid=ab')
    for (const bad of ['javascript:alert(1)', '//evil.example/tx', '/\\evil.example', 'data:text/html,x', 'tx/ab', '', undefined]) {
      expect(explorerHref(bad)).toBeUndefined()
    }
  })
})
