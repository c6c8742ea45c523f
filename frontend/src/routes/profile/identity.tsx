import { createFileRoute } from '@tanstack/react-router'
import { IdentityPage } from '@/features/identity/components/identity-page'
import { requireAuth } from '@/lib/auth-guard'

/** /profile/identity: identity verification, signed-in only (the page loads its own texts: features/identity/lib/texts.ts). */
export const Route = createFileRoute('/profile/identity')({
  beforeLoad: requireAuth,
  component: IdentityPage,
})
