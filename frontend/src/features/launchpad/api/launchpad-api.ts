import { queryOptions } from '@tanstack/react-query'
import { apiData, apiPost, type ApiEnvelope } from '@/lib/request-client'

/**
 * The launchpad: new coin sales (spec §2 launchpad page, §7 the exchange
 * service's /newcoinV2/newcoin_project_listV2, newcoin_project_detailV2,
 * /common/launchpad_footer, /api/newcoin_purchase). The shapes are the
 * server's (internal/earn launchpad_views.go): amounts are decimal strings,
 * times Unix ms.
 */

const EX = '/fe-ex-api'

/** A sale's phase, from its times (upcoming → subscription → calculation → distribution → ended). */
export type Phase = 'upcoming' | 'subscription' | 'calculation' | 'distribution' | 'ended'

/** The phases in order. */
export const PHASES: readonly Phase[] = ['upcoming', 'subscription', 'calculation', 'distribution', 'ended']

/** How the signed-in user's allocation was (or will be) worked out. */
export interface LaunchReport {
  /** The user's commitment, in the commitment coin. */
  committed: string
  /** Commitment ÷ total committed × tokens offered, before any cap (8 decimals past the token's unit, rounded down). */
  proRataShare: string
  /** The most the user can get: the cap per user, and what the commitment pays for. */
  limit: string
  /** Tokens allocated; '' until the sale is allocated. */
  allocated: string
  /** Allocated × price, rounded up; '' until allocated. */
  cost: string
  /** The rest of the commitment, returned; '' until allocated. */
  returned: string
  /** The rule in words (the server's, in English). */
  formula: string
}

/** A sale as the launchpad pages show it. */
export interface LaunchView {
  id: string
  name: string
  description: string
  token: string
  tokenLogo: string
  /** The coin committed (and paid). */
  commitCoin: string
  /** One token in the commitment coin. */
  price: string
  tokensOffered: string
  /** Most tokens one user gets; '' without a cap. */
  maxPerUser: string
  minCommit: string
  subscribeStart: number
  subscribeEnd: number
  distributeAt: number
  phase: Phase
  totalCommitted: string
  /** Commitments made. */
  participants: number
  /** Total committed ÷ the offer's value, percent (above 100: oversubscribed). */
  subscribedPercent: string
  tokenPrecision: number
  commitPrecision: number
  /** The caller's part (detail, signed in). */
  mine?: LaunchReport
}

/** The launchpad in figures. */
export interface LaunchFooter {
  projects: number
  participants: number
  ended: number
}

/** What a commitment did. */
export interface CommitResult {
  id: string
  kind: string
  projectId: string
  coinSymbol: string
  amount: string
  status: string
  ctime: number
  replayed?: boolean
}

/** Query keys; a sale's detail (with the caller's report) is refreshed after a commitment. */
export const launchpadKeys = {
  all: ['launchpad'] as const,
  list: ['launchpad', 'list'] as const,
  footer: ['launchpad', 'footer'] as const,
  detail: (id: string, signedIn: boolean) => ['launchpad', 'detail', id, signedIn] as const,
}

/** The sales (public). */
export const launchListQuery = queryOptions({
  queryKey: launchpadKeys.list,
  queryFn: ({ signal }) => apiData<LaunchView[]>(`${EX}/newcoinV2/newcoin_project_listV2`, {}, { silent: true, signal }).then((l) => l ?? []),
})

/** The launchpad's figures (public). */
export const launchFooterQuery = queryOptions({
  queryKey: launchpadKeys.footer,
  queryFn: ({ signal }) => apiData<LaunchFooter>(`${EX}/common/launchpad_footer`, {}, { silent: true, signal }),
})

/**
 * One sale; signed in, with the caller's report (`mine`). Keyed by the
 * signed-in state, so signing in (or out) asks again.
 */
export const launchDetailQuery = (projectId: string, signedIn: boolean) =>
  queryOptions({
    queryKey: launchpadKeys.detail(projectId, signedIn),
    queryFn: ({ signal }) => apiData<LaunchView>(`${EX}/newcoinV2/newcoin_project_detailV2`, { projectId }, { silent: true, signal }),
  })

/** What a commitment names. */
export interface CommitInput {
  projectId: string
  amount: string
  /** Idempotency key: the same request sent again commits once. */
  requestId: string
}

/**
 * newcoin_purchase: commits the amount of the commitment coin from spot
 * during the subscription phase (held until the distribution). A refusal
 * has had its toast with the server's words.
 */
export const commitToSale = (input: CommitInput): Promise<ApiEnvelope<CommitResult>> => apiPost<CommitResult>(`${EX}/api/newcoin_purchase`, { ...input })
