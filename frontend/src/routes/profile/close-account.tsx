import { createFileRoute } from '@tanstack/react-router'
import { CloseAccountPage } from '@/features/account/components/close-account-page'
import { requireAuth } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

/** /profile/close-account: the cancellation check and the closing (signed-in only). */
export const Route = createFileRoute('/profile/close-account')({
  beforeLoad: requireAuth,
  // The texts module comes with the loader, not with the first load.
  loader: () => import('@/features/account/lib/texts').then((m) => m.accountTexts.loadFor(getLanguage())),
  component: CloseAccountRoute,
})

function CloseAccountRoute() {
  const { user } = Route.useRouteContext()
  return <CloseAccountPage initialUser={user} />
}
