import { describe, expect, it } from 'vitest'
import {
  emailChangeFactors,
  emailChangeRequest,
  EMPTY_EMAIL_CHANGE,
  sameAddress,
  validateEmailChange,
  validateNewEmail,
} from './email-change'

describe('e-mail change factors (the withdrawal rule)', () => {
  it('asks the current address for its code when there is one', () => {
    expect(emailChangeFactors({ email: 'a@example.mn' })).toEqual({ oldEmail: true, sms: false, google: false })
  })

  it('asks for SMS when the SMS check is on and Google when it is on', () => {
    expect(emailChangeFactors({ email: 'a@example.mn', isOpenMobileCheck: 1, googleStatus: 1, mobileNumber: '88112233' })).toEqual({
      oldEmail: true,
      sms: true,
      google: true,
    })
  })

  it('asks a phone account whose phone is its only factor for SMS', () => {
    expect(emailChangeFactors({ mobileNumber: '88112233', isOpenMobileCheck: 0, googleStatus: 0 })).toEqual({
      oldEmail: false,
      sms: true,
      google: false,
    })
  })

  it('leaves SMS out for a phone account whose authenticator is on', () => {
    expect(emailChangeFactors({ mobileNumber: '88112233', googleStatus: 1 })).toEqual({ oldEmail: false, sms: false, google: true })
  })
})

describe('e-mail change form', () => {
  const all = { oldEmail: true, sms: true, google: true }

  it('compares addresses as the server does', () => {
    expect(sameAddress(' Bat@Example.mn ', 'bat@example.mn')).toBe(true)
    expect(sameAddress('bat@example.mn', undefined)).toBe(false)
    expect(validateNewEmail('bat@example.mn', 'BAT@example.mn')).toBe('sameAddress')
    expect(validateNewEmail('', 'a@example.mn')).toBe('required')
    expect(validateNewEmail('not-an-address', undefined)).toBe('invalidEmail')
    expect(validateNewEmail('new@example.mn', 'old@example.mn')).toBeUndefined()
  })

  it('requires every code the factors name, six digits each', () => {
    expect(validateEmailChange(EMPTY_EMAIL_CHANGE, all, 'old@example.mn')).toEqual({
      email: 'required',
      newCode: 'required',
      oldCode: 'required',
      smsCode: 'required',
      googleCode: 'required',
    })
    const values = { email: 'new@example.mn', newCode: '123', oldCode: '123456', smsCode: '12345', googleCode: '12' }
    expect(validateEmailChange(values, all, 'old@example.mn')).toEqual({
      newCode: 'codeLength',
      smsCode: 'codeLength',
      googleCode: 'googleCodeLength',
    })
  })

  it('does not ask for the codes of factors the account lacks', () => {
    const values = { ...EMPTY_EMAIL_CHANGE, email: 'new@example.mn', newCode: '123456' }
    expect(validateEmailChange(values, { oldEmail: false, sms: false, google: false }, undefined)).toEqual({})
  })

  it('sends only the codes the factors name', () => {
    const values = { email: ' new@example.mn ', newCode: '111111', oldCode: '222222', smsCode: '333333', googleCode: '444444' }
    expect(emailChangeRequest(values, { oldEmail: true, sms: false, google: true })).toEqual({
      email: 'new@example.mn',
      emailCode: '111111',
      oldEmailCode: '222222',
      smsAuthCode: undefined,
      googleCode: '444444',
    })
  })
})
