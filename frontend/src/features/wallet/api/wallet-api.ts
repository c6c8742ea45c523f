import { apiData, apiPost, type ApiEnvelope } from '@/lib/request-client'
import { joinAddressMemo, type RateTable } from '../lib/format'
import type { TransferAccount } from '../lib/search'

/**
 * The wallet's calls (spec §7 named operations, served at
 * /fe-ex-api/wallet/<operation>). Types follow the Go response structs of
 * internal/httpapi/{wallet,funds}_routes.go; amounts are decimal strings.
 */

const W = '/fe-ex-api/wallet/'
const op = (name: string) => `${W}${name}`

/** Query keys; everything under ['wallet'] is refreshed after a balance change. */
export const walletKeys = {
  all: ['wallet'] as const,
  rates: ['wallet', 'rates'] as const,
  overview: (currency: string) => ['wallet', 'overview', currency] as const,
  fiat: (currency: string) => ['wallet', 'fiat', currency] as const,
  cross: (currency: string) => ['wallet', 'cross', currency] as const,
  isolated: (currency: string) => ['wallet', 'isolated', currency] as const,
  otc: (currency: string) => ['wallet', 'otc', currency] as const,
  futures: (currency: string) => ['wallet', 'futures', currency] as const,
  futuresStats: ['wallet', 'futures-stats'] as const,
  earn: (currency: string) => ['wallet', 'earn', currency] as const,
  assets: (dir: 'deposit' | 'withdraw') => ['wallet', 'assets', dir] as const,
  // Outside ['wallet']: an address does not change with balances, so a balance refresh must not fetch it again.
  address: (symbol: string, chain: string) => ['deposit-address', symbol, chain] as const,
  bankBlock: ['wallet', 'bank-block'] as const,
  cost: (symbol: string, chain: string) => ['wallet', 'cost', symbol, chain] as const,
  banks: ['wallet', 'banks'] as const,
  payments: ['wallet', 'payments'] as const,
  addresses: (coin: string) => ['wallet', 'addresses', coin] as const,
  verifyAddress: ['wallet', 'verify-address'] as const,
  capital: ['wallet', 'capital'] as const,
  history: (kind: string, filter: unknown) => ['wallet', 'history', kind, filter] as const,
  transferCoins: (account: string, symbol: string) => ['wallet', 'transfer-coins', account, symbol] as const,
  marginList: (mode: number) => ['wallet', 'margin-list', mode] as const,
  marginInfo: (type: number, symbol: string) => ['wallet', 'margin-info', type, symbol] as const,
}

// ---- balances ---------------------------------------------------------------

export interface OverviewBalance {
  coinSymbol: string
  currency: string
  lang_logo: string
  balance: string
  balanceFiat: string
  savingsBalance: string
  savingsBalanceFiat: string
  futuresBalance: string
  futuresBalanceFiat: string
  leverBalance: string
  leverBalanceFiat: string
  otcBalance: string
  otcBalanceFiat: string
  totalbalance: string
  totalbalanceFiat: string
}

export interface SpotRow {
  coin: string
  name: string
  total: string
  normal: string
  freeze: string
  overcharge_balance: string
  valuation: string
  btcValuation: string
  icon: string
  longName: string
  showName: string
  showPrecision: number
  mainChainName: string
  depositOpen: boolean
  withdrawOpen: boolean
  isFiat: boolean
}

export interface AccountBalance {
  totalBalance: string
  totalBalanceSymbol: string
  totalValuation: string
  currency: string
  lang_logo: string
  coinList: SpotRow[]
}

export interface CrossCoin {
  coinSymbol: string
  icon: string
  totalBalance: string
  normalBalance: string
  lockBalance: string
  borrowBalance: string
  interest: string
  netAssetBalance: string
  u_netAssetBalanceValue: string
  returnPrecision: number
}

export interface CrossBalance {
  coinList: CrossCoin[]
  totalBalance: string
  totalBalanceSymbol: string
  netAssetBalance: string
  totalBorrowBalance: string
  totalBalanceFiat: string
  riskRate: string
  remindRiskRate: string
  lang_logo: string
}

export interface IsolatedPair {
  symbol: string
  name: string
  baseCoin: string
  quoteCoin: string
  riskRate: string
  multiple: number
  baseTotalBalance: string
  baseNormalBalance: string
  baseBorrowBalance: string
  baseInterest: string
  baseNetAssetBalance: string
  quoteTotalBalance: string
  quoteNormalBalance: string
  quoteBorrowBalance: string
  quoteInterest: string
  quoteNetAssetBalance: string
  netAssetBalance: string
  canLiquidate: boolean
}

export interface IsolatedBalance {
  list: IsolatedPair[]
  totalBalance: string
  totalBalanceSymbol: string
  netAssetBalance: string
  totalBorrowBalance: string
  totalBalanceFiat: string
  lang_logo: string
}

export interface OTCCoin {
  coinSymbol: string
  name: string
  icon: string
  normal: string
  lock: string
  total: string
  exchangeNormal: string
  btcValuation: string
}

export interface OTCAccount {
  totalBalance: string
  totalBalanceSymbol: string
  totalBalanceFiat: string
  lang_logo: string
  coinList: OTCCoin[]
}

export interface FuturesAccount {
  symbol: string
  name: string
  icon: string
  canUseAmount: string
  totalAmount: string
  totalMargin: string
  isolateMargin: string
  lockAmount: string
  exchangeNormal: string
}

export interface FuturesBalance {
  totalBalance: string
  totalBalanceSymbol: string
  totalBalanceFiat: string
  lang_logo: string
  accountList: FuturesAccount[]
}

export interface FuturesStats {
  coinSymbol: string
  startDate: string
  endDate: string
  lastDayAmount: string
  lastRealizedAmountRate: string
}

export interface EarnCoin {
  coinSymbol: string
  icon: string
  autoStatus: number
  balance: string
  yearRate: string
  totalInterest: string
}

export interface EarnBalance {
  totalBalance: string
  totalBalanceSymbol: string
  totalBalanceFiat: string
  interestSymbol: string
  interestYesterday: string
  interest30days: string
  lang_logo: string
  coinList: EarnCoin[]
}

export const getRates = () => apiData<Record<string, RateTable>>(op('rateData'), {}, { silent: true })
export const getOverview = (currency: string) =>
  apiData<OverviewBalance>(op('get_overview_balance'), { coinSymbol: 'BTC', currency }, { silent: true })
export const getSpotBalances = (currency: string) =>
  apiData<AccountBalance>(op('account_balance'), { currency }, { silent: true })
export const getCrossBalance = (currency: string) =>
  apiData<CrossBalance>(op('get_margin_cross_balance'), { currency }, { silent: true })
export const getIsolatedBalance = (currency: string) =>
  apiData<IsolatedBalance>(op('get_margin_isolated_balance'), { currency }, { silent: true })
export const getOtcAccount = (currency: string) =>
  apiData<OTCAccount>(op('otc_account_list'), { currency }, { silent: true })
export const getFuturesBalance = (currency: string) =>
  apiData<FuturesBalance>(op('get_futures_balance'), { onlyAccount: 0, currency }, { silent: true })
export const getEarnBalance = (currency: string) =>
  apiData<EarnBalance>(op('get_earn_balance'), { currency }, { silent: true })

/** Statistics window of spec §9: from 7 days back to 1 day back. */
export function statisticsWindow(now = new Date()): { startDate: string; endDate: string } {
  const day = (offset: number) => {
    const d = new Date(now.getTime() - offset * 86_400_000)
    const p = (n: number) => String(n).padStart(2, '0')
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`
  }
  return { startDate: day(7), endDate: day(1) }
}

export const getFuturesStats = () =>
  apiData<FuturesStats>(op('get_futures_balance_statistics'), { ...statisticsWindow(), coinSymbol: 'USDT' }, { silent: true })

// ---- deposit / withdraw modals -----------------------------------------------

export interface ChainEntry {
  name: string
  mainChainName: string
  tagType: number
  /** The smallest deposit credited on the chain ('0': any); a smaller one is not credited. */
  depositMin: string
  /** Confirmations a deposit needs before it is credited (0 on the bank rail). */
  confirmations: number
  /** Expected seconds from a deposit's transfer until it is credited; 0 when not known. */
  arrivalSeconds: number
}

export interface AssetEntry {
  value: string
  label: string
  img: string
  code: string
  fix: number
  normal_balance: string
  totalBalance: string
  lockBalance: string
  chains: ChainEntry[]
  trustType: string
  isFiat: boolean
  depositOpen: boolean
  withdrawOpen: boolean
}

/**
 * The name the user reads for an asset of the modals: its showName (label),
 * which is MNT for the fiat whose withdraw code (value) is MONT (spec §4); the
 * calls keep sending the value.
 */
export function assetName(a: Pick<AssetEntry, 'value' | 'label' | 'code'>): string {
  return a.label || a.code || a.value
}

export interface BankBlock {
  bankName: string
  bankNameEn: string
  accountNo: string
  recipient: string
  recipientEn: string
  transactionValue: string
}

export interface DepositAddress {
  coin: string
  chain: string
  addressLong: string
  addressStr: string
  memo: string
  shortAddress: string
  addressQRCode: string
  tagType: number
  bank?: BankBlock
}

export interface WithdrawAddressEntry {
  id: string
  address: string
  label: string
  trustType: string
}

export interface WithdrawCost {
  coin: string
  chain: string
  feeMin: string
  feeMax: string
  defaultFee: string
  withdraw_min: string
  withdraw_max: string
  can_withdraw_amount: string
  left_withdraw_daily_amount: string
  /** The rest of the 24-hour limit in the coin itself, as the submit values it; '' when the coin has no price. */
  left_withdraw_daily_coin_amount: string
  total_withdraw_daily_max_limit: string
  used_withdraw_daily_amount: string
  mainChainNameTip: string
  tagType: number
  precision: number
  userWithdrawAddrList: WithdrawAddressEntry[]
  verifyAddress: boolean
  withdrawLockedUntil?: number
  needEmailCode: boolean
  needSmsCode: boolean
  needGoogleCode: boolean
}

export interface SubmitResult {
  id: string
  status: string
  url: string
}

export const getAssets = (dir: 'deposit' | 'withdraw') =>
  apiData<{ list: AssetEntry[] }>(op(dir === 'deposit' ? 'recharge_list' : 'withdraw_coin_list'), {}, { silent: true }).then(
    (d) => d.list ?? [],
  )

/** The deposit address; resolves the envelope so a non-zero code's message can replace the address (spec §8). */
export const getChargeAddress = (symbol: string, chain: string) =>
  apiPost<DepositAddress>(op('get_charge_address'), { symbol, chain }, { silent: true })

export const getBankBlock = () => apiData<BankBlock>(op('bank_deposit_info'), {}, { silent: true })

export const getCost = (symbol: string, chain: string) => apiData<WithdrawCost>(op('get_cost'), { symbol, chain })

export const validateWithdrawAddress = (coinSymbol: string, chain: string, address: string) =>
  apiPost(op('validate_withdraw_address'), { coinSymbol, chain, address }, { silent: true })

export interface ConfirmWithdrawInput {
  address: string
  addressId?: string
  memo?: string
  fee: string
  amount: string
  symbol: string
  trustType: string
  emailCode?: string
  smsValidCode?: string
  googleCode?: string
  requestId: string
}

export const confirmWithdraw = (input: ConfirmWithdrawInput) =>
  apiPost<SubmitResult>(op('confirm_withdraw'), { ...input }, { silent: true })

export interface BankWithdrawInput {
  userId: string
  amount: string
  bankAccName: string
  bankAccNo: string
  bankName: string
  bankAccountId: string
  code: string
  emailCode?: string
  smsValidCode?: string
  googleCode?: string
  requestId: string
}

/** The bank withdrawal (spec §7: the bank service's /v2/withdraw-req). */
export const bankWithdraw = (input: BankWithdrawInput) =>
  apiPost<SubmitResult>(op('bank_withdraw'), { ...input }, { silent: true })

// ---- codes ----------------------------------------------------------------------

/** Operation types of the code requests (spec §7). */
export const OP = {
  withdrawSms: 10,
  withdrawEmail: 17,
  addBankSms: 28,
  tradePassword: 6,
  other: 11,
} as const

export const sendSms = (operationType: number) =>
  apiPost('/fe-ex-api/v4/common/smsValidCode', { smsType: '0', operationType })
export const sendEmail = (operationType: number) =>
  apiPost('/fe-ex-api/v4/common/emailValidCode', { operationType: String(operationType) })

// ---- history ---------------------------------------------------------------------

export interface DepositRecord {
  id: string
  coin: string
  chain: string
  txid: string
  address: string
  memo?: string
  amount: string
  confirmations: number
  requiredConfirmations: number
  /** below_min: smaller than the chain's minimum deposit, not credited. */
  status: 'confirming' | 'credited' | 'review' | 'below_min' | string
  createTime: number
  creditTime?: number
  /** The transaction on the chain's block explorer (none for a bank deposit). */
  explorerUrl?: string
}

export interface WithdrawRecord {
  id: string
  kind: 'chain' | 'bank' | string
  coin: string
  chain: string
  address: string
  memo?: string
  amount: string
  fee: string
  net: string
  status: string
  txid?: string
  bankName?: string
  /** The bank's Mongolian name, as the account had it (records from before it was kept have none). */
  bankNameMn?: string
  bankAccNo?: string
  url?: string
  reason?: string
  createTime: number
  updateTime: number
  /** The sent transaction on the chain's block explorer (once it has a txid). */
  explorerUrl?: string
}

export interface TransferRecord {
  id: string
  type: string
  coinSymbol: string
  amount: string
  fromAccount: string
  toAccount: string
  fromAccountName: string
  toAccountName: string
  symbol: string
  status: string
  ctime: number
}

export interface Page<T> {
  list: T[]
  count: number
  page: number
  pageSize: number
}

export interface HistoryFilter {
  coinSymbol?: string
  status?: string
  type?: string
  startTime?: number
  endTime?: number
  page: number
  pageSize: number
}

export const getDepositHistory = (f: HistoryFilter) =>
  apiData<Page<DepositRecord>>(op('deposit_history'), { ...f }, { silent: true })
export const getWithdrawHistory = (f: HistoryFilter) =>
  apiData<Page<WithdrawRecord>>(op('withdraw_history'), { ...f }, { silent: true })
export const getTransferHistory = (f: HistoryFilter) =>
  apiData<Page<TransferRecord>>(op('transfer_list'), { ...f }, { silent: true })

// ---- transfers -------------------------------------------------------------------

export { TRANSFER_ACCOUNTS, type TransferAccount } from '../lib/search'

export interface TransferCoin {
  coin: string
  showName: string
  icon: string
  normal: string
  targetNormal: string
  precision: number
}

export interface MarginListItem {
  name: string
  symbol: string
  showBaseCoin: string
  showQuoteCoin: string
  symbolName: string
  coinSymbol: string
  icon: string
}

export const getTransferCoins = (account: TransferAccount, symbol = '') =>
  apiData<{ account: string; list: TransferCoin[] }>(op('get_transfer_coin_list'), { account, symbol }, { silent: true })

export const getMarginCoinList = (mode: 1 | 2) =>
  apiData<{ coinLists: MarginListItem[] }>(op('get_margin_coin_list'), { mode }, { silent: true })

/** One transfer call: chooses the operation and payload of spec §4 for the account and direction. */
export interface TransferRequest {
  account: TransferAccount
  /** 1: from spot to the account; 2: the reverse (spec §4). */
  direction: 1 | 2
  coin: string
  amount: string
  /** Isolated margin pair. */
  symbol?: string
  requestId: string
}

/** The operation and body of a transfer (exported for tests). */
export function transferCall(r: TransferRequest): { path: string; body: Record<string, unknown> } {
  const base = { amount: r.amount, coinSymbol: r.coin, requestId: r.requestId }
  switch (r.account) {
    case 'otc':
      return {
        path: op('otc_transfer'),
        body: { ...base, fromAccount: r.direction === 1 ? 1 : 2, toAccount: r.direction === 1 ? 2 : 1 },
      }
    case 'futures':
      return { path: op(r.direction === 1 ? 'futures_to_contract' : 'futures_to_account'), body: base }
    case 'margin_isolated':
      return { path: op('margin_transfer'), body: { ...base, transferType: r.direction === 1 ? 1 : 2, symbol: r.symbol } }
    case 'margin_cross':
      return { path: op('margin_transfer'), body: { ...base, transferType: r.direction === 1 ? 3 : 4, symbol: r.coin } }
  }
}

export function transfer(r: TransferRequest): Promise<ApiEnvelope<TransferRecord>> {
  const { path, body } = transferCall(r)
  // Failures show the server's message in the global error toast (spec §8); the modal stays open.
  return apiPost<TransferRecord>(path, body)
}

// ---- address book and bank accounts ------------------------------------------------

export interface SavedAddress {
  id: string
  coinSymbol: string
  chain: string
  trustType: string
  address: string
  memo: string
  addressStr: string
  shortAddress: string
  label: string
  ctime: number
}

export interface AddAddressInput {
  address: string
  coinSymbol: string
  chain: string
  trustType: string
  label: string
  memo: string
  smsValidCode?: string
  googleCode?: string
  verify: 0 | 1
}

export const getAddressList = (coinSymbol = '') =>
  apiData<{ list: SavedAddress[] }>(op('withdraw_address_list'), { coinSymbol }, { silent: true }).then((d) => d.list ?? [])

export const addWithdrawAddress = (input: AddAddressInput) =>
  // Spec §7: the memo is appended to the address after an underscore.
  apiPost<SavedAddress>(op('add_withdraw_address'), {
    ...input,
    address: joinAddressMemo(input.address, input.memo),
    memo: undefined,
  })

export const deleteWithdrawAddress = (id: string) => apiPost(op('delete_withdraw_address'), { id })

export const getVerifyAddress = () =>
  apiData<{ open: number }>(op('get_verify_address'), {}, { silent: true }).then((d) => d.open === 1)

export interface BankAccount {
  id: string
  title: string
  /** The bank's Mongolian name ("" when the bank left the payment list). */
  titleMn?: string
  account: string
  userName: string
  icon: string
  payment: string
}

export interface PaymentOption {
  id: string
  payment: string
  title: string
  titleMn: string
  icon: string
}

export const getBankAccounts = () =>
  apiData<BankAccount[]>(op('fiat_user_bank_list'), {}, { silent: true }).then((d) => d ?? [])
export const getPaymentList = () =>
  apiData<{ allPaymentList: PaymentOption[] }>(op('payment_list'), {}, { silent: true }).then((d) => d.allPaymentList ?? [])

export interface AddBankInput {
  account: string
  payment: string
  userName: string
  smsAuthCode?: string
  googleCode?: string
}

export const addBankAccount = (input: AddBankInput) => apiPost<BankAccount>(op('fiat_user_bank_add'), { ...input })

// ---- trade password -----------------------------------------------------------------

export interface CapitalStatus {
  isCapitalPwordSet: number
  withdrawLockedUntil: number
  lockSeconds: number
  setAt: number
}

export const getCapitalStatus = () => apiData<CapitalStatus>(op('capital_password_status'), {}, { silent: true })

export interface CapitalInput {
  newCapitalPwd: string
  confirmCapitalPwd: string
  smsAuthCode?: string
  emailCode?: string
  googleCode?: string
}

export const setCapitalPassword = (input: CapitalInput) =>
  apiPost<CapitalStatus>(op('capital_password_reset'), { ...input })


/** A bank's name in the app's language: the Mongolian one in mn_MN when the server has it. */
export function bankTitle(b: Pick<BankAccount, 'title' | 'titleMn'>, lan: string): string {
  return lan === 'mn_MN' && b.titleMn ? b.titleMn : b.title
}

/**
 * The bank of a withdrawal record in the app's language. The record keeps
 * the bank's name as the account had it (the payment list's title); the
 * payment list entry of that title gives the Mongolian name through
 * {@link bankTitle}. A bank no longer on the list keeps the recorded name.
 */
export function recordBankTitle(bankName: string, payments: Pick<PaymentOption, 'title' | 'titleMn'>[] | undefined, lan: string): string {
  const name = bankName.trim()
  const entry = (payments ?? []).find((p) => p.title.trim().toLowerCase() === name.toLowerCase())
  return bankTitle(entry ?? { title: name }, lan)
}
