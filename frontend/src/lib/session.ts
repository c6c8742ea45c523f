import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { getToken, removeToken } from './cookies'
import { apiPost, isSuccess, onSessionExpired } from './request-client'
import { clearStoredTokens } from './storage'

/**
 * Signed-in state (spec §4): it follows POST /fe-ex-api/common/user_info,
 * refetched on window focus; 10002 means anonymous.
 */

/** The user-info fields of the auth contract. */
export interface UserInfo {
  id: number | string
  email?: string
  realName?: string
  firstName?: string
  lastName?: string
  nickName?: string
  isOpenMobileCheck?: 0 | 1
  googleStatus?: 0 | 1
  mobileNumber?: string
  countryCode?: string
  country?: string
  /** Identity verification: 0 unverified, 1 pending, 2 verified, 3 rejected. */
  kycStatus?: 0 | 1 | 2 | 3
  /** The verification level held ('' when none). */
  kycLevel?: string
  /** The reviewer's words of the last rejection, for the user. */
  kycRejectReason?: string
  accountType?: 'regular' | 'enterprise'
  ctime?: number
}

export const USER_INFO_PATH = '/fe-ex-api/common/user_info'
export const LOGOUT_PATH = '/fe-ex-api/user/login_out'
export const userInfoKey = ['user-info'] as const

/** Fetches user info; resolves null when not signed in (10002 or any non-zero code). */
export async function fetchUserInfo(signal?: AbortSignal): Promise<UserInfo | null> {
  const envelope = await apiPost<UserInfo>(USER_INFO_PATH, {}, { silent: true, signal })
  return isSuccess(envelope) && envelope.data ? envelope.data : null
}

/** Query options of the signed-in state, shared by the hook and the auth guard. */
export const userInfoQuery = queryOptions({
  queryKey: userInfoKey,
  queryFn: ({ signal }) => fetchUserInfo(signal),
  refetchOnWindowFocus: true,
  staleTime: 15 * 1000,
  retry: false,
})

/** The signed-in user (null when anonymous, undefined while loading). */
export function useUserInfo() {
  const query = useQuery(userInfoQuery)
  return { user: query.data, isSignedIn: !!query.data, isLoading: query.isLoading, refetch: query.refetch }
}

/** Wires 10002 answers of any call to the signed-in state. Call once at start. */
export function bindSessionToQueryClient(client: QueryClient): () => void {
  return onSessionExpired(() => {
    if (client.getQueryData(userInfoKey)) client.setQueryData(userInfoKey, null)
  })
}

/** Marks the session as signed in again after a successful login (refetches user info). */
export async function refreshSession(client: QueryClient): Promise<UserInfo | null> {
  return client.fetchQuery({ ...userInfoQuery, staleTime: 0 })
}

/** True when a token cookie is present (a hint only; user_info is the truth). */
export function hasTokenCookie(): boolean {
  return !!getToken()
}

/**
 * Logout (spec §4): tells the server, removes the token cookie, clears stored
 * tokens and reloads to /. A failing call still signs the browser out.
 */
export async function logout(navigate: (href: string) => void = (href) => window.location.assign(href)): Promise<void> {
  try {
    await apiPost(LOGOUT_PATH, {}, { silent: true })
  } catch {
    // The local sign-out below must happen even when the server is unreachable.
  }
  removeToken()
  clearStoredTokens()
  navigate('/')
}
