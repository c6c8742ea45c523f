import { infiniteQueryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'

/**
 * The finance and staking records (spec §2 orders pages: "finance/staking
 * records"): every money event of the user's savings, stakes, launchpad
 * commitments and crypto loans, newest first, from the increment service's
 * /increment/records (the same list as /savings/records), and the loan
 * record lists of /borrow/*_record_list. The shapes are the server's
 * (internal/earn records.go).
 */

const INC = '/fe-increment-api'

/** The record types by product, in the order the filter shows them. */
export const RECORD_GROUPS = {
  savings: ['subscribe', 'redeem_fast', 'redeem_standard', 'interest', 'payout'],
  staking: ['stake', 'stake_reward', 'stake_release', 'stake_redeem'],
  launchpad: ['launchpad_commit', 'launchpad_tokens'],
  loans: ['loan_open', 'loan_repay', 'loan_collateral', 'loan_liquidation'],
} as const

/** A product group of record types. */
export type RecordGroup = keyof typeof RECORD_GROUPS
/** A record type. */
export type EarnRecordType = (typeof RECORD_GROUPS)[RecordGroup][number]

/** Every record type. */
export const RECORD_TYPES: readonly EarnRecordType[] = Object.values(RECORD_GROUPS).flat()

/** The product group of a record type (undefined for a type this build does not know). */
export function groupOf(type: string): RecordGroup | undefined {
  return (Object.keys(RECORD_GROUPS) as RecordGroup[]).find((g) => (RECORD_GROUPS[g] as readonly string[]).includes(type))
}

/** One record. */
export interface EarnRecord {
  id: string
  type: EarnRecordType
  /** The product, sale or loan it belongs to. */
  projectId: string
  coinSymbol: string
  /** Signed: a collateral change taken back is negative. */
  amount: string
  /** The UTC day it belongs to (a reward: the day it was earned). */
  date: string
  /** Unix ms. */
  ctime: number
}

/** A page of records, newest first. */
export interface EarnRecordPage {
  list: EarnRecord[]
  count: number
  /** Cursor of the next page; '' on the last. */
  next: string
}

/** Records per page. */
export const RECORDS_PAGE_SIZE = 20

/** The loan record lists (crypto cash's tabs). */
export const LOAN_RECORD_LISTS = {
  repay: 'get_return_record_list',
  collateral: 'get_change_rate_record_list',
  liquidation: 'get_close_position_record_list',
} as const
export type LoanRecordList = keyof typeof LOAN_RECORD_LISTS

/**
 * Query keys: everything under ['earn-records'] is refreshed after a stake,
 * a commitment or a loan operation moves money.
 */
export const earnRecordsKeys = {
  all: ['earn-records'] as const,
  list: (type: string, coin: string) => ['earn-records', 'all', type, coin] as const,
  loans: (list: LoanRecordList) => ['earn-records', 'loans', list] as const,
}

/** The records of a type and a coin ('' for all), a page at a time through the server's cursor. */
export const earnRecordsQuery = (type: EarnRecordType | '', coin: string) =>
  infiniteQueryOptions({
    queryKey: earnRecordsKeys.list(type, coin),
    queryFn: ({ pageParam, signal }) =>
      apiData<EarnRecordPage>(
        `${INC}/increment/records`,
        { ...(type ? { type } : {}), ...(coin ? { coinSymbol: coin } : {}), cursor: pageParam, pageSize: RECORDS_PAGE_SIZE },
        { silent: true, signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next || undefined,
  })

/** A loan record list (repayments, collateral changes or liquidations), a page at a time. */
export const loanRecordsQuery = (list: LoanRecordList) =>
  infiniteQueryOptions({
    queryKey: earnRecordsKeys.loans(list),
    queryFn: ({ pageParam, signal }) =>
      apiData<EarnRecordPage>(`${INC}/borrow/${LOAN_RECORD_LISTS[list]}`, { cursor: pageParam, pageSize: RECORDS_PAGE_SIZE }, { silent: true, signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next || undefined,
  })
