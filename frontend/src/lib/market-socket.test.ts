import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeSocket } from '@/test/fake-socket'
import { backoffDelay, MarketSocket } from './market-socket'

describe('MarketSocket', () => {
  let sockets: FakeSocket[]
  let client: MarketSocket
  beforeEach(() => {
    vi.useFakeTimers()
    sockets = []
    client = new MarketSocket({
      url: 'ws://x/ws',
      create: (u) => {
        const s = new FakeSocket(u)
        sockets.push(s)
        return s
      },
      baseDelay: 100,
      maxDelay: 1000,
      pingInterval: 0,
    })
  })
  afterEach(() => {
    client.close()
    vi.useRealTimers()
  })

  it('connects lazily and sends one sub frame per channel', () => {
    expect(sockets).toHaveLength(0)
    const a = vi.fn()
    const b = vi.fn()
    client.subscribe('market_btcusdt_depth_step0', a)
    client.subscribe('market_btcusdt_depth_step0', b)
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://x/ws')
    sockets[0].open()
    expect(sockets[0].sent).toEqual([{ event: 'sub', params: { channel: 'market_btcusdt_depth_step0' } }])
    client.subscribe('market_btcusdt_trade_ticker', vi.fn())
    expect(sockets[0].sent[1]).toEqual({ event: 'sub', params: { channel: 'market_btcusdt_trade_ticker' } })
  })

  it('delivers messages to the channel listeners only', () => {
    const depth = vi.fn()
    const trades = vi.fn()
    client.subscribe('market_btcusdt_depth_step0', depth)
    client.subscribe('market_btcusdt_trade_ticker', trades)
    sockets[0].open()
    sockets[0].push({ channel: 'market_btcusdt_depth_step0', ts: 1, tick: { buys: [['1', '2']], asks: [] } })
    expect(depth).toHaveBeenCalledWith({ channel: 'market_btcusdt_depth_step0', ts: 1, tick: { buys: [['1', '2']], asks: [] } })
    expect(trades).not.toHaveBeenCalled()
  })

  it('sends unsub only when the last listener leaves', () => {
    const offA = client.subscribe('c1', vi.fn())
    const offB = client.subscribe('c1', vi.fn())
    sockets[0].open()
    offA()
    expect(sockets[0].sent).toHaveLength(1)
    offB()
    expect(sockets[0].sent[1]).toEqual({ event: 'unsub', params: { channel: 'c1' } })
    expect(client.channels).toEqual([])
  })

  it('answers a server ping with the same pong value', () => {
    client.subscribe('c1', vi.fn())
    sockets[0].open()
    sockets[0].push({ ping: 1234 })
    expect(sockets[0].sent.at(-1)).toEqual({ pong: 1234 })
  })

  it('reconnects with growing backoff and re-subscribes', () => {
    client.subscribe('c1', vi.fn())
    client.subscribe('c2', vi.fn())
    sockets[0].open()
    sockets[0].drop()
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(99)
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(2)
    // Second failure without opening: the delay doubles.
    sockets[1].drop()
    vi.advanceTimersByTime(199)
    expect(sockets).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(3)
    sockets[2].open()
    expect(sockets[2].sent).toEqual([
      { event: 'sub', params: { channel: 'c1' } },
      { event: 'sub', params: { channel: 'c2' } },
    ])
  })

  it('does not reconnect after close()', () => {
    client.subscribe('c1', vi.fn())
    sockets[0].open()
    client.close()
    vi.advanceTimersByTime(5000)
    expect(sockets).toHaveLength(1)
  })

  it('pings the server periodically while open', () => {
    const pinging = new MarketSocket({
      url: 'ws://x',
      create: (u) => {
        const s = new FakeSocket(u)
        sockets.push(s)
        return s
      },
      pingInterval: 1000,
    })
    pinging.subscribe('c1', vi.fn())
    sockets[0].open()
    vi.advanceTimersByTime(1000)
    expect(sockets[0].sent.at(-1)).toHaveProperty('ping')
    pinging.close()
  })

  it('tells when it is down and reconnecting, and when it is back', () => {
    const changes = vi.fn()
    client.onReconnectingChange(changes)
    client.subscribe('c1', vi.fn())
    // Connecting for the first time is not reconnecting.
    expect(client.isReconnecting).toBe(false)
    sockets[0].open()
    expect(client.isReconnecting).toBe(false)
    sockets[0].drop()
    expect(client.isReconnecting).toBe(true)
    expect(changes).toHaveBeenCalledTimes(1)
    // A failed attempt keeps it down (no second notice).
    vi.advanceTimersByTime(100)
    sockets[1].drop()
    expect(client.isReconnecting).toBe(true)
    expect(changes).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(200)
    sockets[2].open()
    expect(client.isReconnecting).toBe(false)
    expect(changes).toHaveBeenCalledTimes(2)
  })

  it('is not reconnecting once nobody listens or after close()', () => {
    const off = client.subscribe('c1', vi.fn())
    sockets[0].open()
    sockets[0].drop()
    expect(client.isReconnecting).toBe(true)
    off()
    expect(client.isReconnecting).toBe(false)
    client.subscribe('c2', vi.fn())
    vi.advanceTimersByTime(100)
    sockets.at(-1)!.drop()
    expect(client.isReconnecting).toBe(true)
    client.close()
    expect(client.isReconnecting).toBe(false)
  })

  it('caps the backoff delay', () => {
    expect(backoffDelay(0, 100, 1000)).toBe(100)
    expect(backoffDelay(3, 100, 1000)).toBe(800)
    expect(backoffDelay(10, 100, 1000)).toBe(1000)
  })

  describe('line clients (the private feed on the same connection)', () => {
    function lineClient(want = true) {
      const calls: string[] = []
      const state = { want }
      return {
        state,
        calls,
        client: {
          wanted: () => state.want,
          onOpen: (send: (f: unknown) => void) => {
            calls.push('open')
            send({ event: 'auth', params: { token: 't' } })
          },
          onMessage: (m: Record<string, unknown>) => calls.push(`msg:${String(m.channel ?? m.event_rep)}`),
          onClose: () => calls.push('close'),
        },
      }
    }

    it('connects for a client that wants the line, sends its frames before the subs and shows it every frame', () => {
      const c = lineClient()
      client.subscribe('c1', vi.fn())
      client.attach(c.client)
      expect(sockets).toHaveLength(1)
      sockets[0].open()
      expect(sockets[0].sent).toEqual([{ event: 'auth', params: { token: 't' } }, { event: 'sub', params: { channel: 'c1' } }])
      sockets[0].push({ channel: 'c1', ts: 1 })
      sockets[0].push({ channel: 'user_orders', ts: 1 })
      expect(c.calls).toEqual(['open', 'msg:c1', 'msg:user_orders'])
      sockets[0].drop()
      expect(c.calls.at(-1)).toBe('close')
    })

    it('a wanting client alone keeps the line and reconnects it; an idle one does not open it', () => {
      const idle = lineClient(false)
      client.attach(idle.client)
      expect(sockets).toHaveLength(0)
      const c = lineClient()
      client.attach(c.client)
      expect(sockets).toHaveLength(1)
      sockets[0].open()
      sockets[0].drop()
      vi.advanceTimersByTime(100)
      expect(sockets).toHaveLength(2)
      // Not reconnecting in the market sense: no channel is frozen on screen.
      expect(client.isReconnecting).toBe(false)
    })

    it('release closes the line nobody wants, or replaces a connection the server tied to the client', () => {
      const c = lineClient()
      const detach = client.attach(c.client)
      sockets[0].open()
      client.subscribe('c1', vi.fn())
      c.state.want = false
      detach()
      client.release(true)
      expect(sockets[0].closed).toBe(true)
      expect(sockets).toHaveLength(2)
      sockets[1].open()
      expect(sockets[1].sent).toEqual([{ event: 'sub', params: { channel: 'c1' } }])
      client.release(false)
      expect(sockets[1].closed).toBe(false)

      const other = new MarketSocket({ url: 'ws://y', create: (u) => { const s = new FakeSocket(u); sockets.push(s); return s }, pingInterval: 0 })
      const d = lineClient()
      const off = other.attach(d.client)
      sockets.at(-1)!.open()
      d.state.want = false
      off()
      other.release(false)
      expect(sockets.at(-1)!.closed).toBe(true)
    })
  })
})
