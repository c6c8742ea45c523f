import { QueryClient } from '@tanstack/react-query'

/** The app's single TanStack Query client (also placed in the router context). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      staleTime: 30 * 1000,
    },
  },
})
