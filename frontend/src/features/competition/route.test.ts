import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { resolveHref } from '@/components/layout/link-target'
import { MENU_SECTIONS, menuHref } from '@/components/layout/menu-items'
import { applyConfig, defaultConfig } from '@/lib/config'
import { routeTree } from '@/routeTree.gen'
import { competitionTexts } from './lib/texts'

/**
 * /futureBonus (routes/futureBonus.tsx): the competition page has a route of
 * its own, open whether or not futures trading is live, and the futures
 * menu's competition link leads to it instead of a maintenance page.
 */
function routerAt(path: string) {
  return createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }) },
  })
}

function live(on: boolean) {
  const config = defaultConfig()
  applyConfig({ ...config, flags: { ...config.flags, futuresLive: on } })
}

afterEach(() => live(false))

describe('the competition route', () => {
  it.each([false, true])('serves /futureBonus with its texts loaded (futures live: %s)', async (on) => {
    live(on)
    const router = routerAt('/futureBonus?id=spring-2025')
    await router.load()
    expect(router.state.location.pathname).toBe('/futureBonus')
    expect(router.state.matches.at(-1)?.routeId).toBe('/futureBonus')
    expect(competitionTexts.bundled('en-US')).toHaveProperty('page.title', 'Futures trading competition')
  })

  it('is where the futures menu sends the competition link, live or not', () => {
    const router = routerAt('/')
    const item = MENU_SECTIONS.find((s) => s.id === 'futures')!.items.find((i) => i.id === 'futures-competition')!
    expect(menuHref(item, { futuresLive: false }, (h) => resolveHref(router, h))).toBe('/futureBonus')
    expect(menuHref(item, { futuresLive: true }, (h) => resolveHref(router, h))).toBe('/futureBonus')
  })
})
