import { createFileRoute } from '@tanstack/react-router'
import { NewTicketPage } from '@/features/support/components/new-ticket-page'
import { requireAuth } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

/** /profile/support/new: open a support ticket (signed-in only: visitors sign in and come back). */
export const Route = createFileRoute('/profile/support/new')({
  beforeLoad: requireAuth,
  // The texts module comes with the loader, not with the first load.
  loader: () => import('@/features/support/lib/texts').then((m) => m.supportTexts.loadFor(getLanguage())),
  component: NewTicketPage,
})
