import { ReconnectingSocket, type SocketLike } from '@/lib/reconnecting-socket'

/**
 * The signed-in user's private WebSocket (README "WebSocket"): it sends
 * {"event":"auth","params":{"token"}} on every (re)connect, after which the
 * server pushes the user's own messages {channel, ts, data} without any sub
 * frame (internal/push): user_orders and user_balances (internal/userfeed),
 * and deposit and withdraw, whose data is the deposit or withdrawal record
 * as the history lists it ({id, coin, status, confirmations, ...}: the JSON
 * of deposit.Record, sent when a deposit is seen, on every confirmation and
 * when it is credited or held for review; of withdraw.Record, sent on every
 * status change). It answers the server's
 * {"ping": n}, pings the server itself so an idle proxy keeps the line, and
 * reconnects with exponential backoff. A refused token ends it: reconnecting
 * with the same token would be refused again (the app starts a new socket
 * when the session changes). The connection lifecycle lives in
 * {@link ReconnectingSocket}; this class adds auth and message filtering.
 */

/** Private channels the server pushes after auth. */
export const PRIVATE_CHANNELS = ['user_orders', 'user_balances', 'deposit', 'withdraw'] as const
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

const privateChannels = new Set<string>(PRIVATE_CHANNELS)

/** One authenticated socket for the signed-in user's own updates. */
export class UserSocket {
  private readyOnce = false
  /** True from the server's auth ok until the line closes. */
  private authed = false
  /** The token read for the current connect attempt, sent once the line opens. */
  private token: string | undefined
  private readonly opts: UserSocketOptions
  private readonly line: ReconnectingSocket

  constructor(options: UserSocketOptions) {
    this.opts = options
    this.line = new ReconnectingSocket({
      url: options.url,
      create: options.create,
      baseDelay: options.baseDelay,
      maxDelay: options.maxDelay,
      pingInterval: options.pingInterval,
      // Every close that is not stop() is unexpected: reconnect.
      wanted: () => true,
      canConnect: () => {
        this.token = this.opts.token()
        return !!this.token
      },
      onOpen: (send) => send({ event: 'auth', params: { token: this.token } }),
      onMessage: (m) => this.handle(m),
      onStateChange: (open) => {
        if (!open) this.authed = false
      },
    })
  }

  /**
   * True while the line is open and the server has accepted the token, so
   * the user's updates arrive (false while connecting or reconnecting).
   */
  get isReady(): boolean {
    return this.authed && this.line.isOpen
  }

  /** Connects (when there is a token). */
  start(): void {
    this.line.start()
  }

  /** Closes the socket for good. */
  stop(): void {
    this.authed = false
    this.line.close()
  }

  private handle(m: Record<string, unknown>): void {
    if (m.event_rep === 'auth') {
      if (m.status === 'ok') {
        const resumed = this.readyOnce
        this.readyOnce = true
        this.authed = true
        this.line.resetBackoff()
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
