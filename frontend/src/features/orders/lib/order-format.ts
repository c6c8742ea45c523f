import type { SpotOrder, SpotPair } from '../api/orders-api'
import { ORDER_STATUS } from '../api/orders-api'
import { FEE_PLACES, formatDisplay, formatFee, groupThousands, isPositive } from '@/lib/decimal'

/** Display helpers of the orders pages. Amounts stay strings: no float ever touches them. */

const DECIMAL_RE = /^(-)?(\d*)(?:\.(\d*))?$/

/**
 * A decimal string for display with exactly `places` decimals, rounded half
 * up and grouped in thousands: the one display rule of the trade and orders
 * screens ({@link formatDisplay}), so a fill shows the same total on both.
 * Without places the value is shown as sent (grouped). Anything that is not
 * a plain decimal is shown as '—'.
 */
export function fixed(value: string | undefined, places: number | undefined): string {
  if (value === undefined || value.trim() === '') return '—'
  if (places !== undefined) return formatDisplay(value, places)
  const m = DECIMAL_RE.exec(value.trim())
  if (!m || (m[2] === '' && !m[3])) return '—'
  return groupThousands(value.trim())
}

export { FEE_PLACES, formatFee }

export { isPositive }

const pad = (n: number) => String(n).padStart(2, '0')

/** Unix ms -> local 'YYYY-MM-DD HH:mm:ss'. */
export function formatDateTime(ms: number | undefined): string {
  if (!ms) return '—'
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** True while an order can still be cancelled. */
export function isOpenOrder(o: Pick<SpotOrder, 'status'>): boolean {
  return o.status === ORDER_STATUS.NEW || o.status === ORDER_STATUS.PARTIALLY_FILLED
}

/**
 * The text key (under `status.`) of an order's status. A cancelled order
 * that had filled in part says so: its fills are real trades.
 */
export function statusKey(o: Pick<SpotOrder, 'status' | 'deal_volume'>): string {
  if (o.status === ORDER_STATUS.CANCELLED && isPositive(o.deal_volume)) return 'partCancelled'
  if (o.status >= ORDER_STATUS.NEW && o.status <= ORDER_STATUS.REJECTED) return String(o.status)
  return 'unknown'
}

/** Badge colour of a status: open blue, filled green, cancelled grey, rejected red. */
export function statusPalette(o: Pick<SpotOrder, 'status' | 'deal_volume'>): string {
  switch (statusKey(o)) {
    case '1':
      return 'blue'
    case '2':
    case 'partCancelled':
      return 'orange'
    case '3':
      return 'green'
    case '5':
      return 'red'
    default:
      return 'gray'
  }
}

/** The pair of a symbol, or a stand-in built from the symbol when the pair list is not there. */
export function pairOf(pairs: SpotPair[] | undefined, symbol: string): SpotPair {
  const found = pairs?.find((p) => p.symbol === symbol)
  if (found) return found
  const upper = symbol.toUpperCase()
  return { symbol, routeSymbol: upper, base: upper, quote: '', showName: upper }
}

/**
 * Decimal places of an amount in the quote coin (a total, a market buy's
 * budget): the quote coin's own places (MNT 2, USDT 6), not the price's (a
 * BTC/MNT price has none, its totals are tugriks with 2); the price's only
 * when the coin's are not known.
 */
export function quotePlaces(pair: Pick<SpotPair, 'quotePlaces' | 'pricePrecision'>): number | undefined {
  return pair.quotePlaces ?? pair.pricePrecision
}

/** An amount in the quote coin (a trade's or an order's total) at the quote coin's places. */
export function quoteAmount(value: string | undefined, pair: Pick<SpotPair, 'quotePlaces' | 'pricePrecision'>): string {
  return fixed(value, quotePlaces(pair))
}

/**
 * What an order asked for: its base amount, or for a market buy by quote
 * the quote budget with its coin.
 */
export function orderAmount(o: Pick<SpotOrder, 'volume' | 'quote_volume'>, pair: SpotPair): string {
  if (isPositive(o.volume)) return fixed(o.volume, pair.volumePlaces)
  if (isPositive(o.quote_volume)) return `${quoteAmount(o.quote_volume, pair)} ${pair.quote}`.trim()
  return '—'
}

/** An order's limit price, or undefined for a market order (the caller shows 'Market'). */
export function orderPrice(o: Pick<SpotOrder, 'price'>, pair: SpotPair): string | undefined {
  return isPositive(o.price) ? fixed(o.price, pair.pricePrecision) : undefined
}

/** The average price of what an order has traded, or '—' while nothing has. */
export function orderAvgPrice(o: Pick<SpotOrder, 'deal_volume' | 'avg_price'>, pair: SpotPair): string {
  return isPositive(o.deal_volume) ? fixed(o.avg_price, pair.pricePrecision) : '—'
}

/** The quote value of what an order has traded (at the quote coin's places), or '—' while nothing has. */
export function orderTotal(o: Pick<SpotOrder, 'deal_money'>, pair: SpotPair): string {
  return isPositive(o.deal_money) ? quoteAmount(o.deal_money, pair) : '—'
}

/** Text keys (under `reasons.`) of the engine's end reasons worth telling: why the exchange, not the user, ended an order. */
const END_REASONS: Record<string, string> = {
  post_only_would_take: 'post_only_would_take',
  fok_not_filled: 'fok_not_filled',
  ioc_remainder: 'ioc_remainder',
  stp: 'stp',
  dust: 'dust',
  below_min_notional: 'below_min_notional',
  below_min_qty: 'below_min_qty',
  stop_would_trigger: 'stop_would_trigger',
  invalid_price: 'price',
  price_off_tick: 'price',
  invalid_qty: 'amount',
  qty_off_lot: 'amount',
}

/**
 * The text key (under `reasons.`) of why a finished order was rejected or
 * cancelled by the exchange (a post-only that would have taken, a
 * fill-or-kill that could not fill, self-trade prevention ...), or
 * undefined for an open order, a fill, the user's own cancel and reasons
 * the status already says.
 */
export function endReasonKey(o: Pick<SpotOrder, 'status' | 'end_reason' | 'deal_volume'>): string | undefined {
  if (o.status !== ORDER_STATUS.CANCELLED && o.status !== ORDER_STATUS.REJECTED) return undefined
  // Dust is a rest below the pair's minimum amount once a part has filled (no order rests with one), and a market
  // buy's funds that could not buy a single lot when nothing has.
  if (o.end_reason === 'dust' && isPositive(o.deal_volume)) return 'dustRest'
  return o.end_reason ? END_REASONS[o.end_reason] : undefined
}
