import { cmpDec, parseDec } from '@/lib/decimal'

/**
 * The stop of a stop-limit order as the order lists show it. The matching
 * engine activates a buy stop once the last price is at or above the stop
 * and a sell stop once it is at or below (internal/matching, stopReached);
 * until then the order waits outside the book.
 */

/** The fields of an order (trade page or orders page) that tell about its stop. */
export interface StopOrderFields {
  type: string
  side: string
  status: number
  stop_price?: string
  deal_volume?: string
  /** Whether the stop has been reached: the server sends it for STOP_LIMIT orders. */
  triggered?: boolean
}

/** Whether an open stop-limit order still waits for its stop ('waiting') or is in the book ('triggered'). */
export type StopState = 'waiting' | 'triggered'

/** The comparison that activates the stop: '≥' for a buy, '≤' for a sell. */
export function stopOperator(side: string): '≥' | '≤' {
  return side === 'SELL' ? '≤' : '≥'
}

/** True when the order carries a stop price worth showing. */
export function hasStop(o: Pick<StopOrderFields, 'stop_price'>): boolean {
  const stop = parseDec(o.stop_price)
  return !!stop && stop.units > 0n
}

/**
 * The state of an open order's stop, or undefined when there is none to tell
 * (not a stop order, finished, or nothing known). A `triggered` flag of the
 * server wins (it sends one for every STOP_LIMIT order); without it (an
 * older answer) an order that has traded has triggered, and otherwise the
 * last price tells: at or past the stop the engine has activated it.
 */
export function stopState(o: StopOrderFields, lastPrice: string | undefined): StopState | undefined {
  if (!hasStop(o) || (o.status !== 1 && o.status !== 2)) return undefined
  if (typeof o.triggered === 'boolean') return o.triggered ? 'triggered' : 'waiting'
  const dealt = parseDec(o.deal_volume)
  if (dealt && dealt.units > 0n) return 'triggered'
  const last = parseDec(lastPrice)
  const stop = parseDec(o.stop_price)!
  if (!last || last.units <= 0n) return undefined
  const reached = o.side === 'SELL' ? cmpDec(last, stop) <= 0 : cmpDec(last, stop) >= 0
  return reached ? 'triggered' : 'waiting'
}
