import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { Provider } from '@/components/ui/provider'
import { queryClient } from '@/lib/query-client'
import { router } from './router'

/** Providers in order: data, theme (Chakra + color mode), routing. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Provider>
        <RouterProvider router={router} />
      </Provider>
    </QueryClientProvider>
  )
}
