import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { getConfig } from '@/lib/config'
import { getToken } from '@/lib/cookies'
import { walletKeys } from '../api/wallet-api'

/** Channels the funds services publish to the user (internal/push PublishUser). */
const LIVE_CHANNELS = new Set(['deposit', 'withdraw'])

/**
 * Keeps the wallet current without a reload: a WebSocket bound to the
 * user (auth frame with the session token) refreshes every wallet query
 * when a deposit or withdrawal changes. It reconnects when closed; the
 * history screens also poll while something is confirming, so nothing
 * depends on the socket alone.
 */
export function useWalletLive(enabled = true): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!enabled || typeof WebSocket === 'undefined') return
    let socket: WebSocket | undefined
    let stopped = false
    let retry: number | undefined
    let attempts = 0
    const connect = () => {
      const token = getToken()
      if (!token || stopped) return
      try {
        socket = new WebSocket(getConfig().ws)
      } catch {
        return
      }
      socket.onopen = () => {
        attempts = 0
        socket?.send(JSON.stringify({ event: 'auth', params: { token } }))
      }
      socket.onmessage = (event) => {
        let msg: { channel?: string; ping?: number } | undefined
        try {
          msg = JSON.parse(String(event.data))
        } catch {
          return
        }
        if (msg?.ping !== undefined) {
          socket?.send(JSON.stringify({ pong: msg.ping }))
          return
        }
        if (msg?.channel && LIVE_CHANNELS.has(msg.channel)) {
          void queryClient.invalidateQueries({ queryKey: walletKeys.all })
        }
      }
      socket.onclose = () => {
        if (stopped) return
        attempts += 1
        retry = window.setTimeout(connect, Math.min(30_000, 1000 * 2 ** Math.min(attempts, 5)))
      }
    }
    connect()
    return () => {
      stopped = true
      window.clearTimeout(retry)
      socket?.close()
    }
  }, [enabled, queryClient])
}
