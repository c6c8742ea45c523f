/**
 * The IP restriction of an API key as it is typed: IPv4 and IPv6 addresses
 * and CIDR ranges, one per line or separated by commas, spaces or
 * semicolons. The rules are the server's (Go's net/netip): IPv4 in four
 * decimal parts without leading zeros, IPv6 with at most one '::' that
 * stands for at least one group, no zones, a prefix length without leading
 * zeros. Entries are compared in the server's canonical form, so duplicates
 * count once.
 */

/** The most IP entries a key takes (the server's limit). */
export const MAX_IPS = 30

const SEPARATORS = /[\s,;]+/

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.')
  if (parts.length !== 4) return undefined
  const out: number[] = []
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return undefined
    const n = Number(p)
    if (n > 255) return undefined
    out.push(n)
  }
  return out
}

/** Sixteen bytes of an IPv6 address (without a zone), or undefined. */
function parseIPv6(s: string): number[] | undefined {
  if (s.includes('%')) return undefined
  const halves = s.split('::')
  if (halves.length > 2) return undefined
  const groups = (part: string, last: boolean): number[] | undefined => {
    if (part === '') return []
    const fields = part.split(':')
    const bytes: number[] = []
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]
      if (last && i === fields.length - 1 && f.includes('.')) {
        const v4 = parseIPv4(f)
        if (!v4) return undefined
        bytes.push(...v4)
        continue
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(f)) return undefined
      const n = parseInt(f, 16)
      bytes.push(n >> 8, n & 255)
    }
    return bytes
  }
  if (halves.length === 1) {
    const all = groups(halves[0], true)
    return all && all.length === 16 ? all : undefined
  }
  const head = groups(halves[0], false)
  const tail = groups(halves[1], true)
  // '::' stands for at least one group of zeros.
  if (!head || !tail || head.length + tail.length > 14) return undefined
  return [...head, ...new Array<number>(16 - head.length - tail.length).fill(0), ...tail]
}

const isV4Mapped = (b: number[]) => b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255

function formatIPv4(b: number[]): string {
  return b.join('.')
}

/** RFC 5952 text of sixteen bytes, as Go prints it (an IPv4-mapped address ends in dotted form). */
function formatIPv6(b: number[]): string {
  if (isV4Mapped(b)) return `::ffff:${formatIPv4(b.slice(12))}`
  const g: number[] = []
  for (let i = 0; i < 16; i += 2) g.push((b[i] << 8) | b[i + 1])
  // The longest run of two or more zero groups (the first of equal runs) becomes '::'.
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && g[j] === 0) j++
    if (j - i > bestLen) {
      best = i
      bestLen = j - i
    }
    i = j
  }
  const hex = (from: number, to: number) => g.slice(from, to).map((x) => x.toString(16)).join(':')
  if (best < 0) return hex(0, 8)
  return `${hex(0, best)}::${hex(best + bestLen, 8)}`
}

/** Zeroes the bits of `bytes` after the first `bits`. */
function mask(bytes: number[], bits: number): number[] {
  return bytes.map((x, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8))
    return keep === 8 ? x : x & ((0xff << (8 - keep)) & 0xff)
  })
}

interface ParsedAddr {
  bytes: number[]
  v4: boolean
}

function parseAddr(s: string): ParsedAddr | undefined {
  if (s.includes(':')) {
    const b = parseIPv6(s)
    return b ? { bytes: b, v4: false } : undefined
  }
  const b = parseIPv4(s)
  return b ? { bytes: b, v4: true } : undefined
}

const formatAddr = (a: ParsedAddr) => (a.v4 ? formatIPv4(a.bytes) : formatIPv6(a.bytes))

/**
 * The canonical form of one entry (an address, or a range masked to its
 * prefix, '10.0.0.7/24' → '10.0.0.0/24'; a range of one address is that
 * address), or undefined when it is neither an address nor a CIDR range.
 */
export function parseIpEntry(raw: string): string | undefined {
  const v = raw.trim()
  if (v === '') return undefined
  const slash = v.indexOf('/')
  if (slash < 0) {
    const a = parseAddr(v)
    if (!a) return undefined
    // A single IPv4-mapped IPv6 address is the IPv4 address.
    if (!a.v4 && isV4Mapped(a.bytes)) return formatIPv4(a.bytes.slice(12))
    return formatAddr(a)
  }
  const a = parseAddr(v.slice(0, slash))
  const bitsText = v.slice(slash + 1)
  if (!a || !/^(0|[1-9]\d{0,2})$/.test(bitsText)) return undefined
  const bits = Number(bitsText)
  const max = a.v4 ? 32 : 128
  if (bits > max) return undefined
  const masked = { ...a, bytes: mask(a.bytes, bits) }
  return bits === max ? formatAddr(masked) : `${formatAddr(masked)}/${bits}`
}

/** The entries of a typed list, as typed (blank ones dropped). */
export function splitIpText(text: string): string[] {
  return text.split(SEPARATORS).filter((s) => s !== '')
}

/** What a typed IP list holds. */
export interface IpListCheck {
  /** Distinct canonical entries, in the order typed. */
  ips: string[]
  /** Entries that are neither an address nor a CIDR range, as typed. */
  invalid: string[]
  /** More than {@link MAX_IPS} distinct entries. */
  tooMany: boolean
}

/**
 * Checks a typed list. With `typing`, an entry still being typed (the last
 * one, not followed by a separator) is not called invalid yet: '192.168.'
 * becomes an address with the next keys. It still counts once it is valid.
 */
export function checkIpList(text: string, { typing = false }: { typing?: boolean } = {}): IpListCheck {
  const entries = splitIpText(text)
  const open = typing && text !== '' && !SEPARATORS.test(text.slice(-1))
  const ips: string[] = []
  const invalid: string[] = []
  entries.forEach((raw, i) => {
    const canonical = parseIpEntry(raw)
    if (canonical === undefined) {
      if (!(open && i === entries.length - 1)) invalid.push(raw)
    } else if (!ips.includes(canonical)) {
      ips.push(canonical)
    }
  })
  return { ips, invalid, tooMany: ips.length > MAX_IPS }
}
