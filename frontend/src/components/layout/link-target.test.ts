import { QueryClient } from '@tanstack/react-query'
import { createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { routeTree } from '@/routeTree.gen'
import { linkArea, maintenanceHref, resolveHref, routeExists } from './link-target'
import { MENU_SECTIONS, menuHref, SUPPORT_LINKS, USER_LINKS } from './menu-items'
import { footerHref } from '@/lib/footer-visibility'

function appRouter() {
  return createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: ['/'] }),
    context: { queryClient: new QueryClient() },
  })
}

describe('resolveHref against the app route tree', () => {
  const router = appRouter()
  const resolve = (href: string) => resolveHref(router, href)

  it.each([
    '/',
    '/market',
    '/market?tab=favourites',
    '/download',
    '/wallet',
    '/wallet?modal=deposit',
    '/wallet/history?tab=withdraw',
    '/profile/security',
    '/auth/login',
    '/maintenance',
    '/en_US/about',
    '/mn_MN/support',
    '/en_US/contact',
    '/mn_MN/newAssets/addressMent',
    '/trade/BTC_USDT',
    '/trade/ETH_USDT',
    // Margin and grid use the spot page's route, which itself redirects
    // their types to the maintenance page until they are live.
    '/trade/BTC_USDT?type=margin',
    '/trade/BTC_USDT?type=grid',
    '/order/spot',
    '/order/spot?tab=history',
    '/profile/api',
    '/p2p/trading',
    '/p2p/my-advertising',
    '/order/otc',
    // Earn is live: savings, staking, the launchpad (and a sale's page), crypto loans, the records.
    '/savings',
    '/staking',
    '/launchpad',
    '/launchpad/ton-launch',
    '/cryptoCash',
    '/order/finance',
    // The futures pages have routes (each redirects to its maintenance page while futures are not live).
    '/futures/BTCUSDT',
    '/order/futures',
  ])('keeps the real href of %s, which has a route', (href) => {
    expect(routeExists(router, href)).toBe(true)
    expect(resolve(href)).toBe(href)
  })

  it.each([
    // Only a contract's symbol is the trading page: the guide has no route yet.
    ['/futures/guide', 'futures'],
    ['/taskCenter', 'taskCenter'],
    ['/invitation', 'invitation'],
    ['/en_US/blog', 'info'],
    ['/market/extra', 'page'],
  ])('sends %s (no route) to the maintenance page of %s', (href, area) => {
    expect(routeExists(router, href)).toBe(false)
    expect(resolve(href)).toBe(`/maintenance?area=${area}`)
  })

  it('does not let the language-prefixed info route swallow other two-segment paths', () => {
    // /{lan}/{slug} only matches languages and info slugs, so these stay missing.
    expect(routeExists(router, '/xx_XX/about')).toBe(false)
    expect(routeExists(router, '/en_US/nothing')).toBe(false)
  })

  it('leaves external and non-path hrefs alone', () => {
    expect(resolve('https://example.com/x')).toBe('https://example.com/x')
    expect(resolve('//cdn.example.com/x')).toBe('//cdn.example.com/x')
    expect(resolve('mailto:help@tenger.mn')).toBe('mailto:help@tenger.mn')
  })

  it('keeps the futures rule: trading links go to /maintenance until live; the competition to its own page or area', () => {
    const futures = MENU_SECTIONS.find((s) => s.id === 'futures')!
    const closed = futures.items.map((item) => [item.id, menuHref(item, { futuresLive: false }, resolve)])
    expect(closed).toEqual([
      ['futures-usdt', '/maintenance'],
      ['futures-guide', '/maintenance'],
      // The competition has its page whether or not futures are live.
      ['futures-competition', '/futureBonus'],
    ])
    // Once futures are live the rule no longer applies; the links follow the router (the trading page has its route, the guide not yet).
    const live = futures.items.map((item) => menuHref(item, { futuresLive: true }, resolve))
    expect(live).toEqual(['/futures/BTCUSDT', '/maintenance?area=futures', '/futureBonus'])
  })

  it('resolves every menu, user and support link to a route or a maintenance page with a known area', () => {
    const hrefs = [
      ...MENU_SECTIONS.flatMap((s) => s.items.map((item) => menuHref(item, { futuresLive: false }, resolve))),
      ...Object.values(USER_LINKS).map(resolve),
      ...SUPPORT_LINKS.map((l) => resolve(footerHref(l.path, 'en_US'))),
    ]
    for (const href of hrefs) {
      expect(routeExists(router, href), href).toBe(true)
    }
    // The spot orders page has landed: the user menus' orders link is live.
    expect(resolve(USER_LINKS.orders)).toBe('/order/spot')
    expect(resolve(USER_LINKS.wallet)).toBe('/wallet')
    expect(SUPPORT_LINKS.map((l) => resolve(footerHref(l.path, 'mn_MN')))).toEqual([
      '/mn_MN/support',
      '/mn_MN/request',
      '/mn_MN/fees',
      '/mn_MN/contact',
    ])
  })
})

describe('links become live when their routes land', () => {
  it('uses the real href as soon as the router has a matching route', () => {
    const root = createRootRoute()
    const trade = createRoute({ getParentRoute: () => root, path: '/trade/$symbol' })
    const bonus = createRoute({ getParentRoute: () => root, path: '/futureBonus' })
    const router = createRouter({
      routeTree: root.addChildren([trade, bonus]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    })
    expect(resolveHref(router, '/trade/BTC_USDT?type=margin')).toBe('/trade/BTC_USDT?type=margin')
    expect(resolveHref(router, '/futureBonus')).toBe('/futureBonus')
    expect(resolveHref(router, '/trade')).toBe('/maintenance?area=spot')
    expect(resolveHref(router, '/staking')).toBe('/maintenance?area=staking')
    const competition = MENU_SECTIONS.find((s) => s.id === 'futures')!.items.find((i) => i.id === 'futures-competition')!
    expect(menuHref(competition, { futuresLive: false }, (h) => resolveHref(router, h))).toBe('/futureBonus')
  })
})

describe('linkArea', () => {
  it('maps trade types, futures, and unknown paths', () => {
    expect(linkArea('/trade/BTC_USDT?type=lever')).toBe('margin')
    expect(linkArea('/trade/BTC_USDT?type=futures')).toBe('futures')
    expect(linkArea('/mn_MN/fees')).toBe('support')
    expect(linkArea('/something/else')).toBe('page')
    expect(maintenanceHref('apiKeys')).toBe('/maintenance?area=apiKeys')
  })
})
