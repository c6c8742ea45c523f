import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { resolveHref } from '@/components/layout/link-target'
import { MENU_SECTIONS, menuHref } from '@/components/layout/menu-items'
import { isLive } from '@/lib/capabilities'
import { routeTree } from '@/routeTree.gen'

/**
 * /savings (routes/savings.tsx): flexible savings have a route of their
 * own, so the earn menu's savings link leads there, as the other earn
 * items lead to theirs.
 */
function routerAt(path: string) {
  return createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }) },
  })
}

describe('the savings route', () => {
  it('serves /savings', async () => {
    const router = routerAt('/savings')
    await router.load()
    expect(router.state.location.pathname).toBe('/savings')
    expect(router.state.matches.at(-1)?.routeId).toBe('/savings')
  })

  it('is where the earn menu sends savings; the other earn items go to their own pages', () => {
    const router = routerAt('/')
    const items = MENU_SECTIONS.find((s) => s.id === 'earn')!.items
    const href = (id: string) => menuHref(items.find((i) => i.id === id)!, { futuresLive: false }, (h) => resolveHref(router, h))
    expect(href('savings')).toBe('/savings')
    expect(href('staking')).toBe('/staking')
    expect(href('launchpad')).toBe('/launchpad')
    expect(href('crypto-cash')).toBe('/cryptoCash')
  })

  it('savings is the live capability of earn', () => {
    expect(isLive('savings')).toBe(true)
  })
})
