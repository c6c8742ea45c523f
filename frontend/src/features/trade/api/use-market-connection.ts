import { useSyncExternalStore } from 'react'
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
