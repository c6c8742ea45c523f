import { useEffect, useRef } from 'react'
import { getMarketSocket, type MarketMessage } from '@/lib/market-socket'

/** Listens to one market channel while mounted (the latest handler is always used). */
export function useMarketChannel(channel: string | undefined, onMessage: (m: MarketMessage) => void): void {
  const handler = useRef(onMessage)
  handler.current = onMessage
  useEffect(() => {
    if (!channel) return
    return getMarketSocket().subscribe(channel, (m) => handler.current(m))
  }, [channel])
}
