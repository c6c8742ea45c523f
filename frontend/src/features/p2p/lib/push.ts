import { useEffect, useRef } from 'react'
import { getMarketSocket, type LineClient } from '@/lib/market-socket'
import type { ChatMessage } from '../api/types'

/**
 * P2P's pushed updates (README "P2P trading": both sides of an order get
 * its changes on user_p2p_orders, {id, status}, and its new messages on
 * user_p2p_chat, {orderId, message}). They come on the app's one socket,
 * which the signed-in user's private feed keeps open and authenticated;
 * this listens on the line as a passive client (it never asks for the line
 * itself, so nothing changes for a visitor), and the pages keep polling as
 * well: a message missed while the line was down is read at the next poll.
 */

/** One pushed P2P update. */
export type P2PPush =
  | { channel: 'user_p2p_orders'; id: string; status: string }
  | { channel: 'user_p2p_chat'; orderId: string; message: ChatMessage }

/** Reads a P2P update out of a frame, or undefined for any other frame. */
export function parsePush(frame: Record<string, unknown>): P2PPush | undefined {
  const data = frame.data as Record<string, unknown> | undefined
  if (!data || typeof data !== 'object' || frame.event_rep !== undefined) return undefined
  if (frame.channel === 'user_p2p_orders' && typeof data.id === 'string') {
    return { channel: 'user_p2p_orders', id: data.id, status: String(data.status ?? '') }
  }
  if (frame.channel === 'user_p2p_chat' && typeof data.orderId === 'string') {
    const m = data.message as ChatMessage | undefined
    if (m && typeof m.id === 'string') return { channel: 'user_p2p_chat', orderId: data.orderId, message: m }
  }
  return undefined
}

/** Calls `onPush` for every P2P update while mounted. */
export function useP2PPush(onPush: (push: P2PPush) => void): void {
  const ref = useRef(onPush)
  useEffect(() => {
    ref.current = onPush
  })
  useEffect(() => {
    if (typeof WebSocket === 'undefined') return
    const client: LineClient = {
      wanted: () => false,
      onMessage: (frame) => {
        const push = parsePush(frame)
        if (push) ref.current(push)
      },
    }
    return getMarketSocket().attach(client)
  }, [])
}
