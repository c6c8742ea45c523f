import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useLiveDepth } from '@/features/trade/api/use-live-depth'
import { useUserInfo } from '@/lib/session'
import { assetsQuery, futuresKeys, FUTURES_API, openOrdersQuery, POLL_MS, userConfigQuery, type FuturesOrder, type PositionView } from './futures-api'

/**
 * The signed-in user's futures account and positions, read every 2 s while
 * the page is visible (TanStack Query pauses intervals in a hidden tab): the
 * server pushes nothing private for futures yet. Shared by the form, the
 * account summary and the positions (one query, one poll).
 */
export function useAssets() {
  const { isSignedIn } = useUserInfo()
  return useQuery({ ...assetsQuery, enabled: isSignedIn, refetchInterval: POLL_MS })
}

/** The signed-in user's open orders of every contract, read every 2 s while the page is visible. */
export function useOpenOrders(page = 1, pageSize = 50) {
  const { isSignedIn } = useUserInfo()
  return useQuery({ ...openOrdersQuery(undefined, page, pageSize), enabled: isSignedIn, refetchInterval: POLL_MS })
}

/** The user's settings of a contract (leverage, margin mode, preferences). */
export function useUserConfig(symbol: string) {
  const { isSignedIn } = useUserInfo()
  return useQuery({ ...userConfigQuery(symbol), enabled: isSignedIn })
}

/** The user's position on a contract as a signed count (long positive, short negative; 0 when flat). */
export function signedPosition(positions: readonly PositionView[] | undefined, symbol: string): number {
  const p = positions?.find((x) => x.symbol === symbol && x.volume > 0)
  if (!p) return 0
  return p.side === 'LONG' ? p.volume : -p.volume
}

/** Unfilled contracts of the user's open orders on a contract, per side. */
export function openBySide(orders: readonly FuturesOrder[] | undefined, symbol: string): { BUY: number; SELL: number } {
  const out = { BUY: 0, SELL: 0 }
  for (const o of orders ?? []) {
    if (o.symbol !== symbol) continue
    out[o.side] += Math.max(0, (o.volume ?? 0) - (o.dealVolume ?? 0))
  }
  return out
}

/** The best bid and ask of a contract's live book (step 0 of its market data). */
export function useBestPrices(marketSymbol: string | undefined): { bid?: string; ask?: string } | undefined {
  const { data } = useLiveDepth(marketSymbol, 0, FUTURES_API)
  const bid = data?.buys?.[0]?.[0]
  const ask = data?.asks?.[0]?.[0]
  return useMemo(() => (bid === undefined && ask === undefined ? undefined : { bid, ask }), [bid, ask])
}

/** Reads the account, positions and orders again at once (after an order, a cancel, a margin change or a transfer). */
export function useRefreshFutures() {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: futuresKeys.assets })
    void queryClient.invalidateQueries({ queryKey: futuresKeys.orders })
  }
}
