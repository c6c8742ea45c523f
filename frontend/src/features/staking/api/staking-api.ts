import { queryOptions } from '@tanstack/react-query'
import { apiData, apiPost, type ApiEnvelope } from '@/lib/request-client'

/**
 * Locked staking (spec §2 staking page, §4 staking labels, §7 the
 * increment service's /noToken/increment/project_list, project_info,
 * get_project_info, /staking_create_order, /increment/my_pos). The shapes
 * are the server's (internal/earn staking_views.go, ops.go): amounts and
 * rates are decimal strings, rates in percent a year.
 */

const INC = '/fe-increment-api'

/** How a stake's rewards are paid: into spot every day, or all at maturity. */
export type Payout = 'daily' | 'maturity'

/** A staking product as the list shows it. */
export interface StakingProject {
  id: string
  showName: string
  coinSymbol: string
  logo: string
  termDays: number
  /** Percent per year, 2 decimals. */
  apr: string
  payout: Payout
  minAmount: string
  /** '' when there is no cap per user. */
  maxPerUser: string
  /** '' when there is no total cap. */
  totalCap: string
  /** Staked by everyone now. */
  staked: string
  /** What the total cap still takes; '' without a cap. */
  remaining: string
  /** Decimals of an amount of the coin. */
  precision: number
  /** Takes new stakes. */
  open: boolean
  /** What the caller has staked in it (get_project_info; signed in). */
  mine?: string
}

/** A stake's status (spec §4 staking labels: pending, locked, … completed). */
export type StakeStatus = 'pending' | 'locked' | 'completed' | 'redeemed'

/** One of the caller's stakes (my_pos). */
export interface StakeView {
  id: string
  projectId: string
  showName: string
  coinSymbol: string
  amount: string
  apr: string
  termDays: number
  payout: Payout
  /** UTC date (YYYY-MM-DD) of the first day that earns (the day after staking). */
  startDate: string
  /** UTC date of the last day that earns; the principal returns after it. */
  endDate: string
  status: StakeStatus
  /** Paid into spot so far. */
  rewardsPaid: string
  /** Kept for maturity (payout 'maturity'). */
  rewardsAccrued: string
  /** All the term's rewards. */
  rewardsExpected: string
  /** What an early redemption returns now: the principal less the rewards paid. */
  redeemNow: string
  /** Unix ms. */
  ctime: number
}

/** What a stake or a redemption did. */
export interface StakeResult {
  id: string
  kind: string
  projectId: string
  coinSymbol: string
  amount: string
  status: string
  ctime: number
  replayed?: boolean
}

/**
 * Query keys. Everything personal is under ['staking', 'mine'] (refreshed
 * after a stake or a redemption, with the wallet's ['wallet'] and the
 * finance records).
 */
export const stakingKeys = {
  all: ['staking'] as const,
  projects: ['staking', 'projects'] as const,
  mine: ['staking', 'mine'] as const,
  project: (id: string) => ['staking', 'mine', 'project', id] as const,
  stakes: ['staking', 'mine', 'stakes'] as const,
}

/** The products (public). */
export const projectsQuery = queryOptions({
  queryKey: stakingKeys.projects,
  queryFn: ({ signal }) => apiData<StakingProject[]>(`${INC}/noToken/increment/project_list`, {}, { silent: true, signal }).then((l) => l ?? []),
})

/** One product with what the signed-in caller has staked in it (for the cap left). */
export const projectInfoQuery = (projectId: string) =>
  queryOptions({
    queryKey: stakingKeys.project(projectId),
    queryFn: ({ signal }) => apiData<StakingProject>(`${INC}/get_project_info`, { projectId }, { silent: true, signal }),
  })

/** The signed-in caller's stakes, newest first. */
export const stakesQuery = queryOptions({
  queryKey: stakingKeys.stakes,
  queryFn: ({ signal }) => apiData<StakeView[]>(`${INC}/increment/my_pos`, {}, { silent: true, signal }).then((l) => l ?? []),
})

/** What a stake names. */
export interface StakeInput {
  projectId: string
  amount: string
  /** Idempotency key: the same request sent again stakes once. */
  requestId: string
}

/**
 * staking_create_order: the amount from the spot account, locked for the
 * term (rewards from the next UTC day). A refusal has had its toast with the
 * server's words (spec §8).
 */
export const createStake = (input: StakeInput): Promise<ApiEnvelope<StakeResult>> => apiPost<StakeResult>(`${INC}/staking_create_order`, { ...input })

/**
 * /increment/redeem: ends a stake before its term; the principal less the
 * rewards already paid returns to spot, the other rewards are forfeited.
 */
export const redeemStake = (id: string): Promise<ApiEnvelope<StakeResult>> => apiPost<StakeResult>(`${INC}/increment/redeem`, { id })
