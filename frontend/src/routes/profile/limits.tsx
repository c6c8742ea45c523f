import { createFileRoute } from '@tanstack/react-router'
import { LimitsPage } from '@/features/identity/components/limits-page'
import { requireAuth } from '@/lib/auth-guard'

/** /profile/limits: the account's daily withdrawal limit, signed-in only (the page loads its own texts: features/identity/lib/texts.ts). */
export const Route = createFileRoute('/profile/limits')({
  beforeLoad: requireAuth,
  component: LimitsPage,
})
