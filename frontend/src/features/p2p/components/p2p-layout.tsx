import { useQueryClient } from '@tanstack/react-query'
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router'
import { useCallback, useEffect } from 'react'
import { p2pKeys } from '../api/types'
import { useP2PPush, type P2PPush } from '../lib/push'
import { p2pTexts } from '../lib/texts'
import { AgreementModal } from './agreement-modal'
import { P2PSubNav } from './p2p-subnav'

/**
 * The frame of every /p2p/* page (spec §2): the P2P sub-navigation, the
 * agreement notice for a signed-in user who has not accepted it, then the
 * page. Pushed order changes refresh the order lists and the order.
 */
export function P2PLayout() {
  const { t } = p2pTexts.useTexts()
  const queryClient = useQueryClient()
  const onPush = useCallback(
    (push: P2PPush) => {
      if (push.channel !== 'user_p2p_orders') return
      void queryClient.invalidateQueries({ queryKey: p2pKeys.orders })
      void queryClient.invalidateQueries({ queryKey: p2pKeys.order(push.id) })
    },
    [queryClient],
  )
  useP2PPush(onPush)
  // /p2p itself is the market.
  const bare = useRouterState({ select: (s) => /^\/p2p\/?$/.test(s.location.pathname) })
  const navigate = useNavigate()
  useEffect(() => {
    if (bare) void navigate({ href: '/p2p/trading', replace: true })
  }, [bare, navigate])
  return (
    <>
      <P2PSubNav t={t} />
      <AgreementModal t={t} />
      <Outlet />
    </>
  )
}
