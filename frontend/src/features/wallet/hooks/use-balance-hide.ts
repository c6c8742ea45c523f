import { useCallback, useState } from 'react'
import { COOKIE, getCookie, setCookie } from '@/lib/cookies'

/** The balance-hide preference (spec §3: cookie value 1 means hidden). */
export function useBalanceHide(): { hidden: boolean; toggle: () => void } {
  const [hidden, setHidden] = useState(() => getCookie(COOKIE.balanceHide) === '1')
  const toggle = useCallback(() => {
    setHidden((h) => {
      setCookie(COOKIE.balanceHide, h ? '0' : '1')
      return !h
    })
  }, [])
  return { hidden, toggle }
}
