import { QueryClient } from '@tanstack/react-query'

/** The app's single TanStack Query client (also placed in the router context). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      staleTime: 30 * 1000,
    },
    mutations: {
      // A change (placing or cancelling an order, a transfer ...) is sent when
      // the user asks for it or not at all. TanStack's default ('online')
      // holds it while the browser reports no network and sends it by itself
      // when the network returns, at a moment the user cannot foresee, with no
      // message meanwhile; 'always' sends it at once, so an unreachable
      // exchange fails it and its error toast says so.
      networkMode: 'always',
    },
  },
})
