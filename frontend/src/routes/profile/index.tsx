import { createFileRoute, redirect } from '@tanstack/react-router'

/** /profile has no page of its own yet: the security page is the account home. */
export const Route = createFileRoute('/profile/')({
  beforeLoad: () => {
    throw redirect({ to: '/profile/security', replace: true })
  },
})
