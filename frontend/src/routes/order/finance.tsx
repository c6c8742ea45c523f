import { createFileRoute } from '@tanstack/react-router'
import { lazy } from 'react'
import { requireAuth } from '@/lib/auth-guard'
import { getLanguage } from '@/lib/cookies'

/** The page and its texts, loaded together, out of the first load (as the savings route). */
const FinanceRecordsPage = lazy(() =>
  Promise.all([
    import('@/features/earn-records/components/finance-records-page'),
    import('@/features/earn-records/lib/texts').then((m) => m.financeRecordsTexts.loadFor(getLanguage())),
  ]).then(([page]) => ({ default: page.FinanceRecordsPage })),
)

function FinanceRecordsRoute() {
  return <FinanceRecordsPage />
}

/**
 * /order/finance: the signed-in user's finance and staking records (spec §2
 * orders pages: "finance/staking records"), beside /order/spot and
 * /order/otc. Visitors go to the login page and come back.
 */
export const Route = createFileRoute('/order/finance')({
  beforeLoad: requireAuth,
  component: FinanceRecordsRoute,
})
