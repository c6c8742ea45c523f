/**
 * Formatters and input rules of the wallet screens (spec §5, §9). Amounts
 * stay decimal strings end to end: the arithmetic here is done on BigInt
 * scaled integers so a balance is never rounded through a binary float.
 */
import { groupThousands } from '@/lib/group-thousands'

/** Addresses longer than this are shortened for display (spec §5). */
export const ADDRESS_SHORT_LIMIT = 37
const ADDRESS_HEAD = 28
const ADDRESS_TAIL = 6

/** Spec §5: an address over 37 characters shows as the first 28, an ellipsis and the last 6. */
export function shortenAddress(address: string): string {
  if (address.length <= ADDRESS_SHORT_LIMIT) return address
  return `${address.slice(0, ADDRESS_HEAD)}…${address.slice(-ADDRESS_TAIL)}`
}

/**
 * Spec §3: the deposit address to show and copy, and its memo. The server
 * gives the bare address (addressLong), the memo, and addressStr, which for
 * memo coins (XRP, TON) is address_memo. The address is addressLong when
 * given, else addressStr cut at its last underscore; the memo is the given
 * one, else what follows that underscore.
 */
export function splitDepositAddress(data: { addressLong?: string; addressStr?: string; memo?: string }): {
  address: string
  memo: string
} {
  const memo = (data.memo ?? '').trim()
  const long = (data.addressLong ?? '').trim()
  if (long) {
    // Never the combined form, even if a server sent it as addressLong.
    return { address: memo && long.endsWith(`_${memo}`) ? long.slice(0, -memo.length - 1) : long, memo }
  }
  const str = (data.addressStr ?? '').trim()
  const at = str.lastIndexOf('_')
  if (at <= 0) return { address: str, memo }
  return { address: str.slice(0, at), memo: memo || str.slice(at + 1) }
}

/** Length of a TON user-friendly (base64url) address. */
const TON_FRIENDLY_LENGTH = 48

/**
 * Splits a saved withdrawal address of a memo chain, given in the
 * "address_memo" form (get_cost's userWithdrawAddrList, spec §3), the way
 * the server does. An XRP address has no underscore, so the first one
 * separates; a TON user-friendly address is base64url and may itself hold
 * underscores, so it is its fixed 48 characters and the memo follows the
 * underscore after them (a raw TON address, with a colon, has none). A
 * chain without memos never splits.
 */
export function splitSavedAddress(value: string, chain: string, memoChain: boolean): { address: string; memo: string } {
  const s = value.trim()
  if (!memoChain) return { address: s, memo: '' }
  if (chain.toUpperCase() === 'TON' && !s.includes(':')) {
    if (s.length > TON_FRIENDLY_LENGTH && s[TON_FRIENDLY_LENGTH] === '_') {
      return { address: s.slice(0, TON_FRIENDLY_LENGTH), memo: s.slice(TON_FRIENDLY_LENGTH + 1) }
    }
    if (s.length <= TON_FRIENDLY_LENGTH) return { address: s, memo: '' }
    const at = s.lastIndexOf('_')
    return at >= 0 ? { address: s.slice(0, at), memo: s.slice(at + 1) } : { address: s, memo: '' }
  }
  const at = s.indexOf('_')
  return at >= 0 ? { address: s.slice(0, at), memo: s.slice(at + 1) } : { address: s, memo: '' }
}

/**
 * The "address_memo" form the server takes for a memo chain's destination
 * (spec §7): the memo after an underscore, or the bare address without one.
 * The inverse of {@link splitSavedAddress}.
 */
export function joinAddressMemo(address: string, memo: string): string {
  return memo ? `${address}_${memo}` : address
}

/** A parsed decimal: value = int / 10^scale. */
interface Dec {
  int: bigint
  scale: number
}

/** Parses a plain decimal string ('-12.5', '0.001'); undefined when it is not one. */
function parseDec(value: string | number | undefined | null): Dec | undefined {
  if (value === undefined || value === null) return undefined
  const s = String(value).trim()
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined
  const frac = m[3] ?? ''
  const digits = `${m[2] || '0'}${frac}`
  const int = BigInt(digits) * (m[1] === '-' ? -1n : 1n)
  return { int, scale: frac.length }
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n)
}

function toFixedString(d: Dec, decimals: number, mode: 'truncate' | 'round'): string {
  let int = d.int
  if (decimals < d.scale) {
    const div = pow10(d.scale - decimals)
    const negative = int < 0n
    const abs = negative ? -int : int
    let q = abs / div
    if (mode === 'round' && (abs % div) * 2n >= div) q += 1n
    int = negative ? -q : q
  } else {
    int *= pow10(decimals - d.scale)
  }
  const negative = int < 0n
  const digits = (negative ? -int : int).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const frac = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : ''
  return `${negative && int !== 0n ? '-' : ''}${whole}${frac}`
}

/**
 * Cuts a decimal string to `decimals` places without rounding (the All
 * button and the futures 3-decimal rule, spec §5/§9); the result keeps
 * exactly `decimals` places. Unparseable input gives ''.
 */
export function truncateDecimals(value: string, decimals: number): string {
  const d = parseDec(value)
  return d ? toFixedString(d, Math.max(0, decimals), 'truncate') : ''
}

/** Like {@link truncateDecimals} but drops trailing zeros ('1.500' → '1.5'). */
export function truncateTrim(value: string, decimals: number): string {
  const s = truncateDecimals(value, decimals)
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s
}

/** Rounds a decimal string half up to `decimals` places for display; '--' when not a number. */
export function formatFixed(value: string | number | undefined | null, decimals: number): string {
  const d = parseDec(value)
  if (!d) return '--'
  return groupThousands(toFixedString(d, Math.max(0, decimals), 'round'))
}

/**
 * A recorded amount (a deposit, a withdrawal, its fee) at `decimals` places
 * with thousands separators, or at more places when the value has more
 * significant digits: a record is shown exactly, never rounded away (a
 * 0.0005 BTC fee stays 0.0005 under the 2-place fee rule of spec §9).
 * '--' when not a number.
 */
export function formatAtLeast(value: string | number | undefined | null, decimals: number): string {
  const d = parseDec(value)
  if (!d) return '--'
  let scale = d.scale
  let int = d.int
  while (scale > 0 && int % 10n === 0n) {
    int /= 10n
    scale -= 1
  }
  return formatFixed(value, Math.max(decimals, scale))
}

/** a × b of two decimal strings, rounded half up to `decimals`; '' when either is not a number. */
export function multiplyDecimals(a: string, b: string, decimals: number): string {
  const x = parseDec(a)
  const y = parseDec(b)
  if (!x || !y) return ''
  return toFixedString({ int: x.int * y.int, scale: x.scale + y.scale }, decimals, 'round')
}

/** Compares two decimal strings (-1, 0, 1); non-numbers count as 0. */
export function compareDecimals(a: string, b: string): number {
  const x = parseDec(a) ?? { int: 0n, scale: 0 }
  const y = parseDec(b) ?? { int: 0n, scale: 0 }
  const scale = Math.max(x.scale, y.scale)
  const xi = x.int * pow10(scale - x.scale)
  const yi = y.int * pow10(scale - y.scale)
  return xi === yi ? 0 : xi < yi ? -1 : 1
}

/** a − b of two decimal strings at the larger scale; '' when either is not a number. */
export function subtractDecimals(a: string, b: string): string {
  const x = parseDec(a)
  const y = parseDec(b)
  if (!x || !y) return ''
  const scale = Math.max(x.scale, y.scale)
  return toFixedString({ int: x.int * pow10(scale - x.scale) - y.int * pow10(scale - y.scale), scale }, scale, 'truncate')
}

/** True when a decimal string is above zero. */
export function isPositive(value: string): boolean {
  const d = parseDec(value)
  return !!d && d.int > 0n
}

/** Number form of a decimal string for charts only (never for money arithmetic). */
export function toChartNumber(value: string | undefined): number {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : 0
}

/**
 * The amount input rule (spec §5): digits with at most one decimal point.
 * Returns the cleaned value: other characters are dropped, a second point
 * is dropped, a leading point becomes '0.', and when `decimals` is given the
 * fraction is cut to that many places.
 */
export function sanitizeAmount(input: string, decimals?: number): string {
  let out = ''
  let seenPoint = false
  for (const ch of input.replace(/,/g, '.')) {
    if (ch >= '0' && ch <= '9') out += ch
    else if (ch === '.' && !seenPoint) {
      seenPoint = true
      out += '.'
    }
  }
  if (out.startsWith('.')) out = `0${out}`
  // Collapse leading zeros ('007' → '7', '00.5' → '0.5').
  out = out.replace(/^0+(?=\d)/, '')
  if (decimals !== undefined && seenPoint) {
    const [whole, frac = ''] = out.split('.')
    out = decimals <= 0 ? whole : `${whole}.${frac.slice(0, decimals)}`
  }
  return out
}

/** True when the value matches the amount rule exactly. */
export function isAmountText(value: string): boolean {
  return /^\d+(\.\d*)?$/.test(value)
}

/** The valuation locale of a currency (spec §1: MNT uses mn_MN rates, otherwise en_US). */
export function rateLocale(currency: string): 'mn_MN' | 'en_US' {
  const c = currency.toUpperCase()
  return c === 'MNT' || c === 'MONT' ? 'mn_MN' : 'en_US'
}

/** A rate table of one locale (BTC, MONT, USDT ... as decimal strings, lang_logo). */
export type RateTable = Record<string, string>

/**
 * Spec §1 valuation: an amount (in BTC unless `coin` says otherwise) in the
 * chosen currency through the coin's rate in the currency's locale table,
 * 2 decimals (fiat valuations, §9). Returns the sign and the formatted
 * value, or undefined without a rate.
 */
export function valueInCurrency(
  amount: string,
  currency: string,
  rates: Record<string, RateTable> | undefined,
  coin = 'BTC',
): { sign: string; value: string } | undefined {
  const table = rates?.[rateLocale(currency)]
  const rate = table?.[coin.toUpperCase()]
  if (!table || !rate) return undefined
  const product = multiplyDecimals(amount, rate, 2)
  if (product === '') return undefined
  return { sign: table.lang_logo ?? '', value: formatFixed(product, 2) }
}

/** The text shown in place of a hidden balance (balance-hide cookie). */
export const HIDDEN_BALANCE = '******'

/** A Unix-ms time as local 'YYYY-MM-DD HH:mm:ss'. */
export function formatTime(ms: number | undefined): string {
  if (!ms) return '--'
  const d = new Date(ms)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`
}
