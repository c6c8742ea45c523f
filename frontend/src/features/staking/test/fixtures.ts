import type { StakeView, StakingProject } from '../api/staking-api'

/** The dev products' shapes (the server's project_list), for the staking tests. */
export const USDT_90: StakingProject = {
  id: 'usdt-90',
  showName: 'USDT 90-day staking',
  coinSymbol: 'USDT',
  logo: '',
  termDays: 90,
  apr: '10.00',
  payout: 'daily',
  minAmount: '10.000000',
  maxPerUser: '100000.000000',
  totalCap: '10000000.000000',
  staked: '2500000.000000',
  remaining: '7500000.000000',
  precision: 6,
  open: true,
}

export const ETH_60: StakingProject = {
  ...USDT_90,
  id: 'eth-60',
  showName: 'ETH 60-day staking',
  coinSymbol: 'ETH',
  termDays: 60,
  apr: '4.50',
  minAmount: '0.01000000',
  maxPerUser: '',
  totalCap: '',
  staked: '1.50000000',
  remaining: '',
  precision: 8,
  open: false,
}

export function stake(over: Partial<StakeView> = {}): StakeView {
  return {
    id: 'k1',
    projectId: 'usdt-90',
    showName: 'USDT 90-day staking',
    coinSymbol: 'USDT',
    amount: '100.000000',
    apr: '10.00',
    termDays: 90,
    payout: 'daily',
    startDate: '2026-12-08',
    endDate: '2027-03-07',
    status: 'locked',
    rewardsPaid: '0.082191',
    rewardsAccrued: '0.000000',
    rewardsExpected: '2.465730',
    redeemNow: '99.917809',
    ctime: Date.parse('2026-12-07T10:00:00Z'),
    ...over,
  }
}

/** The spot account's answer with `normal` of a coin available. */
export function spot(coin: string, normal: string, showPrecision = 6) {
  return {
    totalBalance: '0',
    totalBalanceSymbol: 'BTC',
    totalValuation: '0',
    currency: 'USD',
    lang_logo: '$',
    coinList: [{ coin, name: coin, total: normal, normal, freeze: '0', showPrecision, icon: '', longName: coin }],
  }
}
