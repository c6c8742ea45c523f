import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '@/features/home/components/home-page'
import { marketOverviewQuery } from '@/features/markets/api/get-market-overview'
import { MarketOverview } from '@/features/markets/components/market-overview'

function Home() {
  const overview = useQuery(marketOverviewQuery)
  const data = overview.data
  const figures = data
    ? { pairCount: data.pairCount, coinCount: data.coinCount, firstSymbol: data.groups[0]?.pairs[0]?.symbol }
    : undefined
  return <HomePage figures={figures} markets={<MarketOverview />} />
}

export const Route = createFileRoute('/')({
  component: Home,
})
