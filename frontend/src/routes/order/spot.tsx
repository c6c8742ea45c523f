import { createFileRoute } from '@tanstack/react-router'
import { OrdersPage } from '@/features/orders/components/orders-page'
import { parseOrdersSearch, type OrdersSearch } from '@/features/orders/lib/order-filters'
import { requireAuth } from '@/lib/auth-guard'

/**
 * /order/spot?tab=open|history|trades&symbol=&side=&status=&days=&page=
 * The spot orders page (spec §2 "orders (spot ...)"); the user menus link
 * here, beside the spec's /order/otc. Signed-out visitors go to the login
 * page and come back.
 */
export const Route = createFileRoute('/order/spot')({
  beforeLoad: requireAuth,
  validateSearch: (raw: Record<string, unknown>): OrdersSearch => parseOrdersSearch(raw),
  component: OrdersRoute,
})

function OrdersRoute() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return <OrdersPage search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
}
