import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import { getMarketSocket, type MarketSocket } from '@/lib/market-socket'

/**
 * True while the shared market socket is down and reconnecting (prices, the
 * book and the trades on screen are frozen meanwhile). The socket can be
 * passed in by tests.
 */
export function useMarketReconnecting(socket: MarketSocket = getMarketSocket()): boolean {
  return useSyncExternalStore(
    (onChange) => socket.onReconnectingChange(onChange),
    () => socket.isReconnecting,
    () => false,
  )
}

/** True while the shared market socket is open (pushes arrive); polls can slow down meanwhile. */
export function useMarketSocketOpen(socket: MarketSocket = getMarketSocket()): boolean {
  return useSyncExternalStore(
    (onChange) => socket.onStateChange(() => onChange()),
    () => socket.isOpen,
    () => false,
  )
}

/**
 * The market snapshots the trade page shows: the ticker, the book, the
 * recent trades and the candles (every pair and period; only the ones on
 * screen refetch).
 */
export const MARKET_SNAPSHOT_KEYS: QueryKey[] = [
  ['trade', 'ticker'],
  ['trade', 'depth'],
  ['trade', 'trades'],
  ['trade', 'kline'],
]

/**
 * Reads the given queries again when the market socket is back after a
 * drop: trades, candles and ticker changes pushed while it was down never
 * arrive again, so without a fresh snapshot the recent trades would keep a
 * gap and the chart and the header stale values until the next push.
 */
export function useResyncAfterReconnect(queryKeys: QueryKey[] = MARKET_SNAPSHOT_KEYS, socket: MarketSocket = getMarketSocket()): void {
  const queryClient = useQueryClient()
  const keys = JSON.stringify(queryKeys)
  useEffect(() => {
    let down = socket.isReconnecting
    return socket.onReconnectingChange(() => {
      const now = socket.isReconnecting
      // Back and open (not merely no longer wanted, nor closed).
      if (down && !now && socket.isOpen) {
        for (const queryKey of JSON.parse(keys) as QueryKey[]) void queryClient.invalidateQueries({ queryKey })
      }
      down = now
    })
  }, [keys, socket, queryClient])
}
