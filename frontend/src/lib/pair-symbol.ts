/**
 * The server's pair symbol of any spelling of a pair: the route symbol
 * 'BTC_USDT', the name 'BTC/USDT' or 'btc-usdt' all give 'btcusdt' (the
 * catalogue's symbol, used in API calls, channels and maps keyed by pair).
 */
export function pairSymbol(symbol: string): string {
  return symbol.replace(/[/_-]/g, '').toLowerCase()
}
