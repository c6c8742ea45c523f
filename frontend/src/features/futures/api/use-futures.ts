import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useLiveDepth } from '@/features/trade/api/use-live-depth'
import { useUserInfo } from '@/lib/session'
import { assetsQuery, futuresKeys, FUTURES_API, openOrdersQuery, triggerOrdersQuery, userConfigQuery, type FuturesOrder, type PositionView } from './futures-api'
import { usePollMs } from './live'

/**
 * The signed-in user's futures account and positions, read every 2 s while
 * the page is visible (TanStack Query pauses intervals in a hidden tab), or
 * every 10 s while the user_futures channel tells of each change (api/live.ts).
 * Shared by the form, the account summary and the positions (one query, one poll).
 */
export function useAssets() {
  const { isSignedIn } = useUserInfo()
  const poll = usePollMs()
  return useQuery({ ...assetsQuery, enabled: isSignedIn, refetchInterval: poll })
}

/** The signed-in user's open orders of every contract, polled as {@link useAssets}. */
export function useOpenOrders(page = 1, pageSize = 50) {
  const { isSignedIn } = useUserInfo()
  const poll = usePollMs()
  return useQuery({ ...openOrdersQuery(undefined, page, pageSize), enabled: isSignedIn, refetchInterval: poll })
}

/**
 * The signed-in user's waiting trigger orders of every contract (at most 50
 * a user: one page of 100 has them all), polled as {@link useAssets}: the
 * positions show their TP and SL from it, the trigger orders tab lists it.
 */
export function useTriggerOrders() {
  const { isSignedIn } = useUserInfo()
  const poll = usePollMs()
  return useQuery({ ...triggerOrdersQuery(undefined, 1, 100), enabled: isSignedIn, refetchInterval: poll })
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

/** Reads the account, positions, orders and trigger orders again at once (after an order, a cancel, a margin change or a transfer). */
export function useRefreshFutures() {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: futuresKeys.assets })
    void queryClient.invalidateQueries({ queryKey: futuresKeys.orders })
    void queryClient.invalidateQueries({ queryKey: futuresKeys.triggers })
  }
}
