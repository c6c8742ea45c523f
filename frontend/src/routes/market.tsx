import { createFileRoute } from '@tanstack/react-router'
import { MarketsPage } from '@/features/markets/components/markets-page'

/** ?tab=favourites opens the favourites tab; any other value is ignored. */
interface MarketSearch {
  tab?: 'favourites'
}

export const Route = createFileRoute('/market')({
  validateSearch: (search: Record<string, unknown>): MarketSearch =>
    search.tab === 'favourites' ? { tab: 'favourites' } : {},
  component: MarketRoute,
})

function MarketRoute() {
  const { tab } = Route.useSearch()
  return <MarketsPage favourites={tab === 'favourites'} />
}
