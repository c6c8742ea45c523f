import { createFileRoute } from '@tanstack/react-router'
import { FuturesOrdersPage } from '@/features/futures/components/futures-orders-page'
import { futuresGate, loadFuturesTexts } from '@/features/futures/lib/routes'
import { parseFuturesOrdersSearch, type FuturesOrdersSearch } from '@/features/futures/lib/search'
import { requireAuth } from '@/lib/auth-guard'

/**
 * /order/futures?tab=open|history|trades&symbol=&page=: the signed-in
 * user's futures orders (the user menus link here, beside the spot orders).
 * Its maintenance notice while futures are not live; visitors go to the
 * login page and come back.
 */
export const Route = createFileRoute('/order/futures')({
  beforeLoad: (ctx) => {
    futuresGate()
    return requireAuth(ctx)
  },
  validateSearch: (raw: Record<string, unknown>): FuturesOrdersSearch => parseFuturesOrdersSearch(raw),
  loader: loadFuturesTexts,
  component: FuturesOrdersRoute,
})

function FuturesOrdersRoute() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return <FuturesOrdersPage search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />
}
