/**
 * The futures order form's rules, apart from React: what was typed, its
 * validation against the contract (the price on the tick, whole contracts
 * of at least the minimum and at most the order limit, enough available
 * margin, a reduce-only order no larger than what it can close) and the
 * /order/order_create body. Errors are text keys under form.errors of the
 * futures texts.
 */
import { cmpDec, onStep, parseDec } from '@/lib/decimal'
import type { ContractInfo, FuturesOrderType, OrderCreate, OrderSide, PositionSide, TimeInForce } from '../api/futures-api'
import { closesPosition } from './hedge'

/** What the user typed. */
export interface FuturesDraft {
  side: OrderSide
  type: FuturesOrderType
  price: string
  /** Contracts, as typed. */
  volume: string
  timeInForce: TimeInForce
  reduceOnly: boolean
  /**
   * Hedge mode: the position the order opens or closes (with the side:
   * BUY+LONG opens a long, SELL+LONG closes it). A closing one is reduce-only
   * by nature and is sent without reduceOnly; absent in one-way mode.
   */
  positionSide?: PositionSide
}

/** A validation failure: its field and a text key under form.errors. */
export interface DraftError {
  field: 'price' | 'volume'
  key: string
  vars?: Record<string, string>
}

/** What validation knows besides the draft: the order's cost and what it may use. */
export interface DraftContext {
  /** The order's cost (initial margin + fee), when known. */
  cost?: string
  /** The futures account's available balance, when known. */
  available?: string
  /** Contracts a reduce-only order can close, when known. */
  closable?: number
}

/** A whole number of contracts as typed ('12'), or undefined for anything else ('', '1.5', '1e3'). */
export function wholeContracts(volume: string): number | undefined {
  const v = volume.trim()
  if (!/^\d+$/.test(v)) return undefined
  const n = Number(v)
  return Number.isSafeInteger(n) ? n : undefined
}

/** Validates a draft against the contract; every failure, empty when it may be sent. */
export function validateDraft(d: FuturesDraft, c: Pick<ContractInfo, 'priceTick' | 'minQty' | 'maxOrderQty'>, ctx: DraftContext = {}): DraftError[] {
  const errors: DraftError[] = []
  if (d.type === 'LIMIT') {
    const price = parseDec(d.price)
    const tick = parseDec(c.priceTick)
    if (!price) errors.push({ field: 'price', key: 'priceRequired' })
    else if (price.units <= 0n) errors.push({ field: 'price', key: 'priceZero' })
    else if (tick && tick.units > 0n && !onStep(price, tick)) errors.push({ field: 'price', key: 'priceTick', vars: { tick: c.priceTick } })
  }
  const typed = d.volume.trim()
  if (typed === '') {
    errors.push({ field: 'volume', key: 'volumeRequired' })
    return errors
  }
  const n = wholeContracts(typed)
  if (n === undefined) {
    errors.push({ field: 'volume', key: 'volumeWhole' })
    return errors
  }
  if (n <= 0) errors.push({ field: 'volume', key: 'volumeZero' })
  else if (n < c.minQty) errors.push({ field: 'volume', key: 'volumeMin', vars: { min: String(c.minQty) } })
  else if (c.maxOrderQty > 0 && n > c.maxOrderQty) errors.push({ field: 'volume', key: 'volumeMax', vars: { max: String(c.maxOrderQty) } })
  else if (d.positionSide && closesPosition(d.side, d.positionSide)) {
    if (ctx.closable !== undefined && n > ctx.closable) errors.push({ field: 'volume', key: ctx.closable > 0 ? 'closeTooLarge' : 'closeNothing', vars: { max: String(ctx.closable) } })
  } else if (d.reduceOnly) {
    if (ctx.closable !== undefined && n > ctx.closable) errors.push({ field: 'volume', key: ctx.closable > 0 ? 'reduceOnlyTooLarge' : 'reduceOnlyNothing', vars: { max: String(ctx.closable) } })
  } else {
    const cost = parseDec(ctx.cost)
    const avail = parseDec(ctx.available)
    if (cost && avail && cmpDec(cost, avail) > 0) errors.push({ field: 'volume', key: 'insufficient' })
  }
  return errors
}

/** The text key (futures texts) of a validation failure: a hedge-mode close's under positionMode.errors, the others under form.errors. */
export function draftErrorKey(e: Pick<DraftError, 'key'>): string {
  return e.key === 'closeTooLarge' || e.key === 'closeNothing' ? `positionMode.errors.${e.key}` : `form.errors.${e.key}`
}

/** A typed number without the point it may end on while typing ("12." is 12). */
function finished(value: string): string {
  return value.endsWith('.') ? value.slice(0, -1) : value
}

/**
 * The /order/order_create body of a valid draft (a market order carries no
 * price and no time in force; a hedge-mode order its positionSide and no
 * reduceOnly).
 */
export function buildOrder(d: FuturesDraft, symbol: string, clientOid?: string): OrderCreate {
  const req: OrderCreate = { symbol, side: d.side, type: d.type, volume: wholeContracts(d.volume) ?? 0 }
  if (d.positionSide) req.positionSide = d.positionSide
  else req.reduceOnly = d.reduceOnly
  if (d.type === 'LIMIT') {
    req.price = finished(d.price.trim())
    req.timeInForce = d.timeInForce
  }
  if (clientOid) req.clientOid = clientOid
  return req
}

/**
 * The price a market order is valued at for its cost and maximum: the best
 * price on the other side of the book (the best ask for a buy, the best bid
 * for a sell), else the last price, else the mark price.
 */
export function marketReferencePrice(side: OrderSide, best: { bid?: string; ask?: string } | undefined, last?: string, mark?: string): string | undefined {
  const candidates = [side === 'BUY' ? best?.ask : best?.bid, last, mark]
  return candidates.find((p) => {
    const d = parseDec(p)
    return !!d && d.units > 0n
  })
}

/** The side that closes a position: a long closes by selling, a short by buying. */
export function closingSide(side: 'LONG' | 'SHORT'): OrderSide {
  return side === 'LONG' ? 'SELL' : 'BUY'
}
