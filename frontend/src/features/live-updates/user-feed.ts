import type { PrivateChannel, PrivateMessage } from './user-socket'

/**
 * The signed-in user's private messages for other features. The app keeps
 * one private socket, opened by {@link useLiveUserUpdates} in the root
 * layout; it passes every message on here, and a feature that wants to
 * react to one (the order form waiting for the order it has just placed to
 * end) listens to its channel instead of opening a socket of its own or
 * polling. Nothing arrives while nobody is signed in or the line is down:
 * {@link isUserFeedReady} says whether messages can arrive now.
 */

/** Receives one private message of the channel listened to. */
export type UserMessageListener = (message: PrivateMessage) => void

const listeners = new Map<PrivateChannel, Set<UserMessageListener>>()
/** The state of the socket that feeds the listeners, while there is one. */
let source: { readonly isReady: boolean } | null = null

/**
 * Listens to one private channel of the app-wide socket (user_orders: data
 * is the order as the order lists show it, plus event); returns the
 * unsubscriber.
 */
export function subscribeUserChannel(channel: PrivateChannel, listener: UserMessageListener): () => void {
  let set = listeners.get(channel)
  if (!set) listeners.set(channel, (set = new Set()))
  set.add(listener)
  return () => {
    set.delete(listener)
    if (set.size === 0 && listeners.get(channel) === set) listeners.delete(channel)
  }
}

/**
 * True while the private socket is open and signed in, so pushed messages
 * arrive; false while signed out, connecting or reconnecting.
 */
export function isUserFeedReady(): boolean {
  return source?.isReady ?? false
}

/** Passes one message to the listeners of its channel (the socket's owner calls it). */
export function publishUserMessage(message: PrivateMessage): void {
  const set = listeners.get(message.channel)
  if (!set) return
  for (const listener of [...set]) {
    try {
      listener(message)
    } catch {
      // One listener's failure must not keep the message from the others.
    }
  }
}

/**
 * Makes a socket the feed's source (its owner calls it when it starts the
 * socket); returns the detacher, which leaves the feed not ready.
 */
export function attachUserFeed(socket: { readonly isReady: boolean }): () => void {
  source = socket
  return () => {
    if (source === socket) source = null
  }
}
