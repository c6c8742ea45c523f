import { ChakraProvider } from '@chakra-ui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { ThemeProvider } from 'next-themes'
import { describe, expect, it, vi } from 'vitest'

vi.mock('@/lib/request-client', async (orig) => ({
  ...(await orig<typeof import('@/lib/request-client')>()),
  apiPost: vi.fn(async (path: string) =>
    path.endsWith('/common/user_info')
      ? { code: '0', msg: 'ok', data: { id: 7, email: 'saraa@example.mn' } }
      : { code: '0', msg: 'ok', data: null },
  ),
}))

import { system } from '@/components/ui/theme'
import { Footer } from './footer'
import { MobileHeader } from './mobile-header'

/** Renders the shell parts in a router that only knows `paths`, like an app whose other pages have not landed. */
function renderShell(paths: string[]) {
  const rootRoute = createRootRoute({
    component: () => (
      <>
        <MobileHeader />
        <Outlet />
        <Footer />
      </>
    ),
  })
  const routes = paths.map((path) => createRoute({ getParentRoute: () => rootRoute, path, component: () => null }))
  const router = createRouter({
    routeTree: rootRoute.addChildren(routes),
    history: createMemoryHistory({ initialEntries: ['/'] }),
    context: { queryClient: new QueryClient() },
  })
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ChakraProvider value={system}>
        <ThemeProvider attribute="class" defaultTheme="light" enableSystem={false}>
          <RouterProvider router={router} />
        </ThemeProvider>
      </ChakraProvider>
    </QueryClientProvider>,
  )
}

describe('shell links follow the router', () => {
  it('keeps links with a route and sends the others to their maintenance page', async () => {
    renderShell(['/', '/market', '/p2p/trading', '/wallet', '/profile/security', '/download', '/mn_MN/about'])
    fireEvent.click(await screen.findByTestId('mobile-menu-button'))
    const menu = await screen.findByTestId('mobile-menu')
    const href = (id: string) => within(menu).getByTestId(id).getAttribute('href')
    // Existing routes keep their real href.
    expect(href('mobile-item-markets-all')).toBe('/market')
    expect(href('mobile-item-p2p-trading')).toBe('/p2p/trading')
    expect(href('mobile-section-title-p2p')).toBe('/p2p/trading')
    expect(href('mobile-item-download')).toBe('/download')
    // Missing pages go to /maintenance with their area.
    expect(href('mobile-item-spot')).toBe('/maintenance?area=spot')
    expect(href('mobile-item-margin')).toBe('/maintenance?area=margin')
    expect(href('mobile-item-grid')).toBe('/maintenance?area=grid')
    expect(href('mobile-item-p2p-express')).toBe('/maintenance?area=p2p')
    expect(href('mobile-item-staking')).toBe('/maintenance?area=staking')
    expect(href('mobile-item-crypto-cash')).toBe('/maintenance?area=cryptoCash')
    expect(href('mobile-item-task-center')).toBe('/maintenance?area=taskCenter')
    expect(href('mobile-item-invitation')).toBe('/maintenance?area=invitation')
    expect(href('mobile-item-api')).toBe('/maintenance?area=apiKeys')
    expect(href('mobile-support-help')).toBe('/maintenance?area=support')
    // The futures rule is unchanged; the competition goes to its own area while it has no page.
    expect(href('mobile-item-futures-usdt')).toBe('/maintenance')
    expect(href('mobile-item-futures-guide')).toBe('/maintenance')
    expect(href('mobile-item-futures-competition')).toBe('/maintenance?area=futuresCompetition')
    // Signed-in account links.
    await within(menu).findByTestId('mobile-menu-orders')
    expect(href('mobile-menu-orders')).toBe('/maintenance?area=orders')
    expect(href('mobile-menu-wallet')).toBe('/wallet')
    expect(href('mobile-menu-profile')).toBe('/profile/security')
    // Footer: the about page exists, the other info pages do not in this tree.
    expect(screen.getByTestId('footer-link-about').getAttribute('href')).toBe('/mn_MN/about')
    expect(screen.getByTestId('footer-link-terms').getAttribute('href')).toBe('/maintenance?area=info')
    expect(screen.getByTestId('footer-link-help').getAttribute('href')).toBe('/maintenance?area=support')
  })

  it('marks the items whose capability is not live with "Soon", and only those', async () => {
    renderShell(['/', '/market', '/trade/$symbol', '/download'])
    fireEvent.click(await screen.findByTestId('mobile-menu-button'))
    const menu = await screen.findByTestId('mobile-menu')
    const soon = (id: string) => within(within(menu).getByTestId(id)).queryByTestId('soon-badge') !== null
    for (const live of ['mobile-item-markets-all', 'mobile-item-spot', 'mobile-item-download']) {
      expect(soon(live), live).toBe(false)
    }
    for (const notLive of ['mobile-item-margin', 'mobile-item-futures-usdt', 'mobile-item-p2p-trading', 'mobile-item-staking', 'mobile-item-api']) {
      expect(soon(notLive), notLive).toBe(true)
    }
    expect(within(within(menu).getByTestId('mobile-item-staking')).getByTestId('soon-badge').textContent).toBe('Soon')
  })
})
