import { createFileRoute } from '@tanstack/react-router'
import { keepSearch, loadP2P, p2pPage } from '@/features/p2p/lib/routes'
import { requireAuth } from '@/lib/auth-guard'

/** /order/otc?tab=finished&page=: the caller's P2P orders, processing and finished (signed-in only). */
export const OtcOrdersRoute = p2pPage('OtcOrders')

export const Route = createFileRoute('/order/otc')({
  beforeLoad: requireAuth,
  validateSearch: keepSearch,
  loader: loadP2P,
  component: OtcOrdersRoute,
})
