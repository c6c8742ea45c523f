import { getConfig } from './config'
import { ReconnectingSocket, type SocketLike } from './reconnecting-socket'

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
      // Reconnect only while some component still listens.
      wanted: () => this.listeners.size > 0,
      onOpen: (send) => {
        this.line.resetBackoff()
        for (const channel of this.listeners.keys()) send({ event: 'sub', params: { channel } })
      },
      onMessage: (m) => this.dispatch(m),
      onStateChange: (open) => {
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
    this.line.close()
    this.setDown(false)
  }

  private dispatch(m: Record<string, unknown>): void {
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
