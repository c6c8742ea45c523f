// A small RFC 6238 (TOTP) implementation so the tests can answer the Google
// authenticator step exactly like a phone app would, without extra packages.
import { createHmac } from 'node:crypto'

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** Decodes an RFC 4648 base32 string (padding and spaces ignored). */
export function base32Decode(input: string): Buffer {
  const clean = input.toUpperCase().replace(/[\s=]/g, '')
  let bits = 0
  let value = 0
  const out: number[] = []
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch)
    if (idx < 0) throw new Error(`invalid base32 character ${JSON.stringify(ch)}`)
    value = (value << 5) | idx
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** HOTP (RFC 4226) with dynamic truncation. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm = 'sha1'): string {
  const msg = Buffer.alloc(8)
  msg.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm, key).update(msg).digest()
  const offset = mac[mac.length - 1] & 0x0f
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3]
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The 30-second time step a moment belongs to. */
export function timeStep(timeMs = Date.now(), periodSeconds = 30): number {
  return Math.floor(timeMs / 1000 / periodSeconds)
}

/** TOTP code for a base32 secret at a moment (default now). */
export function totp(secretBase32: string, timeMs = Date.now(), digits = 6): string {
  return hotp(base32Decode(secretBase32), timeStep(timeMs), digits)
}
