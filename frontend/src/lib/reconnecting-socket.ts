/**
 * The connection lifecycle shared by the app's WebSockets (spec §4
 * reconnect): it opens the socket, answers the server's {"ping": n} with
 * {"pong": n}, unpacks frames that carry several messages (a JSON array:
 * the AWS publisher gathers a connection's messages), pings the server
 * itself when the line has been quiet for a
 * ping period so an idle proxy does not drop it (never while messages
 * flow: in AWS each ping is a function invocation and two billed
 * messages), and after an unexpected close reconnects with exponential backoff
 * for as long as the owner still wants the line. What is sent on open and
 * what a message means is left to the owner through hooks, so the market
 * socket and the signed-in user's socket keep one copy of this logic.
 */

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

/** Sends one JSON frame when the socket is open (dropped otherwise). */
export type SendFrame = (frame: unknown) => void

/** Options of {@link ReconnectingSocket}. */
export interface ReconnectingSocketOptions {
  /** The URL, read on every (re)connect. */
  url: () => string
  /** Creates the socket; defaults to the browser WebSocket. */
  create?: (url: string) => SocketLike
  /** First reconnect delay in ms (doubles up to maxDelay). */
  baseDelay?: number
  maxDelay?: number
  /** Client ping period in ms (0 disables): a ping goes out when nothing was received for that long. */
  pingInterval?: number
  /** Asked after an unexpected close whether to reconnect. */
  wanted: () => boolean
  /**
   * Asked before every connect attempt; false leaves the client idle (no
   * socket and no retry) until the next start().
   */
  canConnect?: () => boolean
  /** Called when the socket opens, before the ping timer starts. */
  onOpen?: (send: SendFrame) => void
  /** Receives every parsed JSON object frame except the server's pings. */
  onMessage?: (message: Record<string, unknown>, send: SendFrame) => void
  /** Called with true on open and false on every close that was not close(). */
  onStateChange?: (open: boolean) => void
}

const OPEN = 1

/** Reconnect delay of attempt n (0-based): base·2^n capped at max. */
export function backoffDelay(attempt: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, attempt))
}

/** One WebSocket line with ping/pong, backoff reconnect and owner hooks. */
export class ReconnectingSocket {
  private socket: SocketLike | null = null
  private attempt = 0
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  private pingTimer: ReturnType<typeof setInterval> | null = null
  /** When the last frame arrived (ms, Date.now()). */
  private lastReceived = 0
  private closedByUser = false
  private readonly create: (url: string) => SocketLike
  private readonly baseDelay: number
  private readonly maxDelay: number
  private readonly pingInterval: number
  private readonly opts: ReconnectingSocketOptions

  constructor(opts: ReconnectingSocketOptions) {
    this.opts = opts
    this.create = opts.create ?? ((u) => new WebSocket(u) as unknown as SocketLike)
    this.baseDelay = opts.baseDelay ?? 1000
    this.maxDelay = opts.maxDelay ?? 30_000
    this.pingInterval = opts.pingInterval ?? 20_000
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.socket?.readyState === OPEN
  }

  /** Connects unless a socket or a pending reconnect already exists. */
  start(): void {
    this.closedByUser = false
    if (this.socket || this.reconnectTimer) return
    this.connect()
  }

  /** Closes the socket for good (until the next start) without reconnecting. */
  close(): void {
    this.closedByUser = true
    this.clearTimers()
    const s = this.socket
    this.socket = null
    if (s) {
      s.onclose = null
      s.onmessage = null
      s.close()
    }
  }

  /** Restarts the backoff from the base delay (the line proved healthy). */
  resetBackoff(): void {
    this.attempt = 0
  }

  /** Sends one JSON frame when the socket is open (dropped otherwise). */
  send(frame: unknown): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(frame))
  }

  private readonly sendFrame: SendFrame = (frame) => this.send(frame)

  private connect(): void {
    this.reconnectTimer = null
    if (this.closedByUser) return
    if (this.opts.canConnect && !this.opts.canConnect()) return
    let s: SocketLike
    try {
      s = this.create(this.opts.url())
    } catch {
      this.scheduleReconnect()
      return
    }
    this.socket = s
    s.onopen = () => {
      this.opts.onOpen?.(this.sendFrame)
      if (this.pingInterval > 0) {
        this.lastReceived = Date.now()
        // Checked twice a period, so a quiet line pings within 1.5 periods.
        this.pingTimer = setInterval(() => {
          const now = Date.now()
          if (now - this.lastReceived >= this.pingInterval) {
            this.lastReceived = now
            this.send({ ping: now })
          }
        }, this.pingInterval / 2)
      }
      this.opts.onStateChange?.(true)
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
      this.opts.onStateChange?.(false)
      if (!this.closedByUser && this.opts.wanted()) this.scheduleReconnect()
    }
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.baseDelay, this.maxDelay)
    this.attempt += 1
    this.reconnectTimer = setTimeout(() => this.connect(), delay)
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    if (this.pingTimer) clearInterval(this.pingTimer)
    this.reconnectTimer = null
    this.pingTimer = null
  }

  private handle(raw: unknown): void {
    this.lastReceived = Date.now()
    if (typeof raw !== 'string') return
    let msg: unknown
    try {
      msg = JSON.parse(raw)
    } catch {
      return
    }
    // In AWS a connection's messages of half a second come as one frame, a
    // JSON array, oldest first (API Gateway bills every message).
    if (Array.isArray(msg)) {
      for (const m of msg) this.handleOne(m)
      return
    }
    this.handleOne(msg)
  }

  private handleOne(msg: unknown): void {
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return
    const m = msg as Record<string, unknown>
    if ('ping' in m) {
      this.send({ pong: m.ping })
      return
    }
    this.opts.onMessage?.(m, this.sendFrame)
  }
}
