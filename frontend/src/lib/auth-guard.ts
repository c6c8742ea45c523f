import { redirect, type ParsedLocation } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { userInfoQuery, type UserInfo } from './session'

/**
 * Access rule of spec §2: anonymous users who open a protected page go to
 * /auth/login with a redirect back to the encoded path.
 */

/** The login href that brings the user back to `path` afterwards. */
export function loginHref(path: string): string {
  return `/auth/login?redirect=${encodeURIComponent(path)}`
}

// A base that can never be the real origin: a path that resolves to another
// origin against it is not a same-site path.
const PROBE_ORIGIN = 'https://tenger.invalid'

/**
 * Returns a safe in-app path from a ?redirect= value, which anyone can craft:
 * only a same-site relative path is accepted, never an absolute or
 * protocol-relative URL (open redirect); anything else falls back.
 */
export function safeRedirect(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value === '') return fallback
  let path = value
  try {
    if (!path.startsWith('/')) path = decodeURIComponent(path)
  } catch {
    return fallback
  }
  if (!path.startsWith('/') || path.startsWith('//')) return fallback
  // Browsers drop tabs and newlines in URLs and treat '\' like '/', so
  // '/\t/evil.com' or '/\\evil.com' would become '//evil.com'.
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (/[\u0000-\u001f\u007f\\\s]/.test(path)) return fallback
  let url: URL
  try {
    url = new URL(path, PROBE_ORIGIN)
  } catch {
    return fallback
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return fallback
  return `${url.pathname}${url.search}${url.hash}`
}

/** Router context handed to every route (see src/routes/__root.tsx). */
export interface RouterContext {
  queryClient: QueryClient
}

/**
 * `beforeLoad` helper for protected routes:
 *
 *   export const Route = createFileRoute('/profile/security')({
 *     beforeLoad: requireAuth,
 *     component: SecurityPage,
 *   })
 *
 * Resolves with { user } for the route context; anonymous visitors are
 * redirected to /auth/login?redirect=<encoded current path>.
 */
export async function requireAuth({
  context,
  location,
}: {
  context: RouterContext
  location: ParsedLocation
}): Promise<{ user: UserInfo }> {
  const user = await context.queryClient.ensureQueryData(userInfoQuery)
  if (!user) {
    throw redirect({ href: loginHref(location.href), replace: true })
  }
  return { user }
}

/**
 * `beforeLoad` helper for guest-only routes (login, register): a signed-in
 * user is sent to the redirect target or home.
 */
export async function redirectIfSignedIn({
  context,
  location,
}: {
  context: RouterContext
  location: ParsedLocation
}): Promise<void> {
  const user = await context.queryClient.ensureQueryData(userInfoQuery)
  if (user) {
    const target = safeRedirect((location.search as Record<string, unknown>).redirect)
    throw redirect({ href: target, replace: true })
  }
}
