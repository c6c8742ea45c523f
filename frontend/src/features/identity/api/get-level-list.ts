import { queryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'

/**
 * POST /fe-ex-api/sumsub/v2/get_level_list (spec §7): the verification
 * levels with the daily withdrawal limit each gives, and where the user
 * stands. Amounts are USDT decimal strings.
 */

/** The profile's kycStatus: 0 unverified, 1 pending, 2 verified, 3 rejected. */
export type KycStatus = 0 | 1 | 2 | 3

/** The user's status at one level. */
export type LevelStatus = 'verified' | 'pending' | 'rejected' | 'unverified'

/** One verification level. */
export interface KycLevel {
  levelName: string
  providerLevel: string
  /** 24 h withdrawal limit in USDT this level gives. */
  withdrawDailyUsdt: string
  /** The operator's description (English); the page shows its own text for a level it knows. */
  description: string
  /** 1 for the first level. */
  rank: number
  status: LevelStatus
  /** The level the user works on (applies for, or last applied for). */
  current: boolean
}

/** The answer of get_level_list (and of change_level_and_create_info). */
export interface LevelList {
  levels: KycLevel[]
  kycStatus: KycStatus
  /** The level held ('' when none). */
  verifiedLevel: string
  /** The level being applied for ('' before the first). */
  currentLevel: string
  applicantId: string
  /** init, pending, onHold or completed; '' before the applicant exists. */
  reviewStatus: string
  /** GREEN or RED once a review completed. */
  reviewAnswer: string
  /** RETRY or FINAL after a RED answer. */
  reviewRejectType: string
  /** The provider's labels (UNSATISFACTORY_PHOTOS ...). */
  rejectLabels: string[]
  /** The reviewer's words for the user. */
  rejectReason: string
  /** Documents may be sent (again) for the current level. */
  canRetry: boolean
  unverifiedWithdrawDailyUsdt: string
  /** The user's own 24 h limit now. */
  withdrawDailyUsdt: string
  /** 'sumsub' or 'simulator'; '' when verification is unavailable. */
  provider: string
}

const LEVEL_STATUSES: readonly LevelStatus[] = ['verified', 'pending', 'rejected', 'unverified']

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

function normalizeLevel(raw: Partial<KycLevel> | null | undefined, index: number): KycLevel {
  const status = LEVEL_STATUSES.includes(raw?.status as LevelStatus) ? (raw?.status as LevelStatus) : 'unverified'
  const rank = Number(raw?.rank)
  return {
    levelName: text(raw?.levelName),
    providerLevel: text(raw?.providerLevel),
    withdrawDailyUsdt: text(raw?.withdrawDailyUsdt),
    description: text(raw?.description),
    rank: Number.isFinite(rank) && rank > 0 ? rank : index + 1,
    status,
    current: raw?.current === true,
  }
}

/** A level list as an answer may carry it (any field may be missing). */
export type RawLevelList = Partial<Omit<LevelList, 'levels'>> & { levels?: Partial<KycLevel>[] }

/** A level list from an answer, with every field present (levels in rank order). */
export function normalizeLevelList(raw: RawLevelList | null | undefined): LevelList {
  const status = Number(raw?.kycStatus)
  return {
    levels: (Array.isArray(raw?.levels) ? raw.levels.map(normalizeLevel) : []).sort((a, b) => a.rank - b.rank),
    kycStatus: status === 1 || status === 2 || status === 3 ? status : 0,
    verifiedLevel: text(raw?.verifiedLevel),
    currentLevel: text(raw?.currentLevel),
    applicantId: text(raw?.applicantId),
    reviewStatus: text(raw?.reviewStatus),
    reviewAnswer: text(raw?.reviewAnswer),
    reviewRejectType: text(raw?.reviewRejectType),
    rejectLabels: Array.isArray(raw?.rejectLabels) ? raw.rejectLabels.filter((l): l is string => typeof l === 'string') : [],
    rejectReason: text(raw?.rejectReason),
    canRetry: raw?.canRetry === true,
    unverifiedWithdrawDailyUsdt: text(raw?.unverifiedWithdrawDailyUsdt),
    withdrawDailyUsdt: text(raw?.withdrawDailyUsdt),
    provider: text(raw?.provider),
  }
}

export const LEVEL_LIST_PATH = '/fe-ex-api/sumsub/v2/get_level_list'

/** The levels and the user's verification. */
export async function fetchLevelList(signal?: AbortSignal): Promise<LevelList> {
  return normalizeLevelList(await apiData<RawLevelList | null>(LEVEL_LIST_PATH, {}, { signal }))
}

/** Query keys of this feature. */
export const identityKeys = {
  all: ['identity'] as const,
  levels: ['identity', 'levels'] as const,
  withdrawLimit: ['identity', 'withdraw-limit'] as const,
}

/** Query options of the level list, shared by the identity and limits pages. */
export function levelListQuery() {
  return queryOptions({
    queryKey: identityKeys.levels,
    queryFn: ({ signal }) => fetchLevelList(signal),
  })
}
