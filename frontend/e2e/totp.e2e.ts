// The test-side TOTP must be right before it can judge the server: RFC 6238
// appendix B vectors (SHA-1, 8 digits) and a 6-digit value.
import { expect, test } from '@playwright/test'
import { base32Decode, hotp, totp } from './support/totp'

const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii')

test('TOTP helper matches the RFC 6238 and RFC 4226 test vectors', () => {
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ]
  for (const [seconds, code] of vectors) {
    expect(hotp(RFC_SECRET, Math.floor(seconds / 30), 8)).toBe(code)
  }
  // RFC 4226 appendix D, counter 0 and 9.
  expect(hotp(RFC_SECRET, 0)).toBe('755224')
  expect(hotp(RFC_SECRET, 9)).toBe('520489')
  // Base32 of the same secret, as an authenticator app would get it.
  const b32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
  expect(base32Decode(b32).equals(RFC_SECRET)).toBe(true)
  expect(totp(b32, 59_000)).toBe('287082')
})
