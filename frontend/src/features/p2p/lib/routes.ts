import { lazyRouteComponent, type ParsedLocation } from '@tanstack/react-router'
import { requireAuth, type RouterContext } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

/**
 * What the P2P route files need, part of the first load: the pages come in
 * one lazily loaded chunk (features/p2p/pages.tsx), imported from this one
 * place, with their texts.
 */

type Pages = typeof import('../pages')

const pages = () => import('../pages')

/** A P2P page as a route component, loaded with the P2P chunk. */
export const p2pPage = (name: Exclude<keyof Pages, 'loadTexts'>) => lazyRouteComponent(pages, name)

/** The routes' loader: the P2P chunk and the texts of the language. */
export const loadP2P = () => pages().then((m) => m.loadTexts(getLanguage()))

/**
 * The routes' search validation: the values are kept as they are and each
 * page checks its own (lib/search.ts parseP2PSearch, in the P2P chunk).
 */
export const keepSearch = (raw: Record<string, unknown>): Record<string, unknown> => raw

/**
 * requireAuth with the address as it was written in the way back: the
 * router reads a 19-digit id (an order's, an ad's) as a number and writes it
 * back with its last digits lost, so such a value goes JSON-quoted, which
 * the router keeps as a string through the login and back.
 */
export function requireSignIn(ctx: { context: RouterContext; location: ParsedLocation }) {
  const { pathname } = ctx.location
  let href = ctx.location.href
  if (typeof window !== 'undefined' && window.location.pathname === pathname) {
    const q = new URLSearchParams(window.location.search)
    for (const [k, v] of q) if (/^\d{16,}$/.test(v)) q.set(k, `"${v}"`)
    href = `${pathname}${q.size ? `?${q}` : ''}`
  }
  return requireAuth({ ...ctx, location: { ...ctx.location, href } })
}
