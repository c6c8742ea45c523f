import { cmpDec, parseDec } from '@/lib/decimal'

/**
 * Client checks of the P2P forms, as the server makes them
 * (internal/p2p checkAd, internal/p2p/paymethod), so a form says what is
 * wrong before it is sent. Each returns a message key (texts errors.*) or
 * undefined.
 */

// --- Payment methods ----------------------------------------------------------

/** IBAN rules of the wallet's add-bank form (spec §5): MN and 18 digits; the user types the digits. */
export const IBAN_PREFIX = 'MN'
export const IBAN_DIGITS = 18
/** Phone-number accounts (QPay, SocialPay): 8 digits. */
export const PHONE_DIGITS = 8

/** Typing rule of the IBAN: digits only, at most 18. */
export function ibanTyped(value: string): string {
  return value.replace(/\D/g, '').slice(0, IBAN_DIGITS)
}

/** Paste rule (spec §5): exactly MN and 18 digits (spaces ignored) gives the digits. */
export function ibanPasted(text: string): { digits: string } | { error: 'ibanPaste' } {
  const compact = text.replace(/\s+/g, '').toUpperCase()
  return /^MN\d{18}$/.test(compact) ? { digits: compact.slice(2) } : { error: 'ibanPaste' }
}

/** The IBAN's 18 digits once typed (a stored MN… account gives its digits back). */
export function ibanDigitsOf(account: string): string {
  const compact = account.replace(/\s+/g, '').toUpperCase()
  return ibanTyped(compact.startsWith(IBAN_PREFIX) ? compact.slice(2) : compact)
}

/** A phone account as typed: digits only, at most 8 (a leading +976 dropped). */
export function phoneTyped(value: string): string {
  return value.replace(/^\s*\+976/, '').replace(/\D/g, '').slice(0, PHONE_DIGITS)
}

/** The checks of a payment method form. */
export function validateMethod(input: { kind: string; bank: string; account: string }): {
  kind?: string
  bank?: string
  account?: string
} {
  const out: { kind?: string; bank?: string; account?: string } = {}
  if (!input.kind) out.kind = 'required'
  if (input.kind === 'bank') {
    if (!input.bank) out.bank = 'required'
    if (!input.account) out.account = 'required'
    else if (!/^\d{18}$/.test(input.account)) out.account = 'ibanDigits'
  } else if (input.kind) {
    if (!input.account) out.account = 'required'
    else if (!/^\d{8}$/.test(input.account)) out.account = 'phoneDigits'
  }
  return out
}

/** The account a method sends: MN prepended to the IBAN's digits; a phone as it is. */
export function accountForSubmit(kind: string, account: string): string {
  return kind === 'bank' ? `${IBAN_PREFIX}${ibanTyped(account)}` : phoneTyped(account)
}

// --- Ads ---------------------------------------------------------------------------

/** The ad form's values (strings as typed). */
export interface AdForm {
  side: 'BUY' | 'SELL'
  coinSymbol: string
  priceType: 'fixed' | 'floating'
  price: string
  priceRate: string
  volume: string
  minTrade: string
  maxTrade: string
  payments: string[]
  limitTime: number
  description: string
  kycRequired: boolean
}

/** The ad form's field errors (message keys). */
export type AdErrors = Partial<Record<'price' | 'priceRate' | 'volume' | 'minTrade' | 'maxTrade' | 'payments' | 'limitTime' | 'description', string>>

/** Bounds the ad form is checked against (public_info and the coin). */
export interface AdRules {
  volumePlaces: number
  priceRateMin: number
  priceRateMax: number
  limitTimes: number[]
  /** The caller's available OTC balance of the coin (SELL ads hold it); undefined when unknown. */
  balance?: string
  /** What the ad already holds when it is edited (a SELL ad's remaining coins come back first). */
  held?: string
}

export const MAX_DESCRIPTION = 1000
export const MAX_PAYMENTS = 5

const decimalRe = (places: number) => new RegExp(`^\\d{1,20}(\\.\\d{1,${Math.max(1, places)}})?$`)

function positive(value: string, places: number): 'required' | 'number' | 'places' | 'positive' | undefined {
  if (value.trim() === '') return 'required'
  if (!/^\d+(\.\d+)?$/.test(value)) return 'number'
  if (places === 0 ? !/^\d+$/.test(value) : !decimalRe(places).test(value)) return 'places'
  const d = parseDec(value)
  if (!d || d.units <= 0n) return 'positive'
  return undefined
}

/** Checks the ad form; an empty object means it may be sent. */
export function validateAd(form: AdForm, rules: AdRules): AdErrors {
  const out: AdErrors = {}
  if (form.priceType === 'fixed') {
    const e = positive(form.price, 2)
    if (e) out.price = e === 'places' ? 'fiatPlaces' : e
  } else {
    const e = positive(form.priceRate, 2)
    const rate = parseDec(form.priceRate)
    if (e) out.priceRate = e === 'places' ? 'ratePlaces' : e
    else if (
      rate &&
      (cmpDec(rate, parseDec(String(rules.priceRateMin))!) < 0 || cmpDec(rate, parseDec(String(rules.priceRateMax))!) > 0)
    ) {
      out.priceRate = 'rateRange'
    }
  }
  const ve = positive(form.volume, rules.volumePlaces)
  if (ve) out.volume = ve === 'places' ? 'volumePlaces' : ve
  else if (form.side === 'SELL' && rules.balance !== undefined) {
    const room = addDec(rules.balance, rules.held ?? '0')
    const v = parseDec(form.volume)
    if (room && v && cmpDec(v, room) > 0) out.volume = 'volumeBalance'
  }
  const mine = positive(form.minTrade, 2)
  const maxe = positive(form.maxTrade, 2)
  if (mine) out.minTrade = mine === 'places' ? 'fiatPlaces' : mine
  if (maxe) out.maxTrade = maxe === 'places' ? 'fiatPlaces' : maxe
  if (!mine && !maxe && cmpDec(parseDec(form.minTrade)!, parseDec(form.maxTrade)!) > 0) out.maxTrade = 'maxBelowMin'
  if (form.payments.length === 0) out.payments = 'paymentsRequired'
  else if (form.payments.length > MAX_PAYMENTS) out.payments = 'paymentsMax'
  if (!rules.limitTimes.includes(form.limitTime)) out.limitTime = 'required'
  if ([...form.description].length > MAX_DESCRIPTION) out.description = 'descriptionTooLong'
  return out
}

function addDec(a: string, b: string): ReturnType<typeof parseDec> {
  const x = parseDec(a)
  const y = parseDec(b)
  if (!x || !y) return x ?? undefined
  const scale = Math.max(x.scale, y.scale)
  return { units: x.units * 10n ** BigInt(scale - x.scale) + y.units * 10n ** BigInt(scale - y.scale), scale }
}

// --- Appeals and chat -----------------------------------------------------------------

export const MAX_APPEAL = 1000
export const MAX_EVIDENCE = 5
export const MAX_CHAT = 1000

/** Checks an appeal: a reason, and a description of at most 1000 characters. */
export function validateAppeal(input: { reason: string; description: string }): { reason?: string; description?: string } {
  const out: { reason?: string; description?: string } = {}
  if (!input.reason) out.reason = 'required'
  const d = input.description.trim()
  if (!d) out.description = 'required'
  else if ([...d].length > MAX_APPEAL) out.description = 'tooLong'
  return out
}

/** Checks a chat message's text: not blank, at most 1000 characters. */
export function chatTextProblem(text: string): 'empty' | 'tooLong' | undefined {
  const t = text.trim()
  if (!t) return 'empty'
  return [...t].length > MAX_CHAT ? 'tooLong' : undefined
}
