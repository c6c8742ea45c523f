import { createFileRoute } from '@tanstack/react-router'
import { FuturesPage } from '@/features/futures/components/futures-page'
import { futuresGate, loadFuturesTexts } from '@/features/futures/lib/routes'
import { isContractSymbol } from '@/features/futures/lib/search'

/**
 * /futures/{symbol} (BTCUSDT): the futures trading page of a contract, its
 * maintenance notice while futures are not live. Only a contract's symbol
 * matches (the catalogue's upper-case letters and digits), so /futures/guide
 * and the like are other pages (their maintenance notice while they have no
 * route).
 */
export const Route = createFileRoute('/futures/$symbol')({
  params: { parse: (params) => (isContractSymbol(params.symbol) ? params : false) },
  beforeLoad: futuresGate,
  loader: loadFuturesTexts,
  component: FuturesRoute,
})

function FuturesRoute() {
  const { symbol } = Route.useParams()
  return <FuturesPage key={symbol} symbol={symbol} />
}
