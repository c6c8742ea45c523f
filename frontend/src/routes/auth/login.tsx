import { createFileRoute, redirect } from '@tanstack/react-router'
import { LoginPage } from '@/features/auth/components/login-page'
import { resolveLoginRedirect } from '@/features/auth/redirect'
import { userInfoQuery } from '@/lib/session'

/** ?redirect= is kept as given; it is sanitised before every use. */
interface LoginSearch {
  redirect?: string
}

export const Route = createFileRoute('/auth/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch =>
    typeof search.redirect === 'string' && search.redirect !== '' ? { redirect: search.redirect } : {},
  // A signed-in user has nothing to do here: straight on to the target.
  beforeLoad: async ({ context, search }) => {
    const user = await context.queryClient.ensureQueryData(userInfoQuery)
    if (user) throw redirect({ href: resolveLoginRedirect(search.redirect), replace: true })
  },
  component: LoginRoute,
})

function LoginRoute() {
  const { redirect: target } = Route.useSearch()
  return <LoginPage redirect={target} />
}
