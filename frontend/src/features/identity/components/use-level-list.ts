import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { userInfoKey } from '@/lib/session'
import { levelListQuery } from '../api/get-level-list'
import { identityState, type IdentityState } from '../lib/status'

/** How often the status is read while a review runs or a flow was just opened. */
export const POLL_MS = 4000

/** The toast of each state the status changes to (`toast.*` of the identity texts). */
const CHANGE_TOAST: Record<IdentityState, 'success' | 'error'> = {
  pending: 'success',
  verified: 'success',
  rejected: 'error',
  final: 'error',
  unverified: 'error',
}

/**
 * The user's level list, read again every few seconds while a review runs
 * (or, with `watching`, while the provider's flow may be open), and when the
 * window gets focus again (the user comes back from the simulator's tab).
 * When the state changes under the page a toast says so, and the session's
 * user info (kycStatus of the header and the security page) is read again.
 */
export function useLevelList(t: TranslateFn, { watching = false }: { watching?: boolean } = {}) {
  const queryClient = useQueryClient()
  const query = useQuery({
    ...levelListQuery(),
    refetchOnWindowFocus: true,
    refetchInterval: (q) => {
      const data = q.state.data
      if (!data || q.state.status === 'error') return false
      return watching || identityState(data) === 'pending' ? POLL_MS : false
    },
  })
  const state = query.data ? identityState(query.data) : undefined
  const seen = useRef<IdentityState | undefined>(undefined)
  useEffect(() => {
    if (!state) return
    const before = seen.current
    seen.current = state
    if (before === undefined || before === state) return
    const text = t(`toast.${state}`)
    if (CHANGE_TOAST[state] === 'success') notifySuccess(text)
    else notifyError(text)
    void queryClient.invalidateQueries({ queryKey: userInfoKey })
  }, [state, t, queryClient])
  return query
}
