import { describe, expect, it } from 'vitest'
import type { ApiKey } from '../api/api-keys-api'
import {
  emptyForm,
  fieldOfCode,
  formOf,
  inputOf,
  ipsError,
  isEd25519PublicKeyPem,
  labelError,
  neededCodes,
  permissionsOf,
  publicKeyError,
  unrestrictedRisk,
  validateKeyForm,
  withdrawAllowed,
  type KeyFormValues,
} from './key-form'

// The example Ed25519 public key of RFC 8410, section 10.1.
const ED25519_PEM = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----'
// An X25519 key (OID 1.3.101.110): the right length, the wrong algorithm.
const X25519_PEM = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VuAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----'

const form = (over: Partial<KeyFormValues> = {}): KeyFormValues => ({ ...emptyForm(), label: 'Bot', ...over })

describe('label', () => {
  it('is required, 1–32 characters after trimming, without control characters', () => {
    expect(labelError('')).toEqual({ key: 'errors.required' })
    expect(labelError('   ')).toEqual({ key: 'errors.required' })
    expect(labelError('Grid bot')).toBeUndefined()
    expect(labelError('x'.repeat(32))).toBeUndefined()
    // Characters, not UTF-16 units: 32 Mongolian letters or emoji fit.
    expect(labelError('ө'.repeat(32))).toBeUndefined()
    expect(labelError('🚀'.repeat(32))).toBeUndefined()
    expect(labelError('x'.repeat(33))).toEqual({ key: 'errors.label', vars: { max: 32 } })
    expect(labelError('a\u0007b')?.key).toBe('errors.label')
    expect(labelError('a\u200bb')?.key).toBe('errors.label')
  })
})

describe('the withdraw rule', () => {
  it('allows withdraw only with at least one valid IP restriction', () => {
    expect(withdrawAllowed(form())).toBe(false)
    expect(withdrawAllowed(form({ ipMode: 'restrict', ipText: '' }))).toBe(false)
    expect(withdrawAllowed(form({ ipMode: 'restrict', ipText: 'nonsense' }))).toBe(false)
    expect(withdrawAllowed(form({ ipMode: 'restrict', ipText: '203.0.113.7' }))).toBe(true)
    // IPs typed and then the restriction turned off: no restriction, no withdraw.
    expect(withdrawAllowed(form({ ipMode: 'any', ipText: '203.0.113.7' }))).toBe(false)
  })

  it('leaves withdraw out of the permissions sent without IPs, and refuses it on submit', () => {
    const values = form({ permissions: ['withdraw', 'spot'] })
    expect(permissionsOf(values)).toEqual(['read', 'spot'])
    expect(validateKeyForm(values, 'create').permissions).toEqual({ key: 'form.withdrawNeedsIp' })
    const restricted = form({ permissions: ['withdraw', 'spot'], ipMode: 'restrict', ipText: '10.0.0.0/8' })
    expect(permissionsOf(restricted)).toEqual(['read', 'spot', 'withdraw'])
    expect(validateKeyForm(restricted, 'create')).toEqual({})
  })

  it('always sends read first, in the server order', () => {
    expect(permissionsOf(form({ permissions: ['futures', 'margin', 'spot'] }))).toEqual(['read', 'spot', 'margin', 'futures'])
    expect(permissionsOf(form())).toEqual(['read'])
  })
})

describe('IP restriction', () => {
  it('needs an entry once restricted, checks every entry and counts them', () => {
    expect(ipsError(form())).toBeUndefined()
    expect(ipsError(form({ ipMode: 'restrict' }))).toEqual({ key: 'errors.ipRequired' })
    expect(ipsError(form({ ipMode: 'restrict' }), { requireOne: false })).toBeUndefined()
    expect(ipsError(form({ ipMode: 'restrict', ipText: '1.2.3.4, 999.1.1.1, 10.0.0.0/40' }))).toEqual({
      key: 'errors.ipInvalid',
      vars: { list: '999.1.1.1, 10.0.0.0/40' },
    })
    // The entry being typed is not called invalid yet.
    expect(ipsError(form({ ipMode: 'restrict', ipText: '1.2.3.4\n10.0.' }), { typing: true })).toBeUndefined()
    const many = Array.from({ length: 31 }, (_, i) => `10.0.${i}.1`).join('\n')
    expect(ipsError(form({ ipMode: 'restrict', ipText: many }))).toEqual({ key: 'errors.ipTooMany', vars: { max: 30 } })
  })

  it('sends the canonical distinct entries, none when unrestricted', () => {
    expect(inputOf(form({ label: '  Bot  ', ipMode: 'restrict', ipText: '10.0.0.7/24\n10.0.0.0/24\n2001:DB8::1' }))).toEqual({
      label: 'Bot',
      permissions: ['read'],
      ips: ['10.0.0.0/24', '2001:db8::1'],
    })
    expect(inputOf(form({ ipMode: 'any', ipText: '10.0.0.1' })).ips).toEqual([])
  })
})

describe('Ed25519 public key', () => {
  it('accepts an Ed25519 key in PEM form only', () => {
    expect(isEd25519PublicKeyPem(ED25519_PEM)).toBe(true)
    expect(isEd25519PublicKeyPem(`\n  ${ED25519_PEM}\n`)).toBe(true)
    expect(isEd25519PublicKeyPem(X25519_PEM)).toBe(false)
    expect(isEd25519PublicKeyPem('MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=')).toBe(false)
    expect(isEd25519PublicKeyPem('-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----')).toBe(false)
  })

  it('is checked for an Ed25519 key only', () => {
    expect(publicKeyError(form())).toBeUndefined()
    expect(publicKeyError(form({ keyType: 'ED25519' }))).toEqual({ key: 'errors.required' })
    expect(publicKeyError(form({ keyType: 'ED25519', publicKey: X25519_PEM }))).toEqual({ key: 'errors.publicKey' })
    expect(publicKeyError(form({ keyType: 'ED25519', publicKey: ED25519_PEM }))).toBeUndefined()
    // The edit form has no key type: its public key is not asked for.
    expect(validateKeyForm(form({ keyType: 'ED25519' }), 'edit').publicKey).toBeUndefined()
  })
})

describe('the edit form', () => {
  it('starts from the key: its permissions besides read, its IPs one per line', () => {
    const key: ApiKey = {
      apiKey: 'k'.repeat(64),
      label: 'Grid',
      permissions: ['read', 'spot', 'withdraw'],
      ips: ['10.0.0.0/24', '2001:db8::1'],
      keyType: 'ED25519',
      createdAt: 1,
      lastUsedAt: 0,
    }
    expect(formOf(key)).toEqual({
      label: 'Grid',
      keyType: 'ED25519',
      publicKey: '',
      permissions: ['spot', 'withdraw'],
      ipMode: 'restrict',
      ipText: '10.0.0.0/24\n2001:db8::1',
    })
    expect(formOf({ ...key, ips: [] }).ipMode).toBe('any')
  })
})

describe('verification codes', () => {
  it('follows the withdrawal rule', () => {
    expect(neededCodes({ email: 'a@b.mn' })).toEqual({ email: true, sms: false, google: false })
    expect(neededCodes({ email: 'a@b.mn', mobileNumber: '99112233' })).toEqual({ email: true, sms: false, google: false })
    expect(neededCodes({ email: 'a@b.mn', isOpenMobileCheck: 1, googleStatus: 1 })).toEqual({ email: true, sms: true, google: true })
    // A phone-only account without the SMS check or the authenticator still confirms by SMS.
    expect(neededCodes({ mobileNumber: '99112233' })).toEqual({ email: false, sms: true, google: false })
    expect(neededCodes({ mobileNumber: '99112233', googleStatus: 1 })).toEqual({ email: false, sms: false, google: true })
    expect(neededCodes(null)).toEqual({ email: false, sms: false, google: false })
  })
})

describe('server refusals', () => {
  it('go beside the field they are about', () => {
    expect(fieldOfCode('15000')).toBe('label')
    expect(fieldOfCode('15002')).toBe('ips')
    expect(fieldOfCode('15003')).toBe('ips')
    expect(fieldOfCode('15004')).toBe('ips')
    expect(fieldOfCode('15007')).toBe('publicKey')
    expect(fieldOfCode('15005')).toBeUndefined()
    expect(fieldOfCode('10005')).toBeUndefined()
  })
})

describe('unrestricted keys', () => {
  it('are a risk when they may trade', () => {
    expect(unrestrictedRisk({ permissions: ['read'], ips: [] })).toBe(false)
    expect(unrestrictedRisk({ permissions: ['read', 'spot'], ips: [] })).toBe(true)
    expect(unrestrictedRisk({ permissions: ['read', 'spot'], ips: ['10.0.0.1'] })).toBe(false)
  })
})
