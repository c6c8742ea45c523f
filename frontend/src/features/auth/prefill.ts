import type { AccountRef } from './api/auth-api'

/**
 * Hands the account just registered (or reset) to the login form. Session
 * storage rather than the URL keeps the e-mail address or phone number out of
 * addresses, history and the page-view reports.
 */
const PREFILL_KEY = 'tenger.loginPrefill'

export function setLoginPrefill(account: AccountRef): void {
  try {
    sessionStorage.setItem(PREFILL_KEY, JSON.stringify(account))
  } catch {
    // Storage unavailable: the login form simply starts empty.
  }
}

/** Forgets the prefill once the form has used it. */
export function clearLoginPrefill(): void {
  try {
    sessionStorage.removeItem(PREFILL_KEY)
  } catch {
    // Nothing stored.
  }
}

/** Reads the prefill without removing it (state initialisers may run twice in development). */
export function peekLoginPrefill(): AccountRef | undefined {
  try {
    const raw = sessionStorage.getItem(PREFILL_KEY)
    if (!raw) return undefined
    const value = JSON.parse(raw) as Partial<AccountRef> & Record<string, unknown>
    if (value.kind === 'email' && typeof value.email === 'string') return { kind: 'email', email: value.email }
    if (value.kind === 'phone' && typeof value.countryCode === 'string' && typeof value.mobileNumber === 'string') {
      return { kind: 'phone', countryCode: value.countryCode, mobileNumber: value.mobileNumber }
    }
  } catch {
    // A damaged entry is ignored.
  }
  return undefined
}
