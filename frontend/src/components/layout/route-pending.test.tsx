import { ChakraProvider } from '@chakra-ui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { pendingDefaults } from '@/app/router'
import { system } from '@/components/ui/theme'

describe('RoutePending', () => {
  it('keeps the layout and says the page is loading while a protected page waits for its sign-in check', async () => {
    const root = createRootRoute({
      component: () => (
        <>
          <header>Tenger header</header>
          <Outlet />
        </>
      ),
    })
    // The sign-in check of a protected page, still waiting for user_info.
    const wallet = createRoute({ getParentRoute: () => root, path: '/wallet', beforeLoad: () => new Promise<void>(() => {}), component: () => <p>wallet</p> })
    const router = createRouter({
      routeTree: root.addChildren([wallet]),
      history: createMemoryHistory({ initialEntries: ['/wallet'] }),
      ...pendingDefaults,
    })
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ChakraProvider value={system}>
          <RouterProvider router={router} />
        </ChakraProvider>
      </QueryClientProvider>,
    )
    expect(await screen.findByRole('status', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByTestId('route-pending').textContent).toContain('Loading')
    expect(screen.getByText('Tenger header')).toBeTruthy()
    expect(screen.queryByText('wallet')).toBeNull()
  })
})
