import { createFileRoute } from '@tanstack/react-router'
import { DangerZone } from '@/features/account/components/danger-zone'
import { useEmailSetting } from '@/features/account/components/email-setting'
import { SecurityPage } from '@/features/security/components/security-page'
import { requireAuth } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

export const Route = createFileRoute('/profile/security')({
  beforeLoad: requireAuth,
  // The e-mail row and the danger zone (features/account) bring their texts;
  // the texts module comes with the loader, not with the first load.
  loader: () => import('@/features/account/lib/texts').then((m) => m.accountTexts.loadFor(getLanguage())),
  component: SecurityRoute,
})

function SecurityRoute() {
  const { user } = Route.useRouteContext()
  const email = useEmailSetting(user)
  return (
    <SecurityPage initialUser={user} extraSettings={[email]}>
      <DangerZone />
    </SecurityPage>
  )
}
