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

/**
 * Returns a safe in-app path from a ?redirect= value: only same-site
 * absolute paths are accepted, anything else falls back to '/'.
 */
export function safeRedirect(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value === '') return fallback
  let path = value
  try {
    if (!path.startsWith('/')) path = decodeURIComponent(path)
  } catch {
    return fallback
  }
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback
  return path
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
