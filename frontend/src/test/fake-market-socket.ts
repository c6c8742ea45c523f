import { MarketSocket } from '@/lib/market-socket'
import { FakeSocket } from '@/test/fake-socket'

/**
 * A market socket over fake WebSockets for tests: the sockets it opens,
 * oldest first, let a test open, drop and push.
 */
export function fakeMarketSocket(options: { baseDelay?: number } = {}): { socket: MarketSocket; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = []
  const socket = new MarketSocket({
    url: 'ws://x/ws',
    create: (u) => {
      const s = new FakeSocket(u)
      sockets.push(s)
      return s
    },
    pingInterval: 0,
    ...options,
  })
  return { socket, sockets }
}
