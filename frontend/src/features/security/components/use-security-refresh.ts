import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { userInfoKey } from '@/lib/session'
import { securityKeys } from '../api/security-api'

/** Refreshes user info and the histories after a security change. */
export function useSecurityRefresh(): () => Promise<void> {
  const queryClient = useQueryClient()
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: userInfoKey }),
      queryClient.invalidateQueries({ queryKey: securityKeys.all }),
    ])
  }, [queryClient])
}
