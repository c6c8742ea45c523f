import { createFileRoute } from '@tanstack/react-router'
import { TicketPage } from '@/features/support/components/ticket-page'
import { requireAuth } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

/** /profile/support/$id: one support ticket with its thread (signed-in only). */
export const Route = createFileRoute('/profile/support/$id')({
  beforeLoad: requireAuth,
  // The texts module comes with the loader, not with the first load.
  loader: () => import('@/features/support/lib/texts').then((m) => m.supportTexts.loadFor(getLanguage())),
  component: TicketRoute,
})

function TicketRoute() {
  const { id } = Route.useParams()
  return <TicketPage id={id} />
}
