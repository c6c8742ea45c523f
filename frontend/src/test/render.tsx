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
import { render } from '@testing-library/react'
import { ThemeProvider } from 'next-themes'
import type { ReactNode } from 'react'
import { system } from '@/components/ui/theme'

/**
 * Renders `ui` inside the app's providers and a memory router whose every
 * path shows it, starting at `path`. Returns the router for navigation.
 */
export function renderWithApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const rootRoute = createRootRoute({ component: () => <Outlet /> })
  const catchAll = createRoute({ getParentRoute: () => rootRoute, path: '$', component: () => <>{ui}</> })
  const index = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <>{ui}</> })
  const router = createRouter({
    routeTree: rootRoute.addChildren([index, catchAll]),
    history: createMemoryHistory({ initialEntries: [path] }),
    context: { queryClient },
  })
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ChakraProvider value={system}>
        <ThemeProvider attribute="class" defaultTheme="light" enableSystem={false}>
          <RouterProvider router={router} />
        </ThemeProvider>
      </ChakraProvider>
    </QueryClientProvider>,
  )
  return { ...result, router, queryClient }
}
