import { useQuery, useQueryClient } from '@tanstack/react-query'
import { depthQuery, SPOT_MARKET, type Depth, type MarketApi } from './trade-api'
import { useMarketChannel } from './use-market-channel'

/**
 * A market's order book at a merge step, loaded once (from `api`: the spot
 * service by default, the futures service for a contract) and then kept live
 * by its depth channel (each push replaces the cached book). Components
 * reading the same symbol and step share the query and the subscription's data.
 */
export function useLiveDepth(symbol: string | undefined, step: number, api: MarketApi = SPOT_MARKET) {
  const queryClient = useQueryClient()
  const q = depthQuery(symbol ?? '', step, api)
  const result = useQuery({ ...q, enabled: !!symbol })
  useMarketChannel(symbol ? `market_${symbol}_depth_step${step}` : undefined, (m) => {
    const tick = m.tick as Depth | undefined
    if (tick && Array.isArray(tick.buys) && Array.isArray(tick.asks)) queryClient.setQueryData(q.queryKey, tick)
  })
  return result
}
