/**
 * A position's take-profit and stop-loss (TP/SL), apart from React. They
 * are trigger orders that close the whole position (condition_create with
 * closePosition): the server arms one to fire when the watched price (mark
 * or last) rises to its trigger price if that is above the price now, or
 * falls to it if below. So a long's take-profit must be above the price
 * now and its stop-loss below; a short's the reverse. Errors are text keys
 * under tpsl.errors of the futures texts. Amounts are exact decimals.
 */
import { cmpDec, formatDec, mulDec, onStep, parseDec, subDec } from '@/lib/decimal'
import type { OrderSide, PositionSide, PositionSideOf, TriggerBy, TriggerCreate, TriggerDirection, TriggerOrder } from '../api/futures-api'
import { hedgeSideOf } from './hedge'

/** Take-profit or stop-loss. */
export type TpslKind = 'tp' | 'sl'
export const TPSL_KINDS: readonly TpslKind[] = ['tp', 'sl']

/** The position an order opens or adds to: a buy a long, a sell a short. */
export function positionSideOf(side: OrderSide): PositionSide {
  return side === 'BUY' ? 'LONG' : 'SHORT'
}

/** The way the price must go for a TP or SL to fire: a long's TP on a rise and SL on a fall, a short's the reverse. */
export function tpslDirection(side: PositionSide, kind: TpslKind): TriggerDirection {
  return (side === 'LONG') === (kind === 'tp') ? 'RISE' : 'FALL'
}

/** A position as its TP/SL know it: a hedge-mode one also by its positionSide. */
export interface TpslPosition {
  symbol: string
  side: PositionSide
  positionSide?: PositionSideOf
}

/**
 * Which of a position's TP or SL a trigger order is; undefined when it is
 * not one (another contract, not closing the position, no longer waiting,
 * or of the other side of a hedge-mode contract).
 */
export function tpslKindOf(trigger: Pick<TriggerOrder, 'symbol' | 'closePosition' | 'status' | 'direction' | 'positionSide'>, position: TpslPosition): TpslKind | undefined {
  if (!trigger.closePosition || trigger.symbol !== position.symbol || trigger.status !== 'NOT_TRIGGERED') return undefined
  if (hedgeSideOf(position) && hedgeSideOf(trigger) !== hedgeSideOf(position)) return undefined
  return trigger.direction === tpslDirection(position.side, 'tp') ? 'tp' : 'sl'
}

/** A position's waiting take-profits and stop-losses, in the list's order (newest first). */
export function positionTpsl(triggers: readonly TriggerOrder[] | undefined, position: TpslPosition): Record<TpslKind, TriggerOrder[]> {
  const out: Record<TpslKind, TriggerOrder[]> = { tp: [], sl: [] }
  for (const t of triggers ?? []) {
    const kind = tpslKindOf(t, position)
    if (kind) out[kind].push(t)
  }
  return out
}

/** A TP/SL price that cannot be sent: a text key under tpsl.errors and its values. */
export interface TpslError {
  key: string
  vars?: Record<string, string>
}

/** What a TP/SL price is checked against. */
export interface TpslCheck {
  kind: TpslKind
  side: PositionSide
  /** As typed; '' means none (nothing to check). */
  price: string
  priceTick: string
  /** The watched price now (the mark for MARK, the last for LAST). */
  reference?: string
  triggerBy: TriggerBy
  /** An order's price (a limit order's TP/SL must also be on the right side of it). */
  orderPrice?: string
}

/**
 * Checks a TP/SL price: above 0, on the tick, and on the side it fires
 * from, of the watched price now and of the order's price when there is
 * one. Undefined when it may be sent (or is empty).
 */
export function validateTpsl(c: TpslCheck): TpslError | undefined {
  const typed = c.price.trim()
  if (typed === '') return undefined
  const p = parseDec(typed)
  if (!p) return { key: 'invalid' }
  if (p.units <= 0n) return { key: 'zero' }
  const tick = parseDec(c.priceTick)
  if (tick && tick.units > 0n && !onStep(p, tick)) return { key: 'tick', vars: { tick: c.priceTick } }
  const rise = tpslDirection(c.side, c.kind) === 'RISE'
  const wrongSide = (ref: string | undefined) => {
    const r = parseDec(ref)
    if (!r || r.units <= 0n) return false
    const cmp = cmpDec(p, r)
    return rise ? cmp <= 0 : cmp >= 0
  }
  const dir = rise ? 'above' : 'below'
  if (wrongSide(c.reference)) return { key: `${dir}${c.triggerBy === 'LAST' ? 'Last' : 'Mark'}`, vars: { price: c.reference! } }
  if (wrongSide(c.orderPrice)) return { key: `${dir}Order`, vars: { price: c.orderPrice! } }
  return undefined
}

/**
 * The PnL of closing a position at a price, before fees: (exit − entry) ×
 * contracts × contract value for a long, the reverse for a short; an exact
 * decimal string, or undefined without the numbers.
 */
export function estimatePnl(p: { side: PositionSide; entry: string | undefined; exit: string | undefined; volume: number; contractValue: string }): string | undefined {
  const entry = parseDec(p.entry)
  const exit = parseDec(p.exit)
  const cv = parseDec(p.contractValue)
  if (!entry || !exit || !cv || entry.units <= 0n || exit.units <= 0n || !Number.isSafeInteger(p.volume) || p.volume <= 0) return undefined
  const diff = p.side === 'LONG' ? subDec(exit, entry) : subDec(entry, exit)
  const d = mulDec(mulDec(diff, { units: BigInt(p.volume), scale: 0 }), cv)
  return formatDec(d, d.scale)
}

/**
 * The condition_create body of a position's TP or SL at a (valid) price. In
 * hedge mode it names the position (`positionSide`) and the side that
 * closes it (a long's: SELL, LONG); in one-way mode neither.
 */
export function tpslRequest(symbol: string, price: string, triggerBy: TriggerBy, positionSide?: PositionSide, parentOrderId?: string): TriggerCreate {
  const typed = price.trim()
  const req: TriggerCreate = { symbol, triggerPrice: typed.endsWith('.') ? typed.slice(0, -1) : typed, triggerBy, closePosition: true }
  if (parentOrderId) req.parentOrderId = parentOrderId
  if (positionSide) {
    req.side = positionSide === 'LONG' ? 'SELL' : 'BUY'
    req.positionSide = positionSide
  }
  return req
}

/** What saving a TP or SL does: arm the new price (if any), then disarm the ones it replaces. */
export interface TpslChange {
  kind: TpslKind
  /** The new trigger price ('' when the field was emptied). */
  price: string
  cancel: TriggerOrder[]
}

/**
 * The changes of a TP/SL form against the position's waiting ones: a price
 * typed where there was none, or another price or watched price than the
 * current one's, arms it and replaces the current; an emptied field cancels
 * the current. The same price left as it was changes nothing.
 */
export function tpslChanges(typed: Record<TpslKind, string>, by: TriggerBy, current: Record<TpslKind, TriggerOrder[]>): TpslChange[] {
  const out: TpslChange[] = []
  for (const kind of TPSL_KINDS) {
    const price = typed[kind].trim()
    const now = current[kind]
    if (price === '') {
      if (now.length > 0) out.push({ kind, price: '', cancel: now })
      continue
    }
    const p = parseDec(price)
    const first = now[0]
    const same = !!first && now.length === 1 && first.triggerBy === by && !!p && cmpDec(p, parseDec(first.triggerPrice) ?? { units: -1n, scale: 0 }) === 0
    if (!same) out.push({ kind, price, cancel: now })
  }
  return out
}
