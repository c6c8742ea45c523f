import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRouter } from '@tanstack/react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { applyConfig, defaultConfig } from '@/lib/config'
import { routeTree } from '@/routeTree.gen'

/**
 * The futures routes (this file's '-' keeps it out of the route tree): while
 * the server's futuresLive flag is off, /futures/{symbol} and /order/futures
 * are the futures maintenance notice, as the menus' links are; once it is on,
 * the trading page is served.
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

describe('futures routes', () => {
  it.each(['/futures/BTCUSDT', '/futures/ETHUSDT', '/order/futures', '/order/futures?tab=history'])('%s leads to the futures maintenance page while futures are not live', async (path) => {
    live(false)
    const router = routerAt(path)
    await router.load()
    expect(router.state.location.pathname).toBe('/maintenance')
    expect(router.state.location.search).toEqual({ area: 'futures' })
  })

  it('serves the trading page of a contract once futures are live', async () => {
    live(true)
    const router = routerAt('/futures/BTCUSDT')
    await router.load()
    expect(router.state.location.pathname).toBe('/futures/BTCUSDT')
    expect(router.state.matches.at(-1)?.routeId).toBe('/futures/$symbol')
    expect(router.state.matches.at(-1)?.params).toEqual({ symbol: 'BTCUSDT' })
  })

  it('matches only contract symbols, so the futures guide is another page', async () => {
    live(true)
    const router = routerAt('/futures/guide')
    await router.load()
    expect(router.state.matches.some((m) => m.routeId === '/futures/$symbol')).toBe(false)
  })
})
