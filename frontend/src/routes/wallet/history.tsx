import { createFileRoute } from '@tanstack/react-router'
import { HistoryPage } from '@/features/wallet/components/history-page'
import { HISTORY_TABS, type HistoryTab } from '@/features/wallet/lib/search'
import { requireAuth } from '@/lib/auth-guard'

/** /wallet/history?tab=deposit|withdraw|transfer (spec §2: the order history link of the modals). */
export const Route = createFileRoute('/wallet/history')({
  beforeLoad: requireAuth,
  validateSearch: (raw: Record<string, unknown>): { tab?: HistoryTab } => ({
    tab: typeof raw.tab === 'string' && (HISTORY_TABS as readonly string[]).includes(raw.tab) ? (raw.tab as HistoryTab) : undefined,
  }),
  component: HistoryRoute,
})

function HistoryRoute() {
  const { tab } = Route.useSearch()
  const navigate = Route.useNavigate()
  return <HistoryPage tab={tab ?? 'deposit'} onTab={(next) => void navigate({ search: { tab: next }, replace: true })} />
}
