/**
 * Typed access to the cookies of spec §3. Every cookie the web app reads or
 * writes goes through this module so names, defaults and lifetimes live in
 * one place.
 */

/** Cookie names used by the web app (spec §3). */
export const COOKIE = {
  token: 'token',
  language: 'lan',
  skin: 'cusSkin',
  currency: 'user_Currency',
  deviceId: 'dId',
  chfitDeviceId: 'CHFIT_DEVICEID',
  stickyBar: 'stickyBar',
  p2pAgreement: 'isAgreeP2PAgreement',
  balanceHide: 'balance-hide',
  xsrf: 'XSRF-TOKEN',
} as const

/** Lifetime of ordinary preference cookies (the shared constant of spec §9). */
export const COOKIE_MAX_AGE_DAYS = 365
/** Lifetime of the long-lived cookies such as device ids: about 100 years. */
export const LONG_LIVED_DAYS = 365 * 100

const DAY_MS = 24 * 60 * 60 * 1000

/** Reads a cookie value, or undefined when it is not set. */
export function getCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  const prefix = `${encodeURIComponent(name)}=`
  for (const part of document.cookie.split(';')) {
    const item = part.trim()
    if (item.startsWith(prefix)) {
      try {
        return decodeURIComponent(item.slice(prefix.length))
      } catch {
        return item.slice(prefix.length)
      }
    }
  }
  return undefined
}

/** Options for {@link setCookie}. */
export interface CookieOptions {
  /** Days until expiry; defaults to {@link COOKIE_MAX_AGE_DAYS}. */
  days?: number
  path?: string
}

/** Builds the Set-Cookie style string; exported so tests can check expiry. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}, now = Date.now()): string {
  const days = options.days ?? COOKIE_MAX_AGE_DAYS
  const expires = new Date(now + days * DAY_MS).toUTCString()
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : ''
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires}; path=${options.path ?? '/'}; SameSite=Lax${secure}`
}

/** Writes a cookie for the whole site. */
export function setCookie(name: string, value: string, options: CookieOptions = {}): void {
  document.cookie = serializeCookie(name, value, options)
}

/** Removes a cookie by expiring it. */
export function removeCookie(name: string, path = '/'): void {
  document.cookie = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}; SameSite=Lax`
}

/** The two interface languages (spec §1). */
export const LANGUAGES = ['en_US', 'mn_MN'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en_US'

/** Currencies offered by the currency picker; MNT is the local fiat currency. */
export const CURRENCIES = ['USD', 'MNT', 'EUR', 'CNY', 'KRW', 'JPY', 'RUB'] as const
export type Currency = (typeof CURRENCIES)[number]
export const DEFAULT_CURRENCY: Currency = 'USD'

/** Theme as stored in cusSkin: 1 dark, 2 light. */
export type ColorMode = 'light' | 'dark'

/** The session token cookie, set by the server on sign-in. */
export function getToken(): string | undefined {
  return getCookie(COOKIE.token) || undefined
}

/** Removes the session token cookie (logout). */
export function removeToken(): void {
  removeCookie(COOKIE.token)
}

/** The interface language from lan, en_US when absent or unknown. */
export function getLanguage(): Language {
  const value = getCookie(COOKIE.language)
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : DEFAULT_LANGUAGE
}

/** The raw lan cookie value (undefined when absent); footer links use it with their own default. */
export function getRawLanguage(): string | undefined {
  return getCookie(COOKIE.language) || undefined
}

export function setLanguage(lan: Language): void {
  setCookie(COOKIE.language, lan)
}

/** The theme from cusSkin: '1' is dark, anything else (default) light. */
export function getColorMode(): ColorMode {
  return getCookie(COOKIE.skin) === '1' ? 'dark' : 'light'
}

export function setColorMode(mode: ColorMode): void {
  setCookie(COOKIE.skin, mode === 'dark' ? '1' : '2')
}

/** The valuation currency from user_Currency, USD by default. */
export function getCurrency(): Currency {
  const value = getCookie(COOKIE.currency)
  return (CURRENCIES as readonly string[]).includes(value ?? '') ? (value as Currency) : DEFAULT_CURRENCY
}

export function setCurrency(currency: Currency): void {
  setCookie(COOKIE.currency, currency)
}

function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID().replace(/-/g, '')
  }
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

function ensureLongLived(name: string): string {
  const existing = getCookie(name)
  if (existing) return existing
  const id = randomId()
  setCookie(name, id, { days: LONG_LIVED_DAYS })
  return id
}

/** The dId device id, generated and stored for ~100 years when absent. */
export function ensureDeviceId(): string {
  return ensureLongLived(COOKIE.deviceId)
}

/** The CHFIT_DEVICEID fingerprint id, generated and stored for ~100 years when absent. */
export function ensureChfitDeviceId(): string {
  return ensureLongLived(COOKIE.chfitDeviceId)
}

/** Whether the user hid balances (balance-hide = 1). */
export function isBalanceHidden(): boolean {
  return getCookie(COOKIE.balanceHide) === '1'
}

export function setBalanceHidden(hidden: boolean): void {
  setCookie(COOKIE.balanceHide, hidden ? '1' : '0')
}

/** Whether the user accepted the P2P agreement notice. */
export function hasAgreedP2P(): boolean {
  return getCookie(COOKIE.p2pAgreement) === 'true'
}

export function setAgreedP2P(): void {
  setCookie(COOKIE.p2pAgreement, 'true')
}

/** Whether the sticky announcement bar was dismissed. */
export function isStickyBarClosed(): boolean {
  return getCookie(COOKIE.stickyBar) === '1'
}

export function closeStickyBar(): void {
  setCookie(COOKIE.stickyBar, '1')
}
