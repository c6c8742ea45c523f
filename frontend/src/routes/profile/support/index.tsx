import { createFileRoute } from '@tanstack/react-router'
import { TicketsPage } from '@/features/support/components/tickets-page'
import { parseTicketListSearch, type TicketListSearch } from '@/features/support/lib/search'
import { requireAuth } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

/** /profile/support?status=open|answered|closed&page=: the user's support tickets (signed-in only). */
export const Route = createFileRoute('/profile/support/')({
  beforeLoad: requireAuth,
  validateSearch: (raw: Record<string, unknown>): TicketListSearch => parseTicketListSearch(raw),
  // The texts module comes with the loader, not with the first load.
  loader: () => import('@/features/support/lib/texts').then((m) => m.supportTexts.loadFor(getLanguage())),
  component: TicketsRoute,
})

function TicketsRoute() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return <TicketsPage search={search} onSearch={(next) => void navigate({ search: next })} />
}
