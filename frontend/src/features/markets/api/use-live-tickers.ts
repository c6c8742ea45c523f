import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useMarketSocketOpen, useResyncAfterReconnect } from '@/features/trade/api/use-market-connection'
import { getMarketSocket, type MarketSocket } from '@/lib/market-socket'
import { pairSymbol } from '@/lib/pair-symbol'
import { applyPushedTicker, marketTickersQuery, tickerChannel, TICKERS_POLL_MS, TICKERS_SLOW_POLL_MS, type PairTicker } from './get-market-tickers'

/**
 * Keeps the shown pairs' prices live: subscribes their market_{symbol}_ticker
 * channels and writes each push into the tickers query. A pair that trades
 * for the first time while the list is open had no line: the tickers are
 * read again once for it, so its line gets the server's 24 points at once
 * rather than at the next slow poll.
 */
export function useLiveTickers(symbols: string[], socket: MarketSocket) {
  const queryClient = useQueryClient()
  const key = symbols.join(',')
  const reread = useRef(new Set<string>())
  useEffect(() => {
    if (!key) return
    const offs = key.split(',').map((symbol) =>
      socket.subscribe(tickerChannel(symbol), (m) => {
        let lineless = false
        queryClient.setQueryData(marketTickersQuery.queryKey, (old: Record<string, PairTicker> | undefined) => {
          const next = applyPushedTicker(old, symbol, m.tick)
          const id = pairSymbol(symbol)
          lineless = old !== undefined && next?.[id]?.close !== undefined && !old[id]?.sparkline.length
          return next
        })
        if (lineless && !reread.current.has(symbol)) {
          reread.current.add(symbol)
          void queryClient.refetchQueries({ queryKey: marketTickersQuery.queryKey, exact: true }, { cancelRefetch: false })
        }
      }),
    )
    return () => offs.forEach((off) => off())
  }, [key, socket, queryClient])
}

/**
 * Every pair's tickers (/market/tickers) as the market lists show them, the
 * given pairs' kept live over the market socket (see {@link useLiveTickers}).
 * They are polled every 15 s only while the socket is down (slowly otherwise,
 * for the sparklines), and read again once it is back after a drop (pushes
 * missed meanwhile never arrive).
 */
export function useMarketTickers(symbols: string[], socket: MarketSocket = getMarketSocket()) {
  const live = useMarketSocketOpen(socket)
  useResyncAfterReconnect([marketTickersQuery.queryKey], socket)
  const tickers = useQuery({ ...marketTickersQuery, refetchInterval: live ? TICKERS_SLOW_POLL_MS : TICKERS_POLL_MS })
  useLiveTickers(symbols, socket)
  return tickers
}
