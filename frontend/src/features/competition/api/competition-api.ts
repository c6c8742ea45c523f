import { queryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'

/**
 * The futures trading competition (/fe-co-api; spec §6: joining needs a
 * verified identity, a mobile number, enough funds and a futures account).
 * The shapes are the server's (internal/competition views.go and join.go,
 * the json tags): amounts are decimal strings in the competition's coin,
 * ROI a percentage with 2 decimals ('' when there is none yet), times Unix
 * milliseconds. The /common paths are public; the others need a session.
 */

export const COMPETITION_API = '/fe-co-api'

/** upcoming, running, ended (the final ranking being worked out) or settled (prizes paid). */
export type CompetitionState = 'upcoming' | 'running' | 'ended' | 'settled'

/** One row of the prize table: each rank from rankFrom to rankTo wins amount. */
export interface Prize {
  rankFrom: number
  rankTo: number
  amount: string
}

/** The rules of joining. */
export interface Rules {
  /** 0 none, 1 a verified identity. */
  kycLevel: number
  mobile: boolean
  /** The least futures margin balance at joining, in coin. */
  minBalance: string
  futuresAccount: boolean
}

/** A competition as the pages show it (/common/competition_detail, /common/get_current_competition). */
export interface Competition {
  competitionId: string
  /** In the caller's language. */
  name: string
  description: string
  names: Record<string, string>
  descriptions: Record<string, string>
  startTime: number
  endTime: number
  /** The margin coin: balances, profits and prizes are in it. */
  coin: string
  prizes: Prize[]
  prizePool: string
  rules: Rules
  state: CompetitionState
  participants: number
  /** When the ranking was last worked out (every minute while running). */
  refreshedAt: number
  settledAt: number
  serverTime: number
  signedIn: boolean
  /** The caller joined (false when signed out). */
  joined: boolean
}

/** One rank of the ranking. */
export interface RankRow {
  rank: number
  /** Masked by the server: first and last characters. */
  nickName: string
  /** Percent, 2 decimals; '' for a participant with nothing at stake (ranked last). */
  roi: string
  /** In coin. */
  profit: string
  /** What the rank wins; '' for none. */
  prize: string
}

/** /common/competition_rank_web. */
export interface RankPage {
  count: number
  page: number
  pageSize: number
  list: RankRow[]
  refreshedAt: number
}

/** /user_rank and /join_competition: the caller's standing. */
export interface UserRank {
  competitionId: string
  joined: boolean
  joinedAt: number
  /** The caller's own nickname, unmasked. */
  nickName: string
  /** 0 until the first ranking after joining. */
  rank: number
  roi: string
  profit: string
  /** The futures margin balance at the last ranking. */
  equity: string
  initialEquity: string
  netTransferIn: string
  prize: string
  prizePaid: boolean
  refreshedAt: number
}

/** One rule of joining: asked or not, met or not (a rule not asked is met). */
export interface RuleCheck {
  required: boolean
  met: boolean
}

/** The minimum futures margin balance. */
export interface FundsCheck extends RuleCheck {
  min: string
  /** The user's futures margin balance now. */
  balance: string
  coin: string
}

/** /get_user_condition. */
export interface Condition {
  competitionId: string
  state: CompetitionState
  kyc: RuleCheck
  mobile: RuleCheck
  funds: FundsCheck
  futuresAccount: RuleCheck
  joined: boolean
  /** Running, not joined yet, and every rule met. */
  canJoin: boolean
}

/** Ranks shown on the podium, and rows per page of the ranking. */
export const TOP_LIMIT = 3
export const RANK_PAGE_SIZE = 20

export const competitionKeys = {
  all: ['competition'] as const,
  current: ['competition', 'current'] as const,
  detail: (id: string) => ['competition', 'detail', id] as const,
  top: (id: string, limit: number) => ['competition', 'top', id, limit] as const,
  ranks: (id: string, page: number, pageSize: number) => ['competition', 'ranks', id, page, pageSize] as const,
  /** The signed-in caller's: cleared with the session. */
  mine: ['competition', 'mine'] as const,
  condition: (id: string) => ['competition', 'mine', 'condition', id] as const,
  userRank: (id: string) => ['competition', 'mine', 'rank', id] as const,
}

const post = <T>(path: string, body: Record<string, unknown>, options?: { silent?: boolean; signal?: AbortSignal }) =>
  apiData<T>(`${COMPETITION_API}${path}`, body, options)

/** The running competition, else the next to start, else the last ended; null when there is none. */
export const currentCompetitionQuery = queryOptions({
  queryKey: competitionKeys.current,
  queryFn: ({ signal }) => post<Competition | null>('/common/get_current_competition', {}, { silent: true, signal }),
})

export const competitionDetailQuery = (competitionId: string) =>
  queryOptions({
    queryKey: competitionKeys.detail(competitionId),
    queryFn: ({ signal }) => post<Competition>('/common/competition_detail', { competitionId }, { silent: true, signal }),
  })

export const competitionTopQuery = (competitionId: string, limit = TOP_LIMIT) =>
  queryOptions({
    queryKey: competitionKeys.top(competitionId, limit),
    queryFn: ({ signal }) => post<RankRow[]>('/common/competition_top', { competitionId, limit }, { silent: true, signal }),
  })

export const competitionRanksQuery = (competitionId: string, page = 1, pageSize = RANK_PAGE_SIZE) =>
  queryOptions({
    queryKey: competitionKeys.ranks(competitionId, page, pageSize),
    queryFn: ({ signal }) => post<RankPage>('/common/competition_rank_web', { competitionId, page, pageSize }, { silent: true, signal }),
  })

export const userConditionQuery = (competitionId: string) =>
  queryOptions({
    queryKey: competitionKeys.condition(competitionId),
    queryFn: ({ signal }) => post<Condition>('/get_user_condition', { competitionId }, { silent: true, signal }),
  })

export const userRankQuery = (competitionId: string) =>
  queryOptions({
    queryKey: competitionKeys.userRank(competitionId),
    queryFn: ({ signal }) => post<UserRank>('/user_rank', { competitionId }, { silent: true, signal }),
  })

/** Joins a running competition (every rule met); a refusal has had its toast with the server's words. */
export const joinCompetition = (competitionId: string) => post<UserRank>('/join_competition', { competitionId })
