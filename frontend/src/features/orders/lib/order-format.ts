import type { SpotOrder, SpotPair } from '../api/orders-api'
import { ORDER_STATUS } from '../api/orders-api'

/** Display helpers of the orders pages. Amounts stay strings: no float ever touches them. */

const DECIMAL_RE = /^(-)?(\d*)(?:\.(\d*))?$/

/**
 * A decimal string with exactly `places` decimals (padded, or cut towards
 * zero: the server's values already sit on the pair's grid). Anything that
 * is not a plain decimal is shown as '—'.
 */
export function fixed(value: string | undefined, places: number | undefined): string {
  if (value === undefined || value === '') return '—'
  const m = DECIMAL_RE.exec(value.trim())
  if (!m || (m[2] === '' && !m[3])) return '—'
  if (places === undefined) return value
  const int = (m[2] || '0').replace(/^0+(?=\d)/, '')
  const frac = (m[3] ?? '').padEnd(places, '0').slice(0, places)
  const neg = m[1] === '-' && /[1-9]/.test(int + frac)
  return `${neg ? '-' : ''}${int}${places > 0 ? `.${frac}` : ''}`
}

/** Decimal places of fees: the ledger keeps every coin's fees to 8 places. */
export const FEE_PLACES = 8

/**
 * A fee with its coin at the ledger's 8 places, so a column of fees lines up
 * ('0.0000003' -> '0.00000030 BTC'); '—' when there is none.
 */
export function formatFee(fee: string | undefined, coin: string | undefined): string {
  const text = fixed(fee, FEE_PLACES)
  return text === '—' ? text : `${text} ${coin ?? ''}`.trim()
}

/** True when a decimal string is greater than zero. */
export function isPositive(value: string | undefined): boolean {
  const m = value ? DECIMAL_RE.exec(value.trim()) : null
  return !!m && m[1] !== '-' && /[1-9]/.test(`${m[2]}${m[3] ?? ''}`)
}

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
 * What an order asked for: its base amount, or for a market buy by quote
 * the quote budget with its coin.
 */
export function orderAmount(o: SpotOrder, pair: SpotPair): string {
  if (isPositive(o.volume)) return fixed(o.volume, pair.volumePlaces)
  if (isPositive(o.quote_volume)) return `${fixed(o.quote_volume, pair.pricePrecision)} ${pair.quote}`.trim()
  return '—'
}

/** An order's limit price, or undefined for a market order (the caller shows 'Market'). */
export function orderPrice(o: SpotOrder, pair: SpotPair): string | undefined {
  return isPositive(o.price) ? fixed(o.price, pair.pricePrecision) : undefined
}
