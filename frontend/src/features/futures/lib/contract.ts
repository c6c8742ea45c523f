/**
 * A futures contract as the screens use it: its route symbol, and its shape
 * as a "pair" for the spot page's market data components (chart, book,
 * trades, depth), which read the contract's market symbol from the futures
 * service with sizes in the base coin.
 */
import type { TradePair } from '@/features/trade/api/trade-api'
import type { ContractInfo } from '../api/futures-api'

/** The contract the menus open first. */
export const DEFAULT_CONTRACT = 'BTCUSDT'

/**
 * The contract as a TradePair of the spot components: the market symbol
 * (btcusdtperp), the base and quote coins, the price grid, and sizes in the
 * base coin at the contract's size precision (the market data's amounts are
 * contracts × contract value). The lot is one contract.
 */
export function contractPair(c: ContractInfo): TradePair {
  return {
    symbol: c.marketSymbol,
    routeSymbol: c.symbol,
    showName: c.symbol,
    base: c.base,
    quote: c.quote,
    pricePrecision: c.pricePrecision,
    volumePrecision: c.sizePrecision,
    priceTick: c.priceTick,
    lotSize: c.contractValue,
    minQty: c.contractValue,
    minNotional: '0',
  }
}
