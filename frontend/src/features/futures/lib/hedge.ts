/**
 * Hedge position mode, apart from React. In hedge mode a user may hold a
 * long and a short of one contract at once; every order names the position
 * it is for (positionSide LONG or SHORT) and, with its side, opens or closes
 * it: BUY+LONG opens a long, SELL+SHORT a short, SELL+LONG closes the long,
 * BUY+SHORT the short. In one-way mode (positionSide BOTH, or absent) the
 * side alone decides, as before.
 */
import type { FuturesOrder, OrderSide, PositionSide, PositionSideOf, PositionView, UserConfig } from '../api/futures-api'
import { POSITION_HEDGE } from '../api/futures-api'
import type { Exposure } from './margin'

/** True when the user's settings are in hedge mode. */
export function isHedge(config: Pick<UserConfig, 'positionMode'> | undefined): boolean {
  return config?.positionMode === POSITION_HEDGE
}

/** LONG or SHORT when a record is of a hedge-mode position; undefined in one-way mode (BOTH or absent). */
export function hedgeSideOf(x: { positionSide?: PositionSideOf | '' } | undefined): PositionSide | undefined {
  return x?.positionSide === 'LONG' || x?.positionSide === 'SHORT' ? x.positionSide : undefined
}

/** Open or close, in hedge mode. */
export type HedgeIntent = 'open' | 'close'

/** The position a hedge-mode order is for: a buy opens a long and closes a short; a sell the reverse. */
export function hedgePositionSide(side: OrderSide, intent: HedgeIntent): PositionSide {
  return (side === 'BUY') === (intent === 'open') ? 'LONG' : 'SHORT'
}

/** Whether an order of a side closes its position (SELL+LONG, BUY+SHORT). */
export function closesPosition(side: OrderSide | '', positionSide: PositionSide): boolean {
  return (side === 'SELL' && positionSide === 'LONG') || (side === 'BUY' && positionSide === 'SHORT')
}

/**
 * The words of a hedge-mode order's side: a text key (futures texts) of
 * "Open long", "Close long", "Open short" or "Close short"; undefined for a
 * one-way order (Buy or Sell as before).
 */
export function hedgeActionKey(o: { side: OrderSide | ''; positionSide?: PositionSideOf | '' }): string | undefined {
  const ps = hedgeSideOf(o)
  if (!ps || (o.side !== 'BUY' && o.side !== 'SELL')) return undefined
  const close = closesPosition(o.side, ps)
  return `positionMode.actions.${close ? 'close' : 'open'}${ps === 'LONG' ? 'Long' : 'Short'}`
}

/** The user's hedge-mode position of one side of a contract, if any. */
export function hedgePosition(positions: readonly PositionView[] | undefined, symbol: string, positionSide: PositionSide): PositionView | undefined {
  return positions?.find((p) => p.symbol === symbol && p.volume > 0 && (hedgeSideOf(p) ?? p.side) === positionSide)
}

/** Unfilled contracts of the user's open orders on a contract with this side and position side. */
export function openOf(orders: readonly FuturesOrder[] | undefined, symbol: string, side: OrderSide, positionSide: PositionSide): number {
  let n = 0
  for (const o of orders ?? []) {
    if (o.symbol === symbol && o.side === side && hedgeSideOf(o) === positionSide) n += Math.max(0, (o.volume ?? 0) - (o.dealVolume ?? 0))
  }
  return n
}

/**
 * What a hedge-mode order of a side and position side needs to know for
 * its cost and maximum (margin.ts): the position of that side only (long
 * positive, short negative) and the same orders already open. An opening
 * order has nothing to close; a closing order closes at most the position
 * less what that side's open closing orders already cover.
 */
export function hedgeExposure(
  positions: readonly PositionView[] | undefined,
  orders: readonly FuturesOrder[] | undefined,
  symbol: string,
  side: OrderSide,
  positionSide: PositionSide,
): Exposure {
  const volume = hedgePosition(positions, symbol, positionSide)?.volume ?? 0
  return { position: positionSide === 'LONG' ? volume : -volume, openSameSide: openOf(orders, symbol, side, positionSide) }
}

/** Contracts a closing order can still close of a hedge-mode position (its size less its open closing orders). */
export function hedgeClosable(p: Pick<PositionView, 'symbol' | 'volume'> & { side: PositionSide }, orders: readonly FuturesOrder[] | undefined): number {
  const closing: OrderSide = p.side === 'LONG' ? 'SELL' : 'BUY'
  return Math.max(0, p.volume - openOf(orders, p.symbol, closing, p.side))
}
