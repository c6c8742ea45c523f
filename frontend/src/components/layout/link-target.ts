import { useRouter, type AnyRouter } from '@tanstack/react-router'
import { useCallback } from 'react'
import { LANGUAGES } from '@/lib/cookies'

/**
 * Where in-app links go while their pages have not landed yet: a link whose
 * path matches no route of the router's tree leads to
 * `/maintenance?area=<area>` instead of the 404 page. The decision comes from
 * the router itself, so a link becomes live as soon as its route exists.
 */

/** Stable ids of the product areas the maintenance page explains. */
export const MAINTENANCE_AREAS = [
  'spot',
  'margin',
  'grid',
  'futures',
  'futuresCompetition',
  'p2p',
  'staking',
  'launchpad',
  'cryptoCash',
  'taskCenter',
  'invitation',
  'apiKeys',
  'orders',
  'support',
  'info',
  'page',
] as const

/** One product area of {@link MAINTENANCE_AREAS}. */
export type MaintenanceArea = (typeof MAINTENANCE_AREAS)[number]

/** True when `value` is a known area id. */
export function isMaintenanceArea(value: unknown): value is MaintenanceArea {
  return typeof value === 'string' && (MAINTENANCE_AREAS as readonly string[]).includes(value)
}

const SAME_NAME_AREAS = new Set<string>(['staking', 'launchpad', 'cryptoCash', 'taskCenter', 'invitation', 'p2p'])
const SUPPORT_SLUGS = new Set(['support', 'request', 'fees', 'contact'])
const MARGIN_TYPES = new Set(['margin', 'lever', '2'])

function splitHref(href: string): { pathname: string; searchParams: URLSearchParams } {
  const url = new URL(href, 'http://app.invalid')
  return { pathname: url.pathname, searchParams: url.searchParams }
}

/** The product area an in-app href belongs to ('page' when it is none of the known ones). */
export function linkArea(href: string): MaintenanceArea {
  const { pathname, searchParams } = splitHref(href)
  const [first = '', second = ''] = pathname.split('/').filter(Boolean)
  if (first === 'trade') {
    const type = (searchParams.get('type') ?? '').toLowerCase()
    if (MARGIN_TYPES.has(type)) return 'margin'
    if (type === 'grid') return 'grid'
    if (type === 'futures') return 'futures'
    return 'spot'
  }
  if (first === 'futures') return 'futures'
  if (first === 'futureBonus') return 'futuresCompetition'
  if (SAME_NAME_AREAS.has(first)) return first as MaintenanceArea
  if (first === 'profile' && second === 'api') return 'apiKeys'
  if (first === 'order') return 'orders'
  if ((LANGUAGES as readonly string[]).includes(first)) return SUPPORT_SLUGS.has(second) ? 'support' : 'info'
  return 'page'
}

/** The maintenance page href of an area. */
export function maintenanceHref(area: MaintenanceArea): string {
  return `/maintenance?area=${encodeURIComponent(area)}`
}

/**
 * True when the path of `href` is served by a route of the router's tree,
 * i.e. the router would not render its not-found page for it. Uses the same
 * test as the router's own matching: no route found, or only a partial
 * (fuzzy) match that leaves part of the path over ('**'), means not found.
 * Routes that gate their params with `params.parse` are honoured by the matcher.
 */
export function routeExists(router: Pick<AnyRouter, 'getMatchedRoutes'>, href: string): boolean {
  const { pathname } = splitHref(href)
  const [, rawParams, foundRoute] = router.getMatchedRoutes(pathname)
  if (!foundRoute) return false
  return !(foundRoute.path !== '/' && rawParams['**'])
}

// The route tree of a router does not change while the app runs, so each
// decision is computed once per router and href.
const decisions = new WeakMap<object, Map<string, string>>()

/** The href to render for an in-app link: itself when its route exists, else its maintenance page. */
export function resolveHref(router: Pick<AnyRouter, 'getMatchedRoutes'>, href: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href
  let cache = decisions.get(router)
  if (!cache) {
    cache = new Map()
    decisions.set(router, cache)
  }
  let resolved = cache.get(href)
  if (resolved === undefined) {
    resolved = routeExists(router, href) ? href : maintenanceHref(linkArea(href))
    cache.set(href, resolved)
  }
  return resolved
}

/** A function that resolves hrefs against the app's router (see {@link resolveHref}). */
export function useLinkResolver(): (href: string) => string {
  const router = useRouter()
  return useCallback((href: string) => resolveHref(router, href), [router])
}
