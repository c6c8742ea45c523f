import { createFileRoute } from '@tanstack/react-router'
import { ApiKeysPage } from '@/features/api-keys/components/api-keys-page'
import { requireAuth } from '@/lib/auth-guard'

/** /profile/api: the user's API keys (signed-in only: visitors sign in and come back). */
export const Route = createFileRoute('/profile/api')({
  beforeLoad: requireAuth,
  component: ApiKeysRoute,
})

function ApiKeysRoute() {
  const { user } = Route.useRouteContext()
  return <ApiKeysPage initialUser={user} />
}
