import { apiData, apiPost, isSuccess } from '@/lib/request-client'

/**
 * POST /fe-ex-api/sumsub/get_access_token (spec §7): a token for the
 * verification provider's flow at a level (the applicant is created when
 * the user has none).
 */

/** The answer of get_access_token. */
export interface AccessToken {
  token: string
  userId: string
  levelName: string
  providerLevelName: string
  applicantId: string
  /** 'sumsub': open Sumsub's WebSDK with the token; 'simulator': open simulatorUrl. */
  provider: string
  /** `tenger serve --dev` only: the page standing in for the provider's flow. */
  simulatorUrl: string
  ttlInSecs: number
  /** Unix ms. */
  expiresAt: number
}

const PATH = '/fe-ex-api/sumsub/get_access_token'

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/** An access token from an answer, with every field present. */
export function normalizeAccessToken(raw: Partial<AccessToken> | null | undefined): AccessToken {
  return {
    token: text(raw?.token),
    userId: raw?.userId === undefined ? '' : String(raw.userId),
    levelName: text(raw?.levelName),
    providerLevelName: text(raw?.providerLevelName),
    applicantId: text(raw?.applicantId),
    provider: text(raw?.provider),
    simulatorUrl: text(raw?.simulatorUrl),
    ttlInSecs: Number(raw?.ttlInSecs ?? 0) || 0,
    expiresAt: Number(raw?.expiresAt ?? 0) || 0,
  }
}

/**
 * A token for the flow at a level (the user's level when none is named). A
 * refusal shows in the global error toast and resolves undefined.
 */
export async function getAccessToken(levelName?: string): Promise<AccessToken | undefined> {
  const envelope = await apiPost<Partial<AccessToken> | null>(PATH, levelName ? { levelName } : {})
  return isSuccess(envelope) ? normalizeAccessToken(envelope.data) : undefined
}

/**
 * A fresh token for the provider's SDK when its token expires (the SDK's
 * refresh callback): rejects on a refusal, which the SDK reports.
 */
export async function refreshAccessToken(levelName?: string): Promise<string> {
  const data = await apiData<Partial<AccessToken> | null>(PATH, levelName ? { levelName } : {}, { silent: true })
  return normalizeAccessToken(data).token
}
