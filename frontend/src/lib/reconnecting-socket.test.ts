import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeSocket } from '@/test/fake-socket'
import { backoffDelay, ReconnectingSocket, type ReconnectingSocketOptions } from './reconnecting-socket'

describe('ReconnectingSocket', () => {
  let sockets: FakeSocket[]
  let wanted: boolean
  let states: boolean[]
  let messages: Record<string, unknown>[]
  let line: ReconnectingSocket

  function make(extra: Partial<ReconnectingSocketOptions> = {}): ReconnectingSocket {
    return new ReconnectingSocket({
      url: () => `ws://x/${sockets.length}`,
      create: (u) => {
        const s = new FakeSocket(u)
        sockets.push(s)
        return s
      },
      baseDelay: 100,
      maxDelay: 1000,
      pingInterval: 0,
      wanted: () => wanted,
      onMessage: (m) => messages.push(m),
      onStateChange: (open) => states.push(open),
      ...extra,
    })
  }

  beforeEach(() => {
    vi.useFakeTimers()
    sockets = []
    wanted = true
    states = []
    messages = []
    line = make()
  })
  afterEach(() => {
    line.close()
    vi.useRealTimers()
  })

  it('connects once on start, reading the url each time, and reports state changes', () => {
    line.start()
    line.start()
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://x/0')
    expect(line.isOpen).toBe(false)
    sockets[0].open()
    expect(line.isOpen).toBe(true)
    sockets[0].drop()
    expect(line.isOpen).toBe(false)
    expect(states).toEqual([true, false])
    vi.advanceTimersByTime(100)
    expect(sockets[1].url).toBe('ws://x/1')
  })

  it('reconnects after a close with doubling backoff until resetBackoff', () => {
    line.start()
    sockets[0].drop()
    vi.advanceTimersByTime(99)
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(2)
    sockets[1].drop()
    vi.advanceTimersByTime(199)
    expect(sockets).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(3)
    // A healthy line starts the backoff over.
    sockets[2].open()
    line.resetBackoff()
    sockets[2].drop()
    vi.advanceTimersByTime(100)
    expect(sockets).toHaveLength(4)
  })

  it('retries with backoff when creating the socket throws', () => {
    let fail = true
    line.close()
    line = make({
      create: (u) => {
        if (fail) throw new Error('refused')
        const s = new FakeSocket(u)
        sockets.push(s)
        return s
      },
    })
    line.start()
    expect(sockets).toHaveLength(0)
    fail = false
    vi.advanceTimersByTime(100)
    expect(sockets).toHaveLength(1)
  })

  it('does not reconnect when the owner no longer wants the line', () => {
    line.start()
    sockets[0].open()
    wanted = false
    sockets[0].drop()
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(1)
    // start() brings it back.
    line.start()
    expect(sockets).toHaveLength(2)
  })

  it('close() closes the socket, cancels a pending reconnect and stays closed until start()', () => {
    line.start()
    sockets[0].open()
    line.close()
    expect(sockets[0].closed).toBe(true)
    expect(states).toEqual([true])
    sockets[0].drop()
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(1)

    line.start()
    sockets[1].drop()
    line.close()
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(2)

    line.start()
    expect(sockets).toHaveLength(3)
  })

  it('ignores messages of a socket it closed', () => {
    line.start()
    const old = sockets[0]
    old.open()
    line.close()
    old.push({ channel: 'late' })
    expect(messages).toEqual([])
  })

  it('does not connect while canConnect says no, and tries again on the next start', () => {
    let allowed = false
    line.close()
    line = make({ canConnect: () => allowed })
    line.start()
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(0)
    allowed = true
    line.start()
    expect(sockets).toHaveLength(1)
  })

  it('calls onOpen with a sender on every open', () => {
    line.close()
    line = make({ onOpen: (send) => send({ event: 'hello' }) })
    line.start()
    sockets[0].open()
    expect(sockets[0].sent).toEqual([{ event: 'hello' }])
    sockets[0].drop()
    vi.advanceTimersByTime(100)
    sockets[1].open()
    expect(sockets[1].sent).toEqual([{ event: 'hello' }])
  })

  it('unpacks a frame of several messages, in order', () => {
    line.start()
    sockets[0].open()
    sockets[0].push([{ channel: 'a', n: 1 }, { ping: 7 }, { channel: 'b', n: 2 }, 'not an object', [1]])
    expect(messages).toEqual([{ channel: 'a', n: 1 }, { channel: 'b', n: 2 }])
    expect(sockets[0].sent).toEqual([{ pong: 7 }])
  })

  it('answers a server ping with the same pong and passes other objects on', () => {
    line.start()
    sockets[0].open()
    sockets[0].push({ ping: 1234 })
    expect(sockets[0].sent).toEqual([{ pong: 1234 }])
    expect(messages).toEqual([])
    sockets[0].push({ channel: 'c1', ts: 1 })
    sockets[0].pushRaw('not json')
    sockets[0].pushRaw(42)
    sockets[0].push('a string')
    sockets[0].push(null)
    expect(messages).toEqual([{ channel: 'c1', ts: 1 }])
  })

  it('sends only while open', () => {
    line.start()
    line.send({ a: 1 })
    expect(sockets[0].sent).toEqual([])
    sockets[0].open()
    line.send({ a: 2 })
    expect(sockets[0].sent).toEqual([{ a: 2 }])
  })

  it('starts the ping timer on open and clears it on close', () => {
    line.close()
    line = make({ pingInterval: 1000 })
    line.start()
    vi.advanceTimersByTime(5000)
    expect(sockets[0].sent).toEqual([])
    sockets[0].open()
    vi.advanceTimersByTime(1000)
    expect(sockets[0].sent).toHaveLength(1)
    expect(sockets[0].sent[0]).toHaveProperty('ping')
    vi.advanceTimersByTime(1000)
    expect(sockets[0].sent).toHaveLength(2)
    // While messages flow the line is alive: no ping (in AWS each is an
    // invocation and two billed messages).
    for (let i = 0; i < 10; i++) {
      sockets[0].push({ channel: 'market_btcusdt_depth_step0', tick: i })
      vi.advanceTimersByTime(400)
    }
    expect(sockets[0].sent).toHaveLength(2)
    // Quiet again: pings resume within a period and a half.
    vi.advanceTimersByTime(1500)
    expect(sockets[0].sent).toHaveLength(3)
    wanted = false
    sockets[0].drop()
    expect(vi.getTimerCount()).toBe(0)

    line.start()
    sockets[1].open()
    expect(vi.getTimerCount()).toBe(1)
    line.close()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('caps the backoff delay', () => {
    expect(backoffDelay(0, 100, 1000)).toBe(100)
    expect(backoffDelay(3, 100, 1000)).toBe(800)
    expect(backoffDelay(10, 100, 1000)).toBe(1000)
  })
})
