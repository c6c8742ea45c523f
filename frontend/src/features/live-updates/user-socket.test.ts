import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MarketSocket } from '@/lib/market-socket'
import { FakeSocket } from '@/test/fake-socket'
import { UserSocket, type PrivateMessage } from './user-socket'

describe('UserSocket', () => {
  let sockets: FakeSocket[]
  let token: string | undefined
  let received: PrivateMessage[]
  let ready: boolean[]
  let rejected: number
  let client: UserSocket
  let line: MarketSocket
  beforeEach(() => {
    vi.useFakeTimers()
    sockets = []
    token = 'tok-1'
    received = []
    ready = []
    rejected = 0
    line = new MarketSocket({
      url: () => 'ws://x/ws',
      create: (u) => {
        const s = new FakeSocket(u)
        sockets.push(s)
        return s
      },
      baseDelay: 100,
      maxDelay: 1000,
      pingInterval: 0,
    })
    client = new UserSocket({
      line,
      token: () => token,
      onMessage: (m) => received.push(m),
      onReady: (resumed) => ready.push(resumed),
      onRejected: () => {
        rejected += 1
      },
    })
  })
  afterEach(() => {
    client.stop()
    line.close()
    vi.useRealTimers()
  })

  it('authenticates with the session token on open and passes on only private messages (orders, balances, deposits, withdrawals)', () => {
    client.start()
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://x/ws')
    expect(sockets[0].sent).toEqual([])
    sockets[0].open()
    expect(sockets[0].sent).toEqual([{ event: 'auth', params: { token: 'tok-1' } }])
    sockets[0].push({ event_rep: 'auth', status: 'ok', ts: 1 })
    expect(ready).toEqual([false])

    const order = { channel: 'user_orders', ts: 5, data: { order_id: '7', event: 'placed' } }
    const balance = { channel: 'user_balances', ts: 6, data: { coin: 'USDT', normal: '90', lock: '10' } }
    // deposit.Record and withdraw.Record as internal/deposit and internal/withdraw push them.
    const deposit = {
      channel: 'deposit',
      ts: 8,
      data: { id: 'd1', coin: 'BTC', chain: 'BTC', txid: 'ab', vout: 0, address: 'bc1q', amount: '0.5', confirmations: 1, requiredConfirmations: 2, status: 'confirming', createTime: 8 },
    }
    const withdraw = { channel: 'withdraw', ts: 9, data: { id: 'w1', kind: 'chain', coin: 'USDT', amount: '10', fee: '1', net: '9', status: 'PENDING', createTime: 9, updateTime: 9 } }
    sockets[0].push(order)
    sockets[0].push({ channel: 'market_btcusdt_ticker', ts: 7, tick: { close: '1' } })
    sockets[0].push(deposit)
    sockets[0].push({ event_rep: 'sub', channel: 'user_orders', status: 'error', msg: 'private channel' })
    sockets[0].push({ event_rep: 'sub', channel: 'deposit', status: 'ok' })
    sockets[0].push({ channel: 'user_deposit', ts: 10, data: {} })
    sockets[0].push(balance)
    sockets[0].push(withdraw)
    expect(received).toEqual([order, deposit, balance, withdraw])
  })

  it('is ready only while the line is open and the token accepted', () => {
    expect(client.isReady).toBe(false)
    client.start()
    sockets[0].open()
    expect(client.isReady).toBe(false)
    sockets[0].push({ event_rep: 'auth', status: 'ok' })
    expect(client.isReady).toBe(true)
    sockets[0].drop()
    expect(client.isReady).toBe(false)
    vi.advanceTimersByTime(100)
    sockets[1].open()
    expect(client.isReady).toBe(false)
    sockets[1].push({ event_rep: 'auth', status: 'ok' })
    expect(client.isReady).toBe(true)
    client.stop()
    expect(client.isReady).toBe(false)
  })

  it('answers server pings', () => {
    client.start()
    sockets[0].open()
    sockets[0].push({ ping: 42 })
    expect(sockets[0].sent).toContainEqual({ pong: 42 })
  })

  it('reconnects with backoff, authenticates again and reports the resumption', () => {
    client.start()
    sockets[0].open()
    sockets[0].push({ event_rep: 'auth', status: 'ok' })
    sockets[0].drop()
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(99)
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(2)
    token = 'tok-2'
    sockets[1].drop()
    vi.advanceTimersByTime(200)
    expect(sockets).toHaveLength(3)
    sockets[2].open()
    expect(sockets[2].sent).toEqual([{ event: 'auth', params: { token: 'tok-2' } }])
    sockets[2].push({ event_rep: 'auth', status: 'ok' })
    expect(ready).toEqual([false, true])
  })

  it('gives up when the token is refused', () => {
    client.start()
    sockets[0].open()
    sockets[0].push({ event_rep: 'auth', status: 'error', msg: 'invalid token' })
    expect(rejected).toBe(1)
    expect(sockets[0].closed).toBe(true)
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(1)
  })

  it('does not connect without a token, and stop closes for good', () => {
    token = undefined
    client.start()
    expect(sockets).toHaveLength(0)
    token = 'tok-3'
    client.start()
    expect(sockets).toHaveLength(1)
    client.stop()
    expect(sockets[0].closed).toBe(true)
    sockets[0].drop()
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(1)
  })

  describe('on the one connection it shares with the market channels', () => {
    const sub = (channel: string) => ({ event: 'sub', params: { channel } })
    const auth = (t: string) => ({ event: 'auth', params: { token: t } })

    it('opens no second socket: auth and the market subs go over the same line, and each side gets its own messages', () => {
      const ticker = vi.fn()
      line.subscribe('market_btcusdt_ticker', ticker)
      client.start()
      expect(sockets).toHaveLength(1)
      sockets[0].open()
      expect(sockets[0].sent).toEqual([auth('tok-1'), sub('market_btcusdt_ticker')])
      sockets[0].push({ event_rep: 'auth', status: 'ok' })
      expect(client.isReady).toBe(true)
      const order = { channel: 'user_orders', ts: 5, data: { order_id: '7', event: 'placed' } }
      const tick = { channel: 'market_btcusdt_ticker', ts: 6, tick: { close: '1' } }
      sockets[0].push(order)
      sockets[0].push(tick)
      expect(received).toEqual([order])
      expect(ticker).toHaveBeenCalledTimes(1)
      expect(ticker).toHaveBeenCalledWith(tick)
      expect(sockets).toHaveLength(1)
    })

    it('authenticates at once on a line that is already open for the market', () => {
      line.subscribe('market_btcusdt_depth_step0', vi.fn())
      sockets[0].open()
      client.start()
      expect(sockets).toHaveLength(1)
      expect(sockets[0].sent).toEqual([sub('market_btcusdt_depth_step0'), auth('tok-1')])
      sockets[0].push({ event_rep: 'auth', status: 'ok' })
      expect(ready).toEqual([false])
    })

    it('after a drop reconnects once, authenticates again and re-subscribes every channel', () => {
      line.subscribe('c1', vi.fn())
      line.subscribe('c2', vi.fn())
      client.start()
      sockets[0].open()
      sockets[0].push({ event_rep: 'auth', status: 'ok' })
      sockets[0].drop()
      expect(client.isReady).toBe(false)
      expect(line.isReconnecting).toBe(true)
      vi.advanceTimersByTime(100)
      expect(sockets).toHaveLength(2)
      sockets[1].open()
      expect(sockets[1].sent).toEqual([auth('tok-1'), sub('c1'), sub('c2')])
      expect(client.isReady).toBe(false)
      sockets[1].push({ event_rep: 'auth', status: 'ok' })
      expect(client.isReady).toBe(true)
      expect(line.isReconnecting).toBe(false)
      expect(ready).toEqual([false, true])
    })

    it('keeps the private feed alive without market channels, and the market line alive after a refused token', () => {
      const off = line.subscribe('c1', vi.fn())
      client.start()
      sockets[0].open()
      sockets[0].push({ event_rep: 'auth', status: 'ok' })
      // Leaving the trade page: the feed still wants the line.
      off()
      sockets[0].drop()
      vi.advanceTimersByTime(100)
      expect(sockets).toHaveLength(2)
      sockets[1].open()
      expect(sockets[1].sent).toEqual([auth('tok-1')])

      // A refused token ends the feed, not the market data.
      const ticker = vi.fn()
      line.subscribe('c3', ticker)
      sockets[1].push({ event_rep: 'auth', status: 'error', msg: 'invalid token' })
      expect(rejected).toBe(1)
      expect(sockets[1].closed).toBe(false)
      sockets[1].push({ channel: 'c3', ts: 1, data: {} })
      expect(ticker).toHaveBeenCalledTimes(1)
      sockets[1].drop()
      vi.advanceTimersByTime(100)
      sockets[2].open()
      // Reconnected for the market only: the refused token is not sent again.
      expect(sockets[2].sent).toEqual([sub('c3')])
    })

    it('on stop, replaces an authenticated connection with a fresh one for the market channels (the server forgets the user)', () => {
      const ticker = vi.fn()
      line.subscribe('c1', ticker)
      client.start()
      sockets[0].open()
      sockets[0].push({ event_rep: 'auth', status: 'ok' })
      client.stop()
      expect(sockets[0].closed).toBe(true)
      expect(sockets).toHaveLength(2)
      sockets[1].open()
      expect(sockets[1].sent).toEqual([sub('c1')])
      sockets[1].push({ channel: 'user_orders', ts: 1, data: {} })
      expect(received).toEqual([])
      sockets[1].push({ channel: 'c1', ts: 1, data: {} })
      expect(ticker).toHaveBeenCalledTimes(1)
    })

    it('on stop before any auth went out, leaves the market connection as it is', () => {
      line.subscribe('c1', vi.fn())
      client.start()
      client.stop()
      sockets[0].open()
      expect(sockets).toHaveLength(1)
      expect(sockets[0].sent).toEqual([sub('c1')])
    })
  })
})
