/**
 * Order-form rules of the spot trade page (spec §9 spot order types): the
 * percentage slider, amount/total syncing and validation against the pair's
 * tick, lot, minimum quantity and minimum notional. Pure functions so they are
 * unit-tested without a browser.
 *
 * A market buy is entered either as a quote total to spend (quoteVolume) or
 * as a base amount to buy (volume). The server holds all of the user's
 * available quote coin for a buy by amount while it matches and releases
 * what it did not spend at once, so such a buy has no price to check a
 * balance against: it only needs some quote coin to spend.
 */
import {
  cmpDec,
  divDec,
  floorToStep,
  formatDec,
  mulDec,
  onStep,
  parseDec,
  placesOf,
  roundDec,
  subDec,
  type Dec,
} from '@/lib/decimal'
import { finishedNumber } from '@/lib/number-input'

// The number fields' input rules moved to '@/lib/number-input' (the spot and futures forms share them).
export { cleanNumberInput, finishedNumber, inputNoticeKey, type InputNotice } from '@/lib/number-input'

/** Order side. */
export type OrderSide = 'BUY' | 'SELL'

/** Spot order types accepted by /order/create. */
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'POST_ONLY', 'FOK', 'IOC', 'STOP_LIMIT'] as const
export type OrderType = (typeof ORDER_TYPES)[number]

/** Trading rules of a pair (from public_info_market). */
export interface PairRules {
  /** Lower-case id, e.g. btcusdt. */
  symbol: string
  base: string
  quote: string
  pricePrecision: number
  volumePrecision: number
  priceTick: string
  lotSize: string
  minQty: string
  minNotional: string
  /** Decimal places of the base coin's balances (the coin list's showPrecision), when known. */
  basePlaces?: number
  /** Decimal places of the quote coin's balances (the coin list's showPrecision: MNT 2, USDT 6), when known. */
  quotePlaces?: number
}

/** How a market buy is entered: the quote total to spend, or the base amount to buy. */
export type MarketBuyBy = 'total' | 'amount'

/** What the user typed. */
export interface OrderDraft {
  side: OrderSide
  type: OrderType
  price: string
  stopPrice: string
  amount: string
  /** Quote total; the input of a market buy by total. */
  total: string
  /** How a market buy is entered (default 'total'); other orders ignore it. */
  marketBy?: MarketBuyBy
}

/** A validation failure: the field it belongs to and a text key under form.errors. */
export interface OrderError {
  field: 'price' | 'stopPrice' | 'amount' | 'total'
  key: string
  vars?: Record<string, string>
}

/** The body of POST /fe-ex-api/order/create. */
export interface OrderRequest {
  symbol: string
  side: OrderSide
  type: OrderType
  price?: string
  volume?: string
  quoteVolume?: string
  stopPrice?: string
  /** The idempotency key: the same order sent again after no answer carries the same one, and is placed once. */
  clientOrderId?: string
}

/** True for types that carry a limit price. */
export function hasPrice(type: OrderType): boolean {
  return type !== 'MARKET'
}

/** True when the draft is entered as a quote total (a market buy by total). */
export function isQuoteEntry(d: Pick<OrderDraft, 'side' | 'type' | 'marketBy'>): boolean {
  return d.type === 'MARKET' && d.side === 'BUY' && d.marketBy !== 'amount'
}

/** True for a market buy entered as a base amount (sent as volume, without a price). */
export function isMarketBuyByAmount(d: Pick<OrderDraft, 'side' | 'type' | 'marketBy'>): boolean {
  return d.type === 'MARKET' && d.side === 'BUY' && d.marketBy === 'amount'
}

function step(places: number): Dec {
  return { units: 1n, scale: places }
}

/**
 * Places used to show and round quote totals: the quote coin's own places
 * (MNT 2, USDT 6) when known, not the price's (a BTC/MNT price has none,
 * its totals are tugriks with 2), but never finer than the engine's grid of
 * quote amounts (one tick × one lot), which refuses a market buy's total off
 * it. Without the coin's places, the price's.
 */
export function totalPlaces(rules: PairRules): number {
  if (rules.quotePlaces === undefined) return Math.max(rules.pricePrecision, placesOf(rules.priceTick))
  return Math.min(rules.quotePlaces, placesOf(rules.priceTick) + placesOf(rules.lotSize))
}

function amountPlaces(rules: PairRules): number {
  return Math.max(placesOf(rules.lotSize), 0)
}

/**
 * Decimal places of the available balance of the coin a side pays with: the
 * coin's own precision (the coin list's showPrecision: 2 for MNT, 6 for
 * USDT), or the pair's total or amount places when it is not known.
 */
export function availablePlaces(rules: PairRules, side: OrderSide): number {
  return side === 'BUY' ? (rules.quotePlaces ?? totalPlaces(rules)) : (rules.basePlaces ?? amountPlaces(rules))
}

/** amount × price, truncated to the total's places ('' when either is missing). */
export function totalFor(amount: string, price: string, rules: PairRules): string {
  const a = parseDec(amount)
  const p = parseDec(price)
  if (!a || !p) return ''
  return formatDec(mulDec(a, p), totalPlaces(rules))
}

/** total ÷ price floored to the lot grid ('' when either is missing or price is 0). */
export function amountFor(total: string, price: string, rules: PairRules): string {
  const t = parseDec(total)
  const p = parseDec(price)
  if (!t || !p) return ''
  const lot = parseDec(rules.lotSize) ?? step(rules.volumePrecision)
  const raw = divDec(t, p, amountPlaces(rules) + 2)
  if (!raw) return ''
  return formatDec(floorToStep(raw, lot), amountPlaces(rules))
}

/**
 * The percentage slider: pct (0..100) of the available balance. A buy spends
 * pct of the quote balance (amount floored to the lot at the given price; a
 * market buy fills the total only); a sell sells pct of the base balance.
 */
export function percentFill(
  pct: number,
  side: OrderSide,
  type: OrderType,
  available: string,
  price: string,
  rules: PairRules,
): { amount: string; total: string } {
  const avail = parseDec(available)
  if (!avail || avail.units <= 0n) return { amount: '', total: '' }
  const share = divDec(mulDec(avail, parseDec(String(Math.round(pct)))!), { units: 100n, scale: 0 }, avail.scale + 2)!
  const lot = parseDec(rules.lotSize) ?? step(rules.volumePrecision)
  if (side === 'BUY') {
    const total = formatDec(floorToStep(share, step(totalPlaces(rules))), totalPlaces(rules))
    if (type === 'MARKET') return { amount: '', total }
    const amount = amountFor(total, price, rules)
    return { amount, total: amount ? totalFor(amount, price, rules) : total }
  }
  const amount = formatDec(floorToStep(share, lot), amountPlaces(rules))
  return { amount, total: hasPrice(type) ? totalFor(amount, price, rules) : '' }
}

/**
 * The slider position (0..100, whole percent) of what the draft would spend:
 * the quote total of a buy (a market buy's total, a priced buy's amount ×
 * price) or the base amount of a sell, as a share of the available balance.
 * 0 without a balance or an amount, and for a market buy by amount (it has
 * no price to value the amount at); 100 at or above the balance (validation
 * says when it is too much).
 */
export function percentOfBalance(d: OrderDraft, available: string | undefined): number {
  const avail = parseDec(available)
  if (!avail || avail.units <= 0n || isMarketBuyByAmount(d)) return 0
  let spend: Dec | undefined
  if (d.side === 'SELL') spend = parseDec(d.amount)
  else if (isQuoteEntry(d)) spend = parseDec(d.total)
  else if (hasPrice(d.type)) {
    const amount = parseDec(d.amount)
    const price = parseDec(d.price)
    spend = amount && price ? mulDec(amount, price) : parseDec(d.total)
  }
  if (!spend || spend.units <= 0n) return 0
  if (cmpDec(spend, avail) >= 0) return 100
  // Per ten-thousand, then rounded to a whole percent.
  const bp = divDec(mulDec(spend, { units: 10000n, scale: 0 }), avail, 0)!.units
  return Math.min(100, Number((bp + 50n) / 100n))
}

/**
 * True when a stop-limit's stop is already reached by the last price: a buy
 * stop at or below it, a sell stop at or above it. The engine activates a
 * buy stop once the last price is at or above the stop and a sell stop once
 * it is at or below, and rejects a stop that would activate at once
 * (reason stop_would_trigger), so such an order is never worth sending.
 */
export function stopAlreadyReached(side: OrderSide, stopPrice: string, lastPrice: string | undefined): boolean {
  const stop = parseDec(stopPrice)
  const last = parseDec(lastPrice)
  if (!stop || stop.units <= 0n || !last || last.units <= 0n) return false
  return side === 'BUY' ? cmpDec(stop, last) <= 0 : cmpDec(stop, last) >= 0
}

/** Text keys (under form.errors) of a stop the last price has already reached. */
export const STOP_REACHED_KEYS = ['stopReachedBuy', 'stopReachedSell'] as const

/** The best prices of the pair's order book: the highest bid and the lowest ask, when the book has them. */
export interface BestPrices {
  bid?: string
  ask?: string
}

/**
 * The price a market order by amount (a sell, or a buy by amount) is valued
 * at: the best price on the other side of the book, the first it would fill
 * against (the best bid for a sell, the best ask for a buy). Undefined for
 * other orders and without such a price.
 */
export function marketValuePrice(d: Pick<OrderDraft, 'side' | 'type'>, best: BestPrices | undefined): Dec | undefined {
  if (d.type !== 'MARKET') return undefined
  const p = parseDec(d.side === 'SELL' ? best?.bid : best?.ask)
  return p && p.units > 0n ? p : undefined
}

/**
 * Validates a draft; returns every failure (empty when the order may be
 * sent). `lastPrice`, when known, is the pair's last traded price: a
 * stop-limit whose stop it has already reached is refused here, before the
 * server would reject it. `best`, when known, is the order book's best bid
 * and ask: a market order by amount (a sell, or a buy by amount) is valued
 * at the price it would first fill at, and refused below the pair's minimum
 * order value as a priced order is; without such a price its value is left
 * to the server.
 */
export function validateOrder(d: OrderDraft, rules: PairRules, available: string | undefined, lastPrice?: string, best?: BestPrices): OrderError[] {
  const errors: OrderError[] = []
  const tick = parseDec(rules.priceTick)
  const lot = parseDec(rules.lotSize)
  const price = parseDec(d.price)
  if (hasPrice(d.type)) {
    if (!price) errors.push({ field: 'price', key: 'priceRequired' })
    else if (price.units <= 0n) errors.push({ field: 'price', key: 'priceZero' })
    else if (tick && !onStep(price, tick)) errors.push({ field: 'price', key: 'priceTick', vars: { tick: rules.priceTick } })
  }
  if (d.type === 'STOP_LIMIT') {
    const stop = parseDec(d.stopPrice)
    if (!stop) errors.push({ field: 'stopPrice', key: 'stopRequired' })
    else if (stop.units <= 0n) errors.push({ field: 'stopPrice', key: 'stopZero' })
    else if (tick && !onStep(stop, tick)) errors.push({ field: 'stopPrice', key: 'priceTick', vars: { tick: rules.priceTick } })
    else if (stopAlreadyReached(d.side, d.stopPrice, lastPrice))
      errors.push({ field: 'stopPrice', key: d.side === 'BUY' ? 'stopReachedBuy' : 'stopReachedSell', vars: { last: lastPrice as string } })
  }
  const minNotional = parseDec(rules.minNotional)
  if (isQuoteEntry(d)) {
    const total = parseDec(d.total)
    if (!total) errors.push({ field: 'total', key: 'totalRequired' })
    else if (total.units <= 0n) errors.push({ field: 'total', key: 'totalZero' })
    else {
      if (minNotional && cmpDec(total, minNotional) < 0)
        errors.push({ field: 'total', key: 'minNotional', vars: { min: rules.minNotional, coin: rules.quote } })
      const avail = parseDec(available)
      if (avail && cmpDec(total, avail) > 0) errors.push({ field: 'total', key: 'insufficient' })
    }
    return errors
  }
  const amount = parseDec(d.amount)
  if (!amount || amount.units <= 0n) {
    // Zero is a number the user typed, not a missing one: it gets its own words.
    errors.push({ field: 'amount', key: amount ? 'amountZero' : 'amountRequired' })
    return errors
  }
  if (lot && !onStep(amount, lot)) errors.push({ field: 'amount', key: 'amountLot', vars: { lot: rules.lotSize } })
  const minQty = parseDec(rules.minQty)
  if (minQty && cmpDec(amount, minQty) < 0) errors.push({ field: 'amount', key: 'minQty', vars: { min: rules.minQty, coin: rules.base } })
  if (hasPrice(d.type) && price && price.units > 0n && minNotional && cmpDec(mulDec(amount, price), minNotional) < 0)
    errors.push({ field: 'total', key: 'minNotional', vars: { min: rules.minNotional, coin: rules.quote } })
  // A market order by amount has no total field: the message goes under its amount.
  const valuedAt = marketValuePrice(d, best)
  if (valuedAt && minNotional && cmpDec(mulDec(amount, valuedAt), minNotional) < 0)
    errors.push({ field: 'amount', key: 'minNotional', vars: { min: rules.minNotional, coin: rules.quote } })
  const avail = parseDec(available)
  if (avail && isMarketBuyByAmount(d)) {
    // Without a price the amount cannot be valued: the server holds
    // whatever quote coin there is, so only none at all is too little.
    if (avail.units <= 0n) errors.push({ field: 'amount', key: 'insufficient' })
  } else if (avail) {
    const need = d.side === 'SELL' ? amount : price && hasPrice(d.type) ? mulDec(amount, price) : undefined
    if (need && cmpDec(need, avail) > 0) errors.push({ field: d.side === 'SELL' ? 'amount' : 'total', key: 'insufficient' })
  }
  return errors
}

/** Builds the /order/create body of a valid draft (a market buy by amount sends volume, by total quoteVolume). */
export function buildOrderRequest(d: OrderDraft, rules: PairRules): OrderRequest {
  const req: OrderRequest = { symbol: rules.symbol, side: d.side, type: d.type }
  if (hasPrice(d.type)) req.price = finishedNumber(d.price)
  if (d.type === 'STOP_LIMIT') req.stopPrice = finishedNumber(d.stopPrice)
  if (isQuoteEntry(d)) req.quoteVolume = finishedNumber(d.total)
  else req.volume = finishedNumber(d.amount)
  return req
}

/** part ÷ whole in percent, rounded half up to 2 places ('1.52'). */
export function percentText(part: Dec, whole: Dec): string {
  const pct = divDec(mulDec(part, { units: 100n, scale: 0 }), whole, 6)!
  return formatDec(roundDec(pct, 2), 2)
}

/** A limit price further than this from the last price (a buy above, a sell below) is confirmed before it is sent. */
export const FAR_LIMIT_PERCENT = 5
/** A market order whose estimated average price is further than this from the best price is confirmed before it is sent. */
export const SLIPPAGE_PERCENT = 1

/** How far a limit price is from the last price against the order. */
export interface FarFromLast {
  /** 'above' for a buy priced above the last price, 'below' for a sell priced under it. */
  direction: 'above' | 'below'
  /** The distance in percent of the last price, 2 places ('6.25'). */
  percent: string
}

/**
 * A limit price more than `percent` % from the last price on the side that
 * costs the user (a buy above it, a sell below it), or undefined (within,
 * exactly `percent` % included, on the cheap side, or without both prices).
 * Compared exactly: 100 × price against (100 ± percent) × last.
 */
export function farFromLast(side: OrderSide, price: string, lastPrice: string | undefined, percent = FAR_LIMIT_PERCENT): FarFromLast | undefined {
  const p = parseDec(price)
  const last = parseDec(lastPrice)
  if (!p || p.units <= 0n || !last || last.units <= 0n) return undefined
  const bound = mulDec(last, parseDec(String(side === 'BUY' ? 100 + percent : 100 - percent))!)
  const scaled = mulDec(p, { units: 100n, scale: 0 })
  if (side === 'BUY' ? cmpDec(scaled, bound) <= 0 : cmpDec(scaled, bound) >= 0) return undefined
  return { direction: side === 'BUY' ? 'above' : 'below', percent: percentText(side === 'BUY' ? subDec(p, last) : subDec(last, p), last) }
}

/** The price protection of a market buy by amount: it spends at most its amount at the last price × this (the engine's MarketBuyBand). */
export const MARKET_BUY_BAND = '1.5'

/**
 * The quote coin a market buy by amount may spend (what the server holds
 * for it while it matches): the available balance, but at most the amount
 * at the last price plus 50 %. Without the last price, the balance;
 * undefined without a balance.
 */
export function marketBuyHold(amount: string, available: string | undefined, lastPrice: string | undefined): string | undefined {
  const avail = parseDec(available)
  if (!avail) return undefined
  const a = parseDec(amount)
  const last = parseDec(lastPrice)
  if (!a || !last || last.units <= 0n) return formatDec(avail, avail.scale)
  const most = mulDec(mulDec(a, last), parseDec(MARKET_BUY_BAND)!)
  const hold = cmpDec(most, avail) < 0 ? most : avail
  return formatDec(hold, hold.scale)
}
