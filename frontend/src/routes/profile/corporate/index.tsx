import { createFileRoute } from '@tanstack/react-router'
import { CorporatePage } from '@/features/corporate/components/corporate-page'
import { requireAuth } from '@/lib/auth-guard'

/** /profile/corporate: corporate verification's general page (signed-in only); its code and texts load with the page. */
export const Route = createFileRoute('/profile/corporate/')({
  beforeLoad: requireAuth,
  component: CorporatePage,
})
