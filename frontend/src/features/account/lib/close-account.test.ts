import { describe, expect, it } from 'vitest'
import { closeRequest, confirmMatches, EMPTY_CLOSE, MAX_REASON_LEN, reasonHref, reasonLength, validateClose } from './close-account'

const none = { needEmailCode: false, needSmsCode: false, needGoogleCode: false }

describe('closing the account', () => {
  it('links each blocking reason to where it is settled', () => {
    expect(reasonHref('balance')).toBe('/wallet')
    expect(reasonHref('open_orders')).toBe('/order/spot?tab=open')
    expect(reasonHref('pending_withdrawals')).toBe('/wallet/history?tab=withdraw')
    expect(reasonHref('pending_transfers')).toBe('/wallet/history?tab=transfer')
    expect(reasonHref('pending_deposits')).toBe('/wallet/history?tab=deposit')
    expect(reasonHref('toString')).toBeUndefined()
    expect(reasonHref('something_new')).toBeUndefined()
  })

  it('takes the typed word (or CLOSE) without regard to case or spaces around it', () => {
    expect(confirmMatches(' close ', 'CLOSE')).toBe(true)
    expect(confirmMatches('хаах', 'ХААХ')).toBe(true)
    expect(confirmMatches('close', 'ХААХ')).toBe(true)
    expect(confirmMatches('CLOSED', 'CLOSE')).toBe(false)
    expect(confirmMatches('ХАА', 'ХААХ')).toBe(false)
    expect(confirmMatches('', '')).toBe(false)
  })

  it('counts the reason as the server does', () => {
    expect(reasonLength('  Өөр бирж  ')).toBe(8)
    expect(reasonLength('😀'.repeat(3))).toBe(3)
  })

  it('asks only for the codes the check names, and for the word', () => {
    expect(validateClose(EMPTY_CLOSE, none, 'CLOSE')).toEqual({ confirm: 'confirmMismatch' })
    expect(validateClose({ ...EMPTY_CLOSE, confirm: 'close' }, none, 'CLOSE')).toEqual({})
    const info = { needEmailCode: true, needSmsCode: true, needGoogleCode: true }
    expect(validateClose({ ...EMPTY_CLOSE, confirm: 'CLOSE', emailCode: '12', googleCode: '1' }, info, 'CLOSE')).toEqual({
      emailCode: 'codeLength',
      smsCode: 'required',
      googleCode: 'googleCodeLength',
    })
  })

  it('refuses a reason longer than the server keeps', () => {
    const values = { ...EMPTY_CLOSE, confirm: 'CLOSE', reason: 'x'.repeat(MAX_REASON_LEN + 1) }
    expect(validateClose(values, none, 'CLOSE')).toEqual({ reason: 'reasonTooLong' })
    expect(validateClose({ ...values, reason: 'x'.repeat(MAX_REASON_LEN) }, none, 'CLOSE')).toEqual({})
  })

  it('sends the codes asked for and a trimmed reason', () => {
    const values = { reason: '  moving abroad ', emailCode: '111111', smsCode: '222222', googleCode: '333333', confirm: 'CLOSE' }
    expect(closeRequest(values, { needEmailCode: true, needSmsCode: false, needGoogleCode: true })).toEqual({
      emailCode: '111111',
      smsAuthCode: undefined,
      googleCode: '333333',
      reason: 'moving abroad',
    })
    expect(closeRequest({ ...values, reason: '   ' }, none).reason).toBeUndefined()
  })
})
