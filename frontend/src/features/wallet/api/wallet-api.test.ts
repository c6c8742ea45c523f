import { describe, expect, it } from 'vitest'
import { assetName, bankTitle, recordBankTitle, statisticsWindow, transferCall } from './wallet-api'

describe('transferCall (spec §4 transfer kinds)', () => {
  const base = { coin: 'USDT', amount: '10', requestId: 'r1' }
  it('OTC: account 1 is spot, 2 is OTC', () => {
    expect(transferCall({ ...base, account: 'otc', direction: 1 })).toEqual({
      path: '/fe-ex-api/wallet/otc_transfer',
      body: { amount: '10', coinSymbol: 'USDT', requestId: 'r1', fromAccount: 1, toAccount: 2 },
    })
    expect(transferCall({ ...base, account: 'otc', direction: 2 }).body).toMatchObject({ fromAccount: 2, toAccount: 1 })
  })
  it('futures: to contract or to account', () => {
    expect(transferCall({ ...base, account: 'futures', direction: 1 }).path).toBe('/fe-ex-api/wallet/futures_to_contract')
    expect(transferCall({ ...base, account: 'futures', direction: 2 }).path).toBe('/fe-ex-api/wallet/futures_to_account')
  })
  it('margin types 1 to 4: isolated in/out, cross in/out', () => {
    expect(transferCall({ ...base, account: 'margin_isolated', direction: 1, symbol: 'BTCUSDT' }).body).toMatchObject({
      transferType: 1,
      symbol: 'BTCUSDT',
    })
    expect(transferCall({ ...base, account: 'margin_isolated', direction: 2, symbol: 'BTCUSDT' }).body).toMatchObject({ transferType: 2 })
    expect(transferCall({ ...base, account: 'margin_cross', direction: 1 }).body).toMatchObject({ transferType: 3 })
    expect(transferCall({ ...base, account: 'margin_cross', direction: 2 }).body).toMatchObject({ transferType: 4 })
  })
})

describe('statisticsWindow (spec §9)', () => {
  it('runs from 7 days back to 1 day back', () => {
    expect(statisticsWindow(new Date(2026, 10, 21, 12))).toEqual({ startDate: '2026-11-14', endDate: '2026-11-20' })
  })
})

describe('bankTitle', () => {
  it('names a saved bank in Mongolian in mn_MN, in English otherwise or when the server has no Mongolian name', () => {
    const bank = { title: 'Khan Bank', titleMn: 'Хаан банк' }
    expect(bankTitle(bank, 'mn_MN')).toBe('Хаан банк')
    expect(bankTitle(bank, 'en_US')).toBe('Khan Bank')
    expect(bankTitle({ title: 'Old Bank', titleMn: '' }, 'mn_MN')).toBe('Old Bank')
    expect(bankTitle({ title: 'Old Bank' }, 'mn_MN')).toBe('Old Bank')
  })
})

describe('recordBankTitle', () => {
  const payments = [{ title: 'Khan Bank', titleMn: 'Хаан банк' }]
  it('names a recorded bank through its payment list entry: Mongolian in mn_MN, the recorded name otherwise', () => {
    expect(recordBankTitle('Khan Bank', payments, 'mn_MN')).toBe('Хаан банк')
    expect(recordBankTitle('Khan Bank', payments, 'en_US')).toBe('Khan Bank')
    expect(recordBankTitle('Old Bank', payments, 'mn_MN')).toBe('Old Bank')
    // Before the list arrives, the recorded name.
    expect(recordBankTitle('Khan Bank', undefined, 'mn_MN')).toBe('Khan Bank')
  })
})

describe('assetName', () => {
  it('is the showName (MNT for the fiat withdrawn as MONT), the code or the value without one', () => {
    expect(assetName({ value: 'MONT', label: 'MNT', code: 'MNT' })).toBe('MNT')
    expect(assetName({ value: 'MONT', label: '', code: 'MNT' })).toBe('MNT')
    expect(assetName({ value: 'BTC', label: 'BTC', code: 'BTC' })).toBe('BTC')
  })
})
