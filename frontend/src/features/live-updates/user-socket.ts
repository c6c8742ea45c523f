import { backoffDelay, type SocketLike } from '@/lib/market-socket'

/**
 * The signed-in user's private WebSocket (README "WebSocket"): it sends
 * {"event":"auth","params":{"token"}} on every (re)connect, after which the
 * server pushes the user's own user_orders and user_balances messages
 * {channel, ts, data} without any sub frame. It answers the server's
 * {"ping": n}, pings the server itself so an idle proxy keeps the line, and
 * reconnects with exponential backoff. A refused token ends it: reconnecting
 * with the same token would be refused again (the app starts a new socket
 * when the session changes).
 */

/** Private channels the server pushes after auth. */
export const PRIVATE_CHANNELS = ['user_orders', 'user_balances'] as const
export type PrivateChannel = (typeof PRIVATE_CHANNELS)[number]

/** A pushed private message. */
export interface PrivateMessage {
  channel: PrivateChannel
  ts?: number
  data?: unknown
}

/** Options of {@link UserSocket}. */
export interface UserSocketOptions {
  url: () => string
  /** The session token; without one the socket does not connect. */
  token: () => string | undefined
  onMessage: (message: PrivateMessage) => void
  /**
   * Called when the server has accepted the token; resumed is true after a
   * reconnect (updates may have been missed while the line was down).
   */
  onReady?: (resumed: boolean) => void
  /** Called when the server refused the token. */
  onRejected?: () => void
  /** Creates the socket; defaults to the browser WebSocket. */
  create?: (url: string) => SocketLike
  baseDelay?: number
  maxDelay?: number
  /** Client ping period in ms (0 disables). */
  pingInterval?: number
}

const OPEN = 1
const privateChannels = new Set<string>(PRIVATE_CHANNELS)

/** One authenticated socket for the signed-in user's own updates. */
export class UserSocket {
  private socket: SocketLike | null = null
  private attempt = 0
  private readyOnce = false
  private stopped = true
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  private pingTimer: ReturnType<typeof setInterval> | null = null
  private readonly opts: Required<Omit<UserSocketOptions, 'onReady' | 'onRejected'>> &
    Pick<UserSocketOptions, 'onReady' | 'onRejected'>

  constructor(options: UserSocketOptions) {
    this.opts = {
      ...options,
      create: options.create ?? ((u) => new WebSocket(u) as unknown as SocketLike),
      baseDelay: options.baseDelay ?? 1000,
      maxDelay: options.maxDelay ?? 30_000,
      pingInterval: options.pingInterval ?? 20_000,
    }
  }

  /** Connects (when there is a token). */
  start(): void {
    this.stopped = false
    if (!this.socket && !this.reconnectTimer) this.connect()
  }

  /** Closes the socket for good. */
  stop(): void {
    this.stopped = true
    this.clearTimers()
    const s = this.socket
    this.socket = null
    if (s) {
      s.onclose = null
      s.onmessage = null
      s.close()
    }
  }

  private connect(): void {
    this.reconnectTimer = null
    if (this.stopped) return
    const token = this.opts.token()
    if (!token) return
    let s: SocketLike
    try {
      s = this.opts.create(this.opts.url())
    } catch {
      this.scheduleReconnect()
      return
    }
    this.socket = s
    s.onopen = () => {
      this.send({ event: 'auth', params: { token } })
      if (this.opts.pingInterval > 0) {
        this.pingTimer = setInterval(() => this.send({ ping: Date.now() }), this.opts.pingInterval)
      }
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
      if (!this.stopped) this.scheduleReconnect()
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
    if (m.event_rep === 'auth') {
      if (m.status === 'ok') {
        const resumed = this.readyOnce
        this.readyOnce = true
        this.attempt = 0
        this.opts.onReady?.(resumed)
      } else {
        this.stop()
        this.opts.onRejected?.()
      }
      return
    }
    if (typeof m.channel === 'string' && privateChannels.has(m.channel) && m.event_rep === undefined) {
      this.opts.onMessage(m as unknown as PrivateMessage)
    }
  }
}
