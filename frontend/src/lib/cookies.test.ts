import { describe, expect, it, vi } from 'vitest'
import {
  COOKIE_MAX_AGE_DAYS,
  ensureChfitDeviceId,
  ensureDeviceId,
  getColorMode,
  getCookie,
  getCurrency,
  getLanguage,
  getToken,
  isBalanceHidden,
  LONG_LIVED_DAYS,
  removeToken,
  serializeCookie,
  setBalanceHidden,
  setColorMode,
  setCookie,
  setCurrency,
  setLanguage,
  hasAgreedP2P,
  setAgreedP2P,
} from './cookies'

const DAY = 24 * 60 * 60 * 1000

describe('cookie defaults', () => {
  it('defaults language to en_US, currency to USD and theme to light', () => {
    expect(getLanguage()).toBe('en_US')
    expect(getCurrency()).toBe('USD')
    expect(getColorMode()).toBe('light')
    expect(getToken()).toBeUndefined()
    expect(isBalanceHidden()).toBe(false)
    expect(hasAgreedP2P()).toBe(false)
  })

  it('ignores unknown language and currency values', () => {
    document.cookie = 'lan=xx_YY; path=/'
    document.cookie = 'user_Currency=DOGE; path=/'
    expect(getLanguage()).toBe('en_US')
    expect(getCurrency()).toBe('USD')
  })
})

describe('cookie writes', () => {
  it('stores lan, user_Currency, cusSkin (1 dark, 2 light) and balance-hide', () => {
    setLanguage('mn_MN')
    setCurrency('MNT')
    setColorMode('dark')
    setBalanceHidden(true)
    setAgreedP2P()
    expect(getCookie('lan')).toBe('mn_MN')
    expect(getLanguage()).toBe('mn_MN')
    expect(getCookie('user_Currency')).toBe('MNT')
    expect(getCookie('cusSkin')).toBe('1')
    expect(getColorMode()).toBe('dark')
    expect(getCookie('balance-hide')).toBe('1')
    expect(getCookie('isAgreeP2PAgreement')).toBe('true')
    setColorMode('light')
    expect(getCookie('cusSkin')).toBe('2')
    expect(getColorMode()).toBe('light')
  })

  it('reads and removes the token cookie', () => {
    setCookie('token', 'abc.def')
    expect(getToken()).toBe('abc.def')
    removeToken()
    expect(getToken()).toBeUndefined()
  })

  it('encodes values safely', () => {
    setCookie('stickyBar', 'a b;c')
    expect(getCookie('stickyBar')).toBe('a b;c')
  })
})

describe('cookie expiry', () => {
  it('uses the shared lifetime for preferences and ~100 years for long-lived cookies', () => {
    const now = Date.UTC(2026, 0, 1)
    const normal = serializeCookie('lan', 'en_US', {}, now)
    expect(normal).toContain(`expires=${new Date(now + COOKIE_MAX_AGE_DAYS * DAY).toUTCString()}`)
    expect(normal).toContain('path=/')
    const long = serializeCookie('dId', 'x', { days: LONG_LIVED_DAYS }, now)
    const year = Number(/expires=[^;]*?(\d{4})/.exec(long)?.[1])
    expect(year).toBeGreaterThanOrEqual(2125)
  })

  it('generates device ids once and keeps them', () => {
    const spy = vi.spyOn(document, 'cookie', 'set')
    const d1 = ensureDeviceId()
    const d2 = ensureDeviceId()
    const c1 = ensureChfitDeviceId()
    expect(d1).toMatch(/^[0-9a-f]{32}$/)
    expect(d2).toBe(d1)
    expect(c1).not.toBe(d1)
    expect(getCookie('dId')).toBe(d1)
    expect(getCookie('CHFIT_DEVICEID')).toBe(c1)
    // Two writes only (dId and CHFIT_DEVICEID), each long-lived.
    expect(spy).toHaveBeenCalledTimes(2)
    for (const [value] of spy.mock.calls) {
      const year = Number(/expires=[^;]*?(\d{4})/.exec(String(value))?.[1])
      expect(year).toBeGreaterThanOrEqual(new Date().getFullYear() + 99)
    }
    spy.mockRestore()
  })
})
