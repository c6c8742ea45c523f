import { getConfig } from './config'
import { ReconnectingSocket, type SendFrame, type SocketLike } from './reconnecting-socket'

// Re-exported so existing imports of the socket primitives keep working.
export { backoffDelay, type SocketLike } from './reconnecting-socket'

/**
 * One shared WebSocket to the market push service (spec §3 realtime message
 * {channel, ts, data, tick}; spec §4 reconnect). Components subscribe to
 * channels such as market_btcusdt_depth_step0; the client sends
 * {"event":"sub"} once per channel however many listeners it has, answers
 * the server's {"ping": n} with {"pong": n}, pings the server itself so an
 * idle proxy does not drop the line, and reconnects with exponential backoff,
 * re-subscribing every live channel. The connection lifecycle lives in
 * {@link ReconnectingSocket}; this class adds the channel bookkeeping.
 *
 * It is the app's only connection: the signed-in user's private feed
 * (features/live-updates) rides on the same line as a {@link LineClient}
 * (README "WebSocket": one socket carries market data and, after an auth
 * frame, the user's own updates; internal/push takes both on one
 * connection), so a page with market data and a signed-in user opens one
 * WebSocket, not two.
 */

/**
 * Another user of the one connection (the signed-in user's private feed):
 * it may keep the line wanted without any market channel, sends its own
 * frames when the line opens (before the market subs are sent again) and
 * sees every frame the server pushes.
 */
export interface LineClient {
  /** While true the line is kept open and reopened after a drop. */
  wanted(): boolean
  /** The line has (re)opened, or opened before the client attached. */
  onOpen?(send: SendFrame): void
  /** Every parsed frame the server pushes (market channels included). */
  onMessage?(message: Record<string, unknown>): void
  /** Called whenever the connection the client spoke on is gone (dropped, closed or replaced). */
  onClose?(): void
}

/** A pushed market message. */
export interface MarketMessage {
  channel: string
  ts?: number
  data?: unknown
  tick?: unknown
}

/** Receives the messages of one channel. */
export type MarketListener = (message: MarketMessage) => void

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

/** Shared market WebSocket client with subscribe/unsubscribe, ping and reconnect. */
export class MarketSocket {
  private readonly listeners = new Map<string, Set<MarketListener>>()
  private readonly stateListeners = new Set<(open: boolean) => void>()
  private readonly downListeners = new Set<() => void>()
  private readonly clients = new Set<LineClient>()
  private readonly line: ReconnectingSocket
  private down = false

  constructor(options: MarketSocketOptions) {
    const url = options.url
    this.line = new ReconnectingSocket({
      url: typeof url === 'function' ? url : () => url,
      create: options.create,
      baseDelay: options.baseDelay,
      maxDelay: options.maxDelay,
      pingInterval: options.pingInterval,
      // Reconnect only while some component or line client still wants it.
      wanted: () => this.wanted(),
      canConnect: () => this.wanted(),
      onOpen: (send) => {
        this.line.resetBackoff()
        // The private feed authenticates first, then the market channels follow.
        for (const client of [...this.clients]) client.onOpen?.(send)
        for (const channel of this.listeners.keys()) send({ event: 'sub', params: { channel } })
      },
      onMessage: (m) => this.dispatch(m),
      onStateChange: (open) => {
        if (!open) for (const client of [...this.clients]) client.onClose?.()
        this.setDown(!open && this.listeners.size > 0)
        this.stateListeners.forEach((fn) => fn(open))
      },
    })
  }

  /**
   * True from an unexpected close (or a failed connect) while channels are
   * still wanted until the socket is open again: what arrives on screen is
   * frozen meanwhile, and the page says so.
   */
  get isReconnecting(): boolean {
    return this.down
  }

  /** Calls fn whenever {@link isReconnecting} changes; returns the remover (fits useSyncExternalStore). */
  onReconnectingChange(fn: () => void): () => void {
    this.downListeners.add(fn)
    return () => this.downListeners.delete(fn)
  }

  private setDown(down: boolean): void {
    if (down === this.down) return
    this.down = down
    this.downListeners.forEach((fn) => fn())
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.line.isOpen
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
      this.line.send({ event: 'sub', params: { channel } })
    }
    set.add(listener)
    this.line.start()
    return () => this.unsubscribe(channel, listener)
  }

  private unsubscribe(channel: string, listener: MarketListener): void {
    const set = this.listeners.get(channel)
    if (!set || !set.delete(listener) || set.size > 0) return
    this.listeners.delete(channel)
    this.line.send({ event: 'unsub', params: { channel } })
    // Nobody waits for the line any more: nothing is frozen on screen.
    if (this.listeners.size === 0) this.setDown(false)
  }

  /** Closes the socket for good (until the next subscribe). */
  close(): void {
    const had = this.line.isOpen
    this.line.close()
    this.closed(had)
  }

  /** Tells the line clients (and, when it was open, the state listeners) that the connection is gone. */
  private closed(wasOpen: boolean): void {
    for (const client of [...this.clients]) client.onClose?.()
    if (wasOpen) this.stateListeners.forEach((fn) => fn(false))
    this.setDown(false)
  }

  private wanted(): boolean {
    if (this.listeners.size > 0) return true
    for (const client of this.clients) if (client.wanted()) return true
    return false
  }

  /**
   * Lets a client share the line (attaching again only wakes the line);
   * connects when the client wants it, and tells the client at once when
   * the line is already open. Returns the detacher.
   */
  attach(client: LineClient): () => void {
    if (!this.clients.has(client)) {
      this.clients.add(client)
      if (this.line.isOpen) client.onOpen?.((frame) => this.line.send(frame))
    }
    if (client.wanted()) this.line.start()
    return () => {
      this.clients.delete(client)
    }
  }

  /**
   * Called by a client that no longer wants the line (stopped, or its token
   * was refused). The line closes when nobody else wants it; otherwise, when
   * the client had tied the connection to something on the server (an
   * accepted auth), the connection is replaced by a fresh one, re-subscribed
   * to every market channel, so the server forgets that tie (there is no
   * frame to undo an auth).
   */
  release(dropServerState: boolean): void {
    if (!this.wanted()) {
      this.close()
      return
    }
    if (!dropServerState) return
    const had = this.line.isOpen
    this.line.close()
    this.closed(had)
    this.line.start()
  }

  /** Sends one frame when the line is open (dropped otherwise). */
  send(frame: unknown): void {
    this.line.send(frame)
  }

  private dispatch(m: Record<string, unknown>): void {
    for (const client of [...this.clients]) client.onMessage?.(m)
    if (typeof m.channel !== 'string') return
    const set = this.listeners.get(m.channel)
    if (!set) return
    for (const fn of [...set]) fn(m as unknown as MarketMessage)
  }
}

let shared: MarketSocket | null = null

/** The app-wide socket (market channels and the private feed) on the runtime config's ws URL. */
export function getMarketSocket(): MarketSocket {
  shared ??= new MarketSocket({ url: () => getConfig().ws })
  return shared
}
