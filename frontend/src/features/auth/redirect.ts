import { safeRedirect } from '@/lib/auth-guard'

/**
 * Where to go after signing in: a safe in-app path (see safeRedirect), and
 * never the sign-in screens themselves, which would loop.
 */
export function resolveLoginRedirect(value: unknown, fallback = '/'): string {
  const path = safeRedirect(value, fallback)
  if (/^\/auth(\/|$|\?|#)/.test(path)) return fallback
  return path
}
