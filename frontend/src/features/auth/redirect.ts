import { safeRedirect } from '@/lib/auth-guard'

/**
 * Where to go after signing in. The ?redirect= value comes from the address
 * bar, so anyone can craft it: only a same-site relative path is accepted,
 * never an absolute or protocol-relative URL (open redirect), and never the
 * sign-in screens themselves (that would loop).
 */

// A base that can never be the real origin: a path that resolves to another
// origin against it is not a same-site path.
const PROBE_ORIGIN = 'https://tenger.invalid'

export function resolveLoginRedirect(value: unknown, fallback = '/'): string {
  const path = safeRedirect(value, fallback)
  if (path === fallback) return fallback
  // Browsers drop tabs and newlines in URLs and treat '\' like '/', so
  // '/\t/evil.com' or '/\\evil.com' would become '//evil.com'.
  if (/[\u0000-\u001f\u007f\\\s]/.test(path)) return fallback
  let url: URL
  try {
    url = new URL(path, PROBE_ORIGIN)
  } catch {
    return fallback
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return fallback
  if (/^\/auth(\/|$)/.test(url.pathname)) return fallback
  return `${url.pathname}${url.search}${url.hash}`
}
