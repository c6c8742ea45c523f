import { getConfig } from './config'

/**
 * One shared WebSocket to the market push service (spec §3 realtime message
 * {channel, ts, data, tick}; spec §4 reconnect). Components subscribe to
 * channels such as market_btcusdt_depth_step0; the client sends
 * {"event":"sub"} once per channel however many listeners it has, answers
 * the server's {"ping": n} with {"pong": n}, pings the server itself so an
 * idle proxy does not drop the line, and reconnects with exponential backoff,
 * re-subscribing every live channel.
 */

/** A pushed market message. */
export interface MarketMessage {
  channel: string
  ts?: number
  data?: unknown
  tick?: unknown
}

/** Receives the messages of one channel. */
export type MarketListener = (message: MarketMessage) => void

/** The slice of the WebSocket API the client uses (lets tests pass a fake). */
export interface SocketLike {
  readyState: number
  onopen: ((ev: unknown) => void) | null
  onclose: ((ev: unknown) => void) | null
  onerror: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  send(data: string): void
  close(): void
}

/** Options of {@link MarketSocket}. */
export interface MarketSocketOptions {
  url: string | (() => string)
  /** Creates the socket; defaults to the browser WebSocket. */
  create?: (url: string) => SocketLike
  /** First reconnect delay in ms (doubles up to maxDelay). */
  baseDelay?: number
  maxDelay?: number
  /** Client ping period in ms (0 disables). */
  pingInterval?: number
}

const OPEN = 1

/** Reconnect delay of attempt n (0-based): base·2^n capped at max. */
export function backoffDelay(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt))
}

/** Shared market WebSocket client with subscribe/unsubscribe, ping and reconnect. */
export class MarketSocket {
  private socket: SocketLike | null = null
  private readonly listeners = new Map<string, Set<MarketListener>>()
  private attempt = 0
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  private pingTimer: ReturnType<typeof setInterval> | null = null
  private closedByUser = false
  private readonly opts: Required<Omit<MarketSocketOptions, 'url'>> & { url: () => string }
  private readonly stateListeners = new Set<(open: boolean) => void>()

  constructor(options: MarketSocketOptions) {
    const url = options.url
    this.opts = {
      url: typeof url === 'function' ? url : () => url,
      create: options.create ?? ((u) => new WebSocket(u) as unknown as SocketLike),
      baseDelay: options.baseDelay ?? 1000,
      maxDelay: options.maxDelay ?? 30_000,
      pingInterval: options.pingInterval ?? 20_000,
    }
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.socket?.readyState === OPEN
  }

  /** Channels that have at least one listener. */
  get channels(): string[] {
    return [...this.listeners.keys()]
  }

  /** Calls fn with the open state on every change; returns the remover. */
  onStateChange(fn: (open: boolean) => void): () => void {
    this.stateListeners.add(fn)
    return () => this.stateListeners.delete(fn)
  }

  /** Listens to a channel (connecting when needed); returns the unsubscriber. */
  subscribe(channel: string, listener: MarketListener): () => void {
    let set = this.listeners.get(channel)
    if (!set) {
      set = new Set()
      this.listeners.set(channel, set)
      if (this.isOpen) this.send({ event: 'sub', params: { channel } })
    }
    set.add(listener)
    this.closedByUser = false
    this.ensureConnected()
    return () => this.unsubscribe(channel, listener)
  }

  private unsubscribe(channel: string, listener: MarketListener): void {
    const set = this.listeners.get(channel)
    if (!set || !set.delete(listener) || set.size > 0) return
    this.listeners.delete(channel)
    if (this.isOpen) this.send({ event: 'unsub', params: { channel } })
  }

  /** Closes the socket for good (until the next subscribe). */
  close(): void {
    this.closedByUser = true
    this.clearTimers()
    const s = this.socket
    this.socket = null
    if (s) {
      s.onclose = null
      s.close()
    }
  }

  private ensureConnected(): void {
    if (this.socket || this.reconnectTimer) return
    this.connect()
  }

  private connect(): void {
    this.reconnectTimer = null
    let s: SocketLike
    try {
      s = this.opts.create(this.opts.url())
    } catch {
      this.scheduleReconnect()
      return
    }
    this.socket = s
    s.onopen = () => {
      this.attempt = 0
      for (const channel of this.listeners.keys()) this.send({ event: 'sub', params: { channel } })
      if (this.opts.pingInterval > 0) {
        this.pingTimer = setInterval(() => this.send({ ping: Date.now() }), this.opts.pingInterval)
      }
      this.stateListeners.forEach((fn) => fn(true))
    }
    s.onmessage = (ev) => this.handle(ev.data)
    s.onerror = () => {
      // onclose follows an error; reconnecting happens there.
    }
    s.onclose = () => {
      if (this.socket !== s) return
      this.socket = null
      if (this.pingTimer) clearInterval(this.pingTimer)
      this.pingTimer = null
      this.stateListeners.forEach((fn) => fn(false))
      if (!this.closedByUser && this.listeners.size > 0) this.scheduleReconnect()
    }
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.opts.baseDelay, this.opts.maxDelay)
    this.attempt += 1
    this.reconnectTimer = setTimeout(() => this.connect(), delay)
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    if (this.pingTimer) clearInterval(this.pingTimer)
    this.reconnectTimer = null
    this.pingTimer = null
  }

  private send(frame: unknown): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(frame))
  }

  private handle(raw: unknown): void {
    if (typeof raw !== 'string') return
    let msg: unknown
    try {
      msg = JSON.parse(raw)
    } catch {
      return
    }
    if (typeof msg !== 'object' || msg === null) return
    const m = msg as Record<string, unknown>
    if ('ping' in m) {
      this.send({ pong: m.ping })
      return
    }
    if (typeof m.channel !== 'string') return
    const set = this.listeners.get(m.channel)
    if (!set) return
    for (const fn of [...set]) fn(m as unknown as MarketMessage)
  }
}

let shared: MarketSocket | null = null

/** The app-wide market socket on the runtime config's ws URL. */
export function getMarketSocket(): MarketSocket {
  shared ??= new MarketSocket({ url: () => getConfig().ws })
  return shared
}
