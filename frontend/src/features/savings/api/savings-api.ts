import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { apiData, apiPost, type ApiEnvelope } from '@/lib/request-client'

/**
 * Flexible savings (spec §3 "Earn" and "Savings project", §4 "Savings
 * subscription", §7 get_project_list, confirm_subscription,
 * confirm_auto_sub, savings/release, the increment service's
 * /noToken/savings/projectPage and /savings/*). The shapes are the server's
 * (internal/earn views.go, ops.go, records.go; internal/httpapi
 * earn_routes.go): amounts and rates are decimal strings, rates in percent.
 */

const W = '/fe-ex-api/wallet/'
const INC = '/fe-increment-api'

/** How a product's `rate` is quoted (spec §9: savings interest periods). */
export type RatePeriod = 'daily' | 'weekly' | 'monthly' | 'yearly'

/** One tier of a tiered product: the part of a balance up to `upTo` earns `rate`. */
export interface ProjectTier {
  /** Coin amount; '' for the last tier (the rest). */
  upTo: string
  /** Percent per period. */
  rate: string
  /** Percent per year, 2 decimals. */
  yearRate: string
}

/** A savings product (spec §3 savings project: id, showName, coinSymbol, logo; with its rates and limits). */
export interface Project {
  id: string
  showName: string
  coinSymbol: string
  logo: string
  period: RatePeriod
  /** Percent per period (the first tier's when tiered). */
  rate: string
  /** Percent per year (the first tier's), 2 decimals. */
  yearRate: string
  /** Empty when the product is not tiered. */
  tiers: ProjectTier[]
  minAmount: string
  /** '' when there is no cap per user. */
  maxPerUser: string
  /** Decimals of an amount of the coin. */
  precision: number
  /** Takes new subscriptions (redemptions always are). */
  open: boolean
}

/** A user's position in a product (/savings/holdings: every product, held or not). */
export interface Holding extends Project {
  /** Held in the product, interest paid included. */
  amount: string
  /** The part earning today. */
  earning: string
  /** Subscribed today: earns from the next UTC day. */
  pending: string
  redeemable: string
  /** Asked for standard redemption: paid out with the next day's settlement. */
  redeeming: string
  /** UTC date (YYYY-MM-DD) a standard redemption reaches spot; '' when none waits. */
  redeemArriveDate: string
  /** The earn service's UTC date (YYYY-MM-DD). */
  today?: string
  /** UTC date (YYYY-MM-DD) a standard redemption asked now reaches spot. */
  standardArriveDate?: string
  totalInterest: string
  interestYesterday: string
  /** 1 when auto-subscribe is on. */
  autoStatus: number
  /** What today earns on what earns now (paid after the day ends). */
  estimatedInterestToday: string
}

/** What a subscription or redemption did. */
export interface OpResult {
  id: string
  /** subscribe, fast or standard. */
  kind: string
  projectId: string
  coinSymbol: string
  amount: string
  status: string
  /** Standard redemption: the UTC date it reaches the spot account. */
  arriveDate?: string
  ctime: number
  /** The request id was seen before: this is the first answer again. */
  replayed: boolean
}

/** Finance record types (/savings/records). */
export const RECORD_TYPES = ['subscribe', 'redeem_fast', 'redeem_standard', 'interest', 'payout'] as const
export type RecordType = (typeof RECORD_TYPES)[number]

/** One finance record. */
export interface SavingsRecord {
  id: string
  type: RecordType
  projectId: string
  coinSymbol: string
  amount: string
  /** The UTC day it belongs to (interest: the day it was earned). */
  date: string
  /** Unix ms. */
  ctime: number
}

/** A page of records, newest first. */
export interface RecordPage {
  list: SavingsRecord[]
  count: number
  /** Cursor of the next page; '' on the last. */
  next: string
}

/** Redemption types: fast into spot now (today's interest on it lost), standard with the next UTC day's settlement. */
export type RedeemType = 'fast' | 'standard'

/** Records per page of the records list. */
export const RECORD_PAGE_SIZE = 20
/** Interest records the chart reads (at most one a day per product, so about three months). */
export const CHART_RECORDS = 100

/**
 * Query keys. Everything personal is under ['savings', 'mine'] (refreshed
 * after a subscription or redemption, with the wallet's ['wallet']).
 */
export const savingsKeys = {
  all: ['savings'] as const,
  projects: ['savings', 'projects'] as const,
  mine: ['savings', 'mine'] as const,
  holdings: ['savings', 'mine', 'holdings'] as const,
  records: (type: string) => ['savings', 'mine', 'records', type] as const,
  interest: ['savings', 'mine', 'interest'] as const,
}

/** The products (public). */
export const projectsQuery = queryOptions({
  queryKey: savingsKeys.projects,
  queryFn: ({ signal }) =>
    apiData<{ list: Project[]; count: number }>(`${INC}/noToken/savings/projectPage`, {}, { silent: true, signal }).then((d) => d.list ?? []),
})

/** The signed-in user's position in every product. */
export const holdingsQuery = queryOptions({
  queryKey: savingsKeys.holdings,
  queryFn: ({ signal }) => apiData<Holding[]>(`${INC}/savings/holdings`, {}, { silent: true, signal }),
})

/** The finance records of a type ('' for all), a page at a time through the server's cursor. */
export const recordsQuery = (type: RecordType | '') =>
  infiniteQueryOptions({
    queryKey: savingsKeys.records(type),
    queryFn: ({ pageParam, signal }) =>
      apiData<RecordPage>(
        `${INC}/savings/records`,
        { ...(type ? { type } : {}), cursor: pageParam, pageSize: RECORD_PAGE_SIZE },
        { silent: true, signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next || undefined,
  })

/** The latest interest records, for the chart of interest per day. */
export const interestQuery = queryOptions({
  queryKey: savingsKeys.interest,
  queryFn: ({ signal }) =>
    apiData<RecordPage>(`${INC}/savings/records`, { type: 'interest', pageSize: CHART_RECORDS }, { silent: true, signal }).then((d) => d.list),
})

/** What a subscription names. */
export interface SubscribeInput {
  projectId: string
  coinSymbol: string
  amount: string
  /** Idempotency key: the same request sent again subscribes once. */
  requestId: string
}

/**
 * confirm_subscription: the amount from the spot account into the product
 * (it earns from the next UTC day). A refusal has had its toast with the
 * server's words (spec §8); the dialog also shows it as its result, "Failed"
 * with the code and message.
 */
export const confirmSubscription = (input: SubscribeInput): Promise<ApiEnvelope<OpResult>> =>
  apiPost<OpResult>(`${W}confirm_subscription`, { ...input })

/** confirm_auto_sub: auto-subscribe on (type 1) or off (0). */
export const confirmAutoSub = (projectId: string, coinSymbol: string, on: boolean): Promise<ApiEnvelope<null>> =>
  apiPost<null>(`${W}confirm_auto_sub`, { projectId, coinSymbol, type: on ? 1 : 0 })

/** What a redemption names. */
export interface RedeemInput {
  projectId: string
  coinSymbol: string
  amount: string
  type: RedeemType
  requestId: string
}

/** savings/release: fast or standard; a refusal has had its toast with the server's words. */
export const redeemSavings = (input: RedeemInput): Promise<ApiEnvelope<OpResult>> => apiPost<OpResult>(`${W}savings/release`, { ...input })
