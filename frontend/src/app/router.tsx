import { createRouter } from '@tanstack/react-router'
import { RoutePending } from '@/components/layout/route-pending'
import { dismissToastsOlderThan } from '@/components/ui/toaster'
import { queryClient } from '@/lib/query-client'
import { searchParams } from '@/lib/search-params'
import { routeTree } from '@/routeTree.gen'

/**
 * A page the router waits for (a protected page's sign-in check, a page's
 * code on a slow network) says it is loading, inside the layout, instead of
 * leaving the screen blank. It shows after the router's default second, so
 * a quick navigation keeps the page it leaves until the next is ready.
 */
export const pendingDefaults = { defaultPendingComponent: RoutePending }

/**
 * The app router: file routes from src/routes, the query client in context,
 * search values read so that a long id stays exact (lib/search-params).
 */
export const router = createRouter({
  routeTree,
  context: { queryClient },
  ...searchParams,
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  ...pendingDefaults,
})

/**
 * Toasts a page left behind go when the user moves to another page; the
 * toast of the action that navigated (created within the last 1.5 s) stays.
 */
export const STALE_TOAST_MS = 1500
router.subscribe('onResolved', ({ fromLocation, toLocation, pathChanged }) => {
  if (fromLocation && pathChanged && fromLocation.pathname !== toLocation.pathname) dismissToastsOlderThan(STALE_TOAST_MS)
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
