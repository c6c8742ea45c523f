import { cmpDec, mulDec, parseDec, type Dec } from '@/lib/decimal'
import type { MarketPair } from '../api/get-market-overview'
import type { PairTicker } from '../api/get-market-tickers'
import type { RateTables } from '../api/get-rates'
import { toFiat, type FiatAmount } from './fiat'

/**
 * The market list's rows: each pair with its live figures, and the orders
 * the list can be sorted in (every numeric column, both ways).
 */

/** What one row shows. */
export interface MarketRow {
  pair: MarketPair
  /** Last price in the quote coin. */
  close?: string
  /** 24 h change ratio ('0.0123' = +1.23 %). */
  rose?: string
  high?: string
  low?: string
  /** 24 h volume in the quote coin. */
  amount?: string
  /** The last price in the chosen currency. */
  fiat?: FiatAmount
  /** The 24 h volume in the chosen currency (how volumes of different quote coins compare). */
  amountFiat?: Dec
  sparkline: number[]
}

/** The live ticker of a pair, keyed as the tickers are ('btcusdt'). */
export function tickerOf(pair: MarketPair, tickers: Record<string, PairTicker> | undefined): PairTicker | undefined {
  return tickers?.[`${pair.base}${pair.quote}`.toLowerCase()]
}

/** The rows of the shown pairs: live figures first, the overview's own price and change until they come. */
export function marketRows(
  pairs: MarketPair[],
  tickers: Record<string, PairTicker> | undefined,
  rates: RateTables | undefined,
  currency: string,
): MarketRow[] {
  return pairs.map((pair) => {
    const live = tickerOf(pair, tickers)
    const close = live?.close ?? pair.close
    const amount = live?.amount
    const amountRate = toFiat('1', pair.quote, currency, rates)
    const volume = parseDec(amount)
    return {
      pair,
      close,
      rose: live?.rose ?? pair.rose,
      high: live?.high,
      low: live?.low,
      amount,
      fiat: toFiat(close, pair.quote, currency, rates),
      amountFiat: volume && amountRate ? mulDec(volume, amountRate.value) : undefined,
      sparkline: live?.sparkline ?? [],
    }
  })
}

/** The sortable columns. */
export const SORT_KEYS = ['price', 'fiat', 'change', 'high', 'low', 'volume'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type SortDir = 'asc' | 'desc'

/** The order of the list; undefined is the server's order (each group's sort field). */
export interface MarketSort {
  key: SortKey
  dir: SortDir
}

/**
 * The order after a click on a column's header: a new column sorts high to
 * low first (the biggest movers and volumes on top), a second click
 * reverses it, a third returns to the server's order.
 */
export function nextSort(current: MarketSort | undefined, key: SortKey): MarketSort | undefined {
  if (current?.key !== key) return { key, dir: 'desc' }
  return current.dir === 'desc' ? { key, dir: 'asc' } : undefined
}

/**
 * A row's sort value: its rank (a lower rank comes first whichever way the
 * list is sorted) and the figure compared within the rank.
 */
function sortValue(row: MarketRow, key: SortKey): { rank: number; value?: Dec } {
  const figure = (text: string | undefined) => {
    const value = parseDec(text)
    return value ? { rank: 0, value } : { rank: 2 }
  }
  switch (key) {
    case 'price':
      return figure(row.close)
    case 'fiat':
      return row.fiat ? { rank: 0, value: row.fiat.value } : { rank: 2 }
    case 'change':
      return figure(row.rose)
    case 'high':
      return figure(row.high)
    case 'low':
      return figure(row.low)
    case 'volume':
      // Volumes in the chosen currency, so a USDT and an MNT pair (favourites, a search) compare;
      // without a rate of its quote coin, a pair's volume in that coin after them.
      if (row.amountFiat) return { rank: 0, value: row.amountFiat }
      return { ...figure(row.amount), rank: parseDec(row.amount) ? 1 : 2 }
  }
}

/**
 * The rows in the chosen order: by the column's figure, high to low or low
 * to high; rows without the figure (a pair that never traded) stay last
 * either way, and equal figures keep the server's order.
 */
export function sortRows(rows: MarketRow[], sort: MarketSort | undefined): MarketRow[] {
  if (!sort) return rows
  const sign = sort.dir === 'desc' ? -1 : 1
  const keyed = rows.map((row) => ({ row, ...sortValue(row, sort.key) }))
  keyed.sort((a, b) => a.rank - b.rank || (a.value && b.value ? sign * cmpDec(a.value, b.value) : 0))
  return keyed.map((k) => k.row)
}
