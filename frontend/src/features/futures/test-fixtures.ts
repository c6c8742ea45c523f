import type { AccountView, Assets, ContractInfo, FuturesOrder, MarketInfo, PositionView, PublicInfo, Tier, TriggerOrder, UserConfig } from './api/futures-api'

/** The default BTCUSDT contract as /common/public_info answers it (internal/contracts defaults). */
export const BTCUSDT: ContractInfo = {
  id: 1,
  symbol: 'BTCUSDT',
  marketSymbol: 'btcusdtperp',
  base: 'BTC',
  quote: 'USDT',
  marginCoin: 'USDT',
  contractValue: '0.001',
  priceTick: '0.1',
  pricePrecision: 1,
  sizePrecision: 3,
  minQty: 1,
  maxOrderQty: 1000000,
  maxLeverage: 125,
  makerFee: '0.0002',
  takerFee: '0.0005',
  liquidationFee: '0.0125',
  fundingIntervalHours: 8,
  fundingCap: '0.003',
  interestRate: '0.0001',
  status: 'open',
}

export const ETHUSDT: ContractInfo = {
  ...BTCUSDT,
  id: 2,
  symbol: 'ETHUSDT',
  marketSymbol: 'ethusdtperp',
  base: 'ETH',
  contractValue: '0.01',
  priceTick: '0.01',
  pricePrecision: 2,
  sizePrecision: 2,
  maxLeverage: 100,
}

export const PUBLIC_INFO: PublicInfo = { contractList: [BTCUSDT, ETHUSDT], marginCoinList: ['USDT'], serverTime: 1_700_000_000_000 }

/** BTCUSDT's tiers (caps, rates and leverages of internal/contracts). */
export const BTC_TIERS: Tier[] = [
  { tier: 1, minNotional: '0', maxNotional: '50000', maintenanceRate: '0.004', maxLeverage: 125, cum: '0' },
  { tier: 2, minNotional: '50000', maxNotional: '250000', maintenanceRate: '0.005', maxLeverage: 100, cum: '50' },
  { tier: 3, minNotional: '250000', maxNotional: '3000000', maintenanceRate: '0.01', maxLeverage: 50, cum: '1300' },
  { tier: 4, minNotional: '3000000', maxNotional: '20000000', maintenanceRate: '0.025', maxLeverage: 20, cum: '46300' },
  { tier: 5, minNotional: '20000000', maxNotional: '50000000', maintenanceRate: '0.05', maxLeverage: 10, cum: '546300' },
]

export const MARKET: MarketInfo = {
  symbol: 'BTCUSDT',
  lastPrice: '50000.0',
  markPrice: '50010.0',
  indexPrice: '50005.0',
  fundingRate: '0.0001',
  lastFundingRate: '0.0001',
  nextFundingTime: 1_700_000_000_000 + 3_600_000,
  insuranceFund: '1000',
  openInterest: 1234,
  time: 1_700_000_000_000,
}

export const CONFIG: UserConfig = {
  symbol: 'BTCUSDT',
  leverage: 20,
  marginMode: 1,
  positionMode: 1,
  maxLeverage: 125,
  pageConfig: { orderConfirm: '0', closeConfirm: '1' },
  openContract: true,
}

export const ACCOUNT: AccountView = {
  coin: 'USDT',
  walletBalance: '1000',
  marginBalance: '1012.5',
  availableBalance: '100',
  positionMargin: '25',
  orderMargin: '0',
  unrealizedPnl: '12.5',
  maintenanceMargin: '2',
  marginRatio: '0.2',
}

export const LONG: PositionView = {
  symbol: 'BTCUSDT',
  contractId: 1,
  side: 'LONG',
  volume: 10,
  size: '0.010',
  openPrice: '48750.0',
  markPrice: '50000.0',
  notional: '500',
  liquidationPrice: '46500.5',
  margin: '25',
  leverage: 20,
  marginMode: 2,
  unrealizedPnl: '12.5',
  roe: '51.28',
  maintenanceMargin: '2',
  marginRatio: '5.2',
  adlLevel: 3,
  positionSide: 'BOTH',
}

export const SHORT: PositionView = {
  ...LONG,
  symbol: 'ETHUSDT',
  contractId: 2,
  side: 'SHORT',
  volume: 4,
  size: '0.04',
  openPrice: '3000.00',
  markPrice: '3100.00',
  notional: '124',
  liquidationPrice: '',
  margin: '6.2',
  marginMode: 1,
  unrealizedPnl: '-4',
  roe: '-64.5',
  marginRatio: '85',
  adlLevel: 0,
}

export const ASSETS: Assets = { accountList: [ACCOUNT], positionList: [LONG, SHORT] }

/** The user's settings in hedge position mode. */
export const HEDGE_CONFIG: UserConfig = { ...CONFIG, positionMode: 2 }

/** A hedge-mode long and short of BTCUSDT at once: two positions, two rows. */
export const HEDGE_LONG: PositionView = { ...LONG, positionSide: 'LONG' }
export const HEDGE_SHORT: PositionView = {
  ...LONG,
  side: 'SHORT',
  positionSide: 'SHORT',
  volume: 6,
  size: '0.006',
  openPrice: '51000.0',
  notional: '300',
  liquidationPrice: '53400.0',
  margin: '15',
  unrealizedPnl: '6',
  roe: '40',
  adlLevel: 2,
}

/** An open order as /order/current_order_list answers it. */
export function openOrder(over: Partial<FuturesOrder>): FuturesOrder {
  return {
    orderId: '7001',
    clientOid: '',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '49000.0',
    volume: 1,
    dealVolume: 0,
    avgPrice: '',
    fee: '0',
    realizedPnl: '0',
    reduceOnly: false,
    closePosition: false,
    liquidation: false,
    status: 'NEW',
    reason: '',
    positionSide: 'BOTH',
    ctime: 1_700_000_000_000,
    mtime: 1_700_000_000_000,
    ...over,
  }
}

/** A position's take-profit as /order/trigger_order_list answers it: closes it whole when the mark rises to 52,000; `over` changes it. */
export function positionTrigger(over: Partial<TriggerOrder> = {}): TriggerOrder {
  return {
    triggerId: '7',
    symbol: 'BTCUSDT',
    side: '',
    type: 'MARKET',
    price: '',
    volume: 0,
    triggerPrice: '52000.0',
    triggerBy: 'MARK',
    direction: 'RISE',
    closePosition: true,
    reduceOnly: true,
    status: 'NOT_TRIGGERED',
    reason: '',
    ctime: 1_700_000_000_000,
    mtime: 1_700_000_000_000,
    ...over,
  }
}
