import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { COOKIE, getToken, setCookie } from '@/lib/cookies'
import { notifySuccess } from '@/lib/notify'
import { refreshSession } from '@/lib/session'
import { resolveLoginRedirect } from './redirect'

/**
 * Completes a sign-in from its session token: keeps the token where the
 * request client reads it, says so in a toast, loads the user and goes on
 * to the ?redirect= path (same-site only) or home. The login page and the
 * register page (which signs the new account in) share it.
 */
export function useCompleteSignIn(redirect: unknown) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useCallback(
    async (token: string, message: string) => {
      // The server sets the token cookie; when it is not visible to the page
      // (another API origin in AWS), keep it so the request client can send it.
      if (token && !getToken()) setCookie(COOKIE.token, token)
      notifySuccess(message)
      await refreshSession(queryClient)
      await navigate({ href: resolveLoginRedirect(redirect), replace: true })
    },
    [queryClient, navigate, redirect],
  )
}
