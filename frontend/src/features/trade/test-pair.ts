import type { TradePair } from "./api/trade-api";

/** The seeded BTC/USDT pair as the trade page receives it (tests of the trade components). */
export const BTC_USDT: TradePair = {
  symbol: "btcusdt",
  routeSymbol: "BTC_USDT",
  showName: "BTC/USDT",
  base: "BTC",
  quote: "USDT",
  pricePrecision: 2,
  volumePrecision: 6,
  priceTick: "0.01",
  lotSize: "0.000001",
  minQty: "0.00001",
  minNotional: "5",
};
