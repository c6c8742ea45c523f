import { createFileRoute } from '@tanstack/react-router'
import { SecurityPage } from '@/features/security/components/security-page'
import { requireAuth } from '@/lib/auth-guard'

export const Route = createFileRoute('/profile/security')({
  beforeLoad: requireAuth,
  component: SecurityRoute,
})

function SecurityRoute() {
  const { user } = Route.useRouteContext()
  return <SecurityPage initialUser={user} />
}
