import { useQuery } from '@tanstack/react-query'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { loginHref } from '@/lib/auth-guard'
import { useUserInfo } from '@/lib/session'
import { corporateApplicationQuery } from '../api/get-base-info'

/**
 * The user's application, and the rule of every signed-in page: when the
 * session ends while the page is open, the visitor signs in again and
 * comes back.
 */
export function useCorporateApplication() {
  const { user } = useUserInfo()
  const navigate = useNavigate()
  const href = useRouterState({ select: (s) => s.location.href })
  useEffect(() => {
    if (user === null) void navigate({ href: loginHref(href), replace: true })
  }, [user, href, navigate])
  return useQuery(corporateApplicationQuery)
}
