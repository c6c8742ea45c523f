import { createFileRoute } from '@tanstack/react-router'
import { OrderPage } from '@/features/orders/components/order-page'
import { parseOrdersSearch, type OrdersSearch } from '@/features/orders/lib/order-filters'
import { requireAuth } from '@/lib/auth-guard'

/**
 * /order/spot/<orderId>?<the list's search>: one spot order on its own
 * page. The trailing underscore of `spot_` keeps it out of /order/spot's
 * layout (that page has no outlet); the address is /order/spot/<orderId>.
 * The search is the list's (tab, filters, page), kept for the back link.
 * Signed-out visitors go to the login page and come back.
 */
export const Route = createFileRoute('/order/spot_/$orderId')({
  beforeLoad: requireAuth,
  validateSearch: (raw: Record<string, unknown>): OrdersSearch => parseOrdersSearch(raw),
  component: OrderRoute,
})

function OrderRoute() {
  const { orderId } = Route.useParams()
  const search = Route.useSearch()
  return <OrderPage key={orderId} orderId={orderId} search={search} />
}
