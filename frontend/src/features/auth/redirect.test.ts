import { resolveLoginRedirect } from './redirect'

describe('resolveLoginRedirect', () => {
  it('keeps same-site paths with query and hash', () => {
    expect(resolveLoginRedirect('/profile/security')).toBe('/profile/security')
    expect(resolveLoginRedirect('/p2p/profile?uid=42#ads')).toBe('/p2p/profile?uid=42#ads')
  })

  it('accepts an encoded path (a ?redirect= value decoded once more)', () => {
    expect(resolveLoginRedirect('%2Fwallet%2Fhistory%3Ftab%3Ddeposit')).toBe('/wallet/history?tab=deposit')
  })

  it.each([
    'https://evil.example/phish',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '%2F%2Fevil.example',
    'javascript:alert(1)',
    'evil.example',
    '\\\\evil.example',
    ' /profile',
  ])('rejects %j', (value) => {
    expect(resolveLoginRedirect(value)).toBe('/')
  })

  it('never sends the user back into the sign-in screens', () => {
    expect(resolveLoginRedirect('/auth/login?redirect=%2Fauth%2Flogin')).toBe('/')
    expect(resolveLoginRedirect('/auth/register')).toBe('/')
    expect(resolveLoginRedirect('/auth')).toBe('/')
    expect(resolveLoginRedirect('/authors')).toBe('/authors')
  })

  it('falls back for missing or non-string values', () => {
    expect(resolveLoginRedirect(undefined)).toBe('/')
    expect(resolveLoginRedirect('')).toBe('/')
    expect(resolveLoginRedirect(42)).toBe('/')
    expect(resolveLoginRedirect({ to: '/x' })).toBe('/')
    expect(resolveLoginRedirect('%E0%A4%A')).toBe('/')
    expect(resolveLoginRedirect(undefined, '/markets')).toBe('/markets')
  })
})
