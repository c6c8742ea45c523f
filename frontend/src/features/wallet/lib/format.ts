/**
 * Address, valuation and time helpers of the wallet screens (spec §1, §3,
 * §5). Amounts stay decimal strings end to end: their arithmetic, formatting
 * and input rules are in '@/lib/decimal'.
 */
import { formatFixed, multiplyDecimals } from '@/lib/decimal'
import { rateLocale } from '@/lib/rate-locale'

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
 * The TON account an address names, as the raw "workchain:hex" form: a
 * user-friendly address (base64 or base64url, 36 bytes: flags, workchain,
 * 32-byte hash, checksum) and the raw form in either hex case all name one.
 * Undefined when it is neither.
 */
function tonAccount(s: string): string | undefined {
  const raw = /^(-?\d+):([0-9a-fA-F]{64})$/.exec(s)
  if (raw) return `${Number(raw[1])}:${raw[2].toLowerCase()}`
  if (s.length !== TON_FRIENDLY_LENGTH) return undefined
  let bin: string
  try {
    bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'))
  } catch {
    return undefined
  }
  if (bin.length !== 36) return undefined
  const wc = (bin.charCodeAt(1) << 24) >> 24 // a signed byte
  let hex = ''
  for (let i = 2; i < 34; i++) hex += bin.charCodeAt(i).toString(16).padStart(2, '0')
  return `${wc}:${hex}`
}

/**
 * Whether two withdrawal addresses of a chain are one destination, compared
 * as the server compares them (chain.Canonical): bech32 and EVM addresses
 * whatever their letter case, a TON account in any of its forms, other
 * (base58) addresses exactly.
 */
export function sameAddress(a: string, b: string, chain: string): boolean {
  const x = a.trim()
  const y = b.trim()
  if (x === y) return true
  if (/^(bc1|0x)/i.test(x)) return x.toLowerCase() === y.toLowerCase()
  if (chain.toUpperCase() === 'TON') {
    const ax = tonAccount(x)
    return ax !== undefined && ax === tonAccount(y)
  }
  return false
}

/**
 * The "address_memo" form the server takes for a memo chain's destination
 * (spec §7): the memo after an underscore, or the bare address without one.
 * The inverse of {@link splitSavedAddress}.
 */
export function joinAddressMemo(address: string, memo: string): string {
  return memo ? `${address}_${memo}` : address
}

/** Number form of a decimal string for charts only (never for money arithmetic). */
export function toChartNumber(value: string | undefined): number {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : 0
}

export { rateLocale }

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

/**
 * A deposit's expected arrival (seconds, the chain's confirmations' worth
 * of blocks) in whole minutes, rounded, or 0 when it is under a minute;
 * undefined when the server does not know it.
 */
export function arrivalMinutes(seconds: number | undefined): number | undefined {
  if (!seconds || !Number.isFinite(seconds) || seconds <= 0) return undefined
  return seconds < 60 ? 0 : Math.round(seconds / 60)
}

/**
 * The block-explorer link of a transaction as the server built it from
 * the chain's template, when it is one the page may open: an http(s) URL,
 * or a path on this site (the chain simulator's explorer in --dev).
 * Anything else (a javascript: URL, another site through //) is no link.
 */
export function explorerHref(url: string | undefined): string | undefined {
  const u = (url ?? '').trim()
  if (/^https?:\/\/[^/\s]/i.test(u)) return u
  if (u.startsWith('/') && !u.startsWith('//') && !u.startsWith('/\\')) return u
  return undefined
}
