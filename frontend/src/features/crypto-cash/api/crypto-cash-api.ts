import { queryOptions } from '@tanstack/react-query'
import { apiData, apiPost, type ApiEnvelope } from '@/lib/request-client'

/**
 * Crypto-backed loans, "crypto cash" (spec §2 crypto cash page, §4 loan
 * labels, §7 the increment service's /noToken/borrow/get_base_config,
 * getMortgageSymbolList, calculate_inerest_mortgage, /borrow/mortgage_borrow,
 * /borrow/get_borrow_order_list, repay and adjust_collateral; §9 loan terms
 * 7, 14, 30, 90 days). The shapes are the server's (internal/earn
 * loan.go): amounts and prices are decimal strings, rates in percent per
 * hour, LTVs in the settings as fractions and on a loan in percent.
 */

const INC = '/fe-increment-api'

/** The loan terms in days (spec §9). */
export const LOAN_TERMS = [7, 14, 30, 90] as const
export type LoanTerm = (typeof LOAN_TERMS)[number]

/** A coin that can be borrowed, with its rate per term. */
export interface LoanCoin {
  coin: string
  /** Interest per hour in percent, by term in days ('7', '14', '30', '90'). */
  hourlyRates: Record<string, string>
  minAmount: string
  maxAmount: string
}

/** The operator's loan settings. */
export interface LoanConfig {
  loanCoins: LoanCoin[]
  collaterals: string[]
  /** Fractions: a loan opens (and collateral comes back) up to initialLTV; marginCallLTV warns; liquidationLTV liquidates. */
  initialLTV: string
  marginCallLTV: string
  liquidationLTV: string
  /** Hours after the due time a loan may still be repaid, at overdueMultiplier × the rate. */
  graceHours: number
  overdueMultiplier: string
  /** Part of a liquidation's proceeds kept as a fee (fraction). */
  liquidationFee: string
}

/** A collateral coin with its index price in each loan coin. */
export interface CollateralPrice {
  coin: string
  icon: string
  prices: Record<string, string>
}

/** A loan worked out before it is taken. */
export interface LoanQuote {
  coin: string
  amount: string
  termDays: number
  /** Percent per hour. */
  hourlyRate: string
  /** Interest over the whole term. */
  interest: string
  collateralCoin: string
  /** The collateral's index price in the loan coin. */
  price: string
  /** The least collateral, at the initial LTV. */
  requiredCollateral: string
  /** With the required collateral, the price at which it would be liquidated. */
  liquidationPrice: string
}

/** A loan's status (spec §4 loan labels). */
export type LoanStatus = 'pending_repayment' | 'liquidating' | 'repaid' | 'liquidated'

/** One of the caller's loans. */
export interface LoanView {
  id: string
  coin: string
  /** Principal borrowed. */
  borrowed: string
  /** Principal owed now. */
  principal: string
  /** Interest owed now. */
  interest: string
  /** Principal + interest owed. */
  debt: string
  repaidPrincipal: string
  repaidInterest: string
  collateralCoin: string
  collateral: string
  termDays: number
  /** Percent per hour. */
  hourlyRate: string
  /** Hourly × 24 × 365, percent. */
  yearRate: string
  ctime: number
  /** Unix ms; after it the rate is multiplied for the grace period. */
  dueTime: number
  status: LoanStatus
  /** (principal + interest) ÷ collateral at the index price, percent; '' once closed. */
  ltv: string
  /** The LTV reached the margin-call LTV. */
  marginCall: boolean
  /** The collateral's price (in the loan coin) at which the loan is liquidated; '' once closed. */
  liquidationPrice: string
  overdue: boolean
  /** Liquidated: the collateral sold, what the sale brought and the fee. */
  soldCollateral?: string
  proceeds?: string
  liquidationFee?: string
}

/** Query keys; everything under ['loans', 'mine'] is refreshed after a loan operation. */
export const loanKeys = {
  all: ['loans'] as const,
  config: ['loans', 'config'] as const,
  prices: ['loans', 'prices'] as const,
  quote: (coin: string, amount: string, collateral: string, term: number) => ['loans', 'quote', coin, amount, collateral, term] as const,
  mine: ['loans', 'mine'] as const,
}

/** The loan settings (public). */
export const loanConfigQuery = queryOptions({
  queryKey: loanKeys.config,
  queryFn: ({ signal }) => apiData<LoanConfig>(`${INC}/noToken/borrow/get_base_config`, {}, { silent: true, signal }),
})

/** The collateral coins with their index prices (public); prices move, so it is read again every 15 s. */
export const collateralPricesQuery = queryOptions({
  queryKey: loanKeys.prices,
  queryFn: ({ signal }) => apiData<CollateralPrice[]>(`${INC}/getMortgageSymbolList`, {}, { silent: true, signal }).then((l) => l ?? []),
  refetchInterval: 15_000,
})

/** A loan worked out (public): the term's interest, the collateral it needs, the liquidation price. */
export const loanQuoteQuery = (coin: string, amount: string, collateralCoin: string, term: number) =>
  queryOptions({
    queryKey: loanKeys.quote(coin, amount, collateralCoin, term),
    queryFn: ({ signal }) =>
      apiData<LoanQuote>(`${INC}/calculate_inerest_mortgage`, { coin, amount, collateralCoin, term }, { silent: true, signal }),
    staleTime: 5_000,
  })

/** The signed-in caller's loans, newest first. */
export const loansQuery = queryOptions({
  queryKey: loanKeys.mine,
  queryFn: ({ signal }) => apiData<LoanView[]>(`${INC}/borrow/get_borrow_order_list`, {}, { silent: true, signal }).then((l) => l ?? []),
})

/** What a loan names. */
export interface BorrowInput {
  coin: string
  amount: string
  collateralCoin: string
  collateralAmount: string
  term: number
  requestId: string
}

/** mortgage_borrow: the collateral from spot, the loan into spot, within the initial LTV. A refusal has had its toast. */
export const borrow = (input: BorrowInput): Promise<ApiEnvelope<LoanView>> => apiPost<LoanView>(`${INC}/borrow/mortgage_borrow`, { ...input })

/** /borrow/repay: interest first; an amount above the debt pays the debt; in full the collateral returns. */
export const repayLoan = (id: string, amount: string, requestId: string): Promise<ApiEnvelope<LoanView>> =>
  apiPost<LoanView>(`${INC}/borrow/repay`, { id, amount, requestId })

/** Collateral added from spot, or taken back to spot within the initial LTV. */
export type CollateralChange = 'add' | 'remove'

/** /borrow/adjust_collateral: type 1 adds from spot, type 2 takes back. */
export const adjustCollateral = (id: string, amount: string, change: CollateralChange, requestId: string): Promise<ApiEnvelope<LoanView>> =>
  apiPost<LoanView>(`${INC}/borrow/adjust_collateral`, { id, amount, type: change === 'add' ? 1 : 2, requestId })
