import { getMarketSocket, type LineClient, type MarketSocket } from '@/lib/market-socket'

/**
 * The signed-in user's private feed (README "WebSocket"). It rides on the
 * app's one WebSocket, the market socket (lib/market-socket: the server
 * takes market subs and an auth frame on the same connection), and sends
 * {"event":"auth","params":{"token"}} on every (re)connect, after which the
 * server pushes the user's own messages {channel, ts, data} without any sub
 * frame (internal/push): user_orders and user_balances (internal/userfeed),
 * and deposit and withdraw, whose data is the deposit or withdrawal record
 * as the history lists it ({id, coin, status, confirmations, ...}: the JSON
 * of deposit.Record, sent when a deposit is seen, on every confirmation and
 * when it is credited or held for review; of withdraw.Record, sent on every
 * status change). The line answers the server's {"ping": n}, pings the
 * server itself and reconnects with exponential backoff, re-sending the auth
 * frame and the market subs. A refused token ends the feed (the market
 * channels carry on): reconnecting with the same token would be refused
 * again (the app starts a new feed when the session changes). This class
 * adds auth and message filtering to the shared line.
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
  /**
   * The connection to ride on: the app's one socket, shared with the market
   * channels (defaults to {@link getMarketSocket}).
   */
  line?: MarketSocket
  /** The session token; without one the feed does not ask for the line. */
  token: () => string | undefined
  onMessage: (message: PrivateMessage) => void
  /**
   * Called when the server has accepted the token; resumed is true after a
   * reconnect (updates may have been missed while the line was down).
   */
  onReady?: (resumed: boolean) => void
  /** Called when the server refused the token. */
  onRejected?: () => void
}

const privateChannels = new Set<string>(PRIVATE_CHANNELS)

/** The signed-in user's own updates, on the app's one socket. */
export class UserSocket {
  private started = false
  private rejected = false
  private readyOnce = false
  /** True from the server's auth ok until the line closes. */
  private authed = false
  /** True once an auth frame went out on the current connection (the server may have tied it to the user). */
  private authSent = false
  private readonly opts: UserSocketOptions
  private readonly line: MarketSocket
  private readonly client: LineClient
  private detach: (() => void) | null = null

  constructor(options: UserSocketOptions) {
    this.opts = options
    this.line = options.line ?? getMarketSocket()
    this.client = {
      // Wanted (kept open, reconnected) while started with a token the server has not refused.
      wanted: () => this.started && !this.rejected && !!this.opts.token(),
      onOpen: (send) => {
        if (!this.started || this.rejected) return
        const token = this.opts.token()
        if (!token) return
        send({ event: 'auth', params: { token } })
        this.authSent = true
      },
      onMessage: (m) => this.handle(m),
      onClose: () => {
        this.authed = false
        this.authSent = false
      },
    }
  }

  /**
   * True while the line is open and the server has accepted the token, so
   * the user's updates arrive (false while connecting or reconnecting).
   */
  get isReady(): boolean {
    return this.authed && this.line.isOpen
  }

  /** Joins the line and authenticates on it (when there is a token). */
  start(): void {
    this.started = true
    this.rejected = false
    this.detach = this.line.attach(this.client)
  }

  /**
   * Leaves the line for good. The line closes when no market channel needs
   * it; otherwise an authenticated connection is replaced by a fresh one, so
   * the user's updates stop reaching this page.
   */
  stop(): void {
    if (!this.started) return
    this.started = false
    const bound = this.authSent
    this.authed = false
    this.authSent = false
    this.detach?.()
    this.detach = null
    this.line.release(bound)
  }

  private handle(m: Record<string, unknown>): void {
    if (!this.started) return
    if (m.event_rep === 'auth') {
      if (m.status === 'ok') {
        const resumed = this.readyOnce
        this.readyOnce = true
        this.authed = true
        this.opts.onReady?.(resumed)
      } else {
        // The same token would be refused again: stop asking for the line
        // (the app starts a new feed when the session changes).
        this.rejected = true
        this.authed = false
        this.authSent = false
        this.line.release(false)
        this.opts.onRejected?.()
      }
      return
    }
    if (typeof m.channel === 'string' && privateChannels.has(m.channel) && m.event_rep === undefined) {
      this.opts.onMessage(m as unknown as PrivateMessage)
    }
  }
}
