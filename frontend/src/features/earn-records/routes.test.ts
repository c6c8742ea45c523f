import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { describe, expect, it, vi } from 'vitest'
import { resolveHref } from '@/components/layout/link-target'
import { MENU_SECTIONS, menuHref } from '@/components/layout/menu-items'
import { routeTree } from '@/routeTree.gen'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)

/**
 * The earn pages' routes: /staking, /launchpad, /launchpad/<id> and
 * /cryptoCash (open to visitors) and /order/finance (signed in), so the earn
 * menu's links lead to them rather than to maintenance pages.
 */
function routerAt(path: string) {
  return createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }) },
  })
}

describe('the earn routes', () => {
  it.each([
    ['/staking', '/staking'],
    ['/launchpad', '/launchpad/'],
    ['/launchpad/ton-launch', '/launchpad/$projectId'],
    ['/cryptoCash', '/cryptoCash'],
  ])('serve %s to visitors', async (path, routeId) => {
    const router = routerAt(path)
    await router.load()
    expect(router.state.location.pathname).toBe(path)
    expect(router.state.matches.at(-1)?.routeId).toBe(routeId)
  })

  it('/order/finance sends a visitor to sign in and back', async () => {
    const { serve } = await import('@/features/futures/test-server')
    serve({ '/fe-ex-api/common/user_info': null })
    const router = routerAt('/order/finance')
    await router.load()
    expect(router.state.location.pathname).toBe('/auth/login')
    expect(router.state.location.search).toMatchObject({ redirect: '/order/finance' })
  })

  it('the earn menu leads to every earn page', () => {
    const router = routerAt('/')
    const items = MENU_SECTIONS.find((s) => s.id === 'earn')!.items
    const href = (id: string) => menuHref(items.find((i) => i.id === id)!, { futuresLive: false }, (h) => resolveHref(router, h))
    expect(href('staking')).toBe('/staking')
    expect(href('savings')).toBe('/savings')
    expect(href('launchpad')).toBe('/launchpad')
    expect(href('crypto-cash')).toBe('/cryptoCash')
  })
})
