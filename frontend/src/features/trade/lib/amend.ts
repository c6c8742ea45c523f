import { cmpDec, mulDec, onStep, parseDec, subDec } from '@/lib/decimal'
import type { PairRules } from './order-form'

/**
 * Reducing an open order's amount (/order/amend). The exchange keeps the
 * price and the order's place in the queue and releases what the smaller
 * order no longer holds. Its rules, checked here before anything is sent:
 * only a resting kind of order (limit, post-only, stop-limit) that is still
 * open; the new amount strictly below the current one and strictly above
 * what has filled (down to the filled part is a cancel); on the lot grid;
 * and what is left to fill (new amount minus filled) at least the pair's
 * minimum amount and, at the order's price, its minimum order value.
 */

/** The order kinds that rest in the book and so can be amended. */
export const AMENDABLE_TYPES = ['LIMIT', 'POST_ONLY', 'STOP_LIMIT'] as const

/** What an amend needs to know of an order. */
export interface AmendableOrder {
  type: string
  status: number
  price: string
  volume: string
  deal_volume: string
}

/** True for an open (new or part-filled) resting order with a base amount. */
export function canAmend(o: AmendableOrder): boolean {
  const volume = parseDec(o.volume)
  return (AMENDABLE_TYPES as readonly string[]).includes(o.type) && (o.status === 1 || o.status === 2) && !!volume && volume.units > 0n
}

/** Why a new amount cannot be sent: a text key (under amend.errors) and its values. */
export interface AmendError {
  key: 'required' | 'range' | 'lot' | 'minQty' | 'minNotional'
  vars?: Record<string, string>
}

/** The first rule the new amount breaks, or undefined when it may be sent. */
export function validateAmend(o: AmendableOrder, amount: string, rules: PairRules): AmendError | undefined {
  const next = parseDec(amount)
  if (!next || next.units <= 0n) return { key: 'required' }
  const volume = parseDec(o.volume) ?? { units: 0n, scale: 0 }
  const filled = parseDec(o.deal_volume) ?? { units: 0n, scale: 0 }
  if (cmpDec(next, volume) >= 0 || cmpDec(next, filled) <= 0) return { key: 'range', vars: { amount: o.volume, filled: o.deal_volume || '0' } }
  const lot = parseDec(rules.lotSize)
  if (lot && !onStep(next, lot)) return { key: 'lot', vars: { lot: rules.lotSize } }
  const rest = subDec(next, filled)
  const minQty = parseDec(rules.minQty)
  if (minQty && cmpDec(rest, minQty) < 0) return { key: 'minQty', vars: { min: rules.minQty, coin: rules.base } }
  const price = parseDec(o.price)
  const minNotional = parseDec(rules.minNotional)
  if (price && price.units > 0n && minNotional && cmpDec(mulDec(rest, price), minNotional) < 0)
    return { key: 'minNotional', vars: { min: rules.minNotional, coin: rules.quote } }
  return undefined
}
