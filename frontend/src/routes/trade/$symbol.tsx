import { createFileRoute, redirect } from '@tanstack/react-router'
import { TradePage } from '@/features/trade/components/trade-page'

/** Trade types other than spot (margin, grid, futures) are not built yet: they go to their maintenance page. */
const OTHER_TYPES: Record<string, string> = { margin: 'margin', lever: 'margin', grid: 'grid', futures: 'futures' }

export const Route = createFileRoute('/trade/$symbol')({
  beforeLoad: ({ location }) => {
    const type = new URLSearchParams(location.searchStr).get('type')
    const area = type ? OTHER_TYPES[type] : undefined
    if (area) throw redirect({ href: `/maintenance?area=${area}`, replace: true })
  },
  component: TradeRoute,
})

function TradeRoute() {
  const { symbol } = Route.useParams()
  return <TradePage key={symbol} symbol={symbol} />
}
