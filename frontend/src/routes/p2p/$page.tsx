import { createFileRoute, notFound } from '@tanstack/react-router'
import { keepSearch, p2pPage, requireSignIn } from '@/features/p2p/lib/routes'
import { isP2PPage } from '@/features/p2p/lib/search'

/**
 * /p2p/{page} (spec §2): trading, order-detail?id=, profile?uid=,
 * publish-ad[?id=], my-advertising, apply-merchant, payment-method and
 * express, one route whose page comes with the P2P chunk (one entry in the
 * first load instead of eight). Visitors see trading and express; the others
 * send them to log in and back.
 */
export const P2PPage = p2pPage('Page')

export const Route = createFileRoute('/p2p/$page')({
  // Other /p2p/ paths do not match, so the router (and the menus' link check) reports them as not found.
  params: { parse: (params) => (isP2PPage(params.page) ? params : false) },
  validateSearch: keepSearch,
  beforeLoad: async (ctx) => {
    if (!isP2PPage(ctx.params.page)) throw notFound()
    if (!isP2PPage(ctx.params.page, true)) await requireSignIn(ctx)
  },
  component: P2PPage,
})
