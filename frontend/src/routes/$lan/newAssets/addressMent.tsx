import { createFileRoute, notFound } from '@tanstack/react-router'
import { AddressListPage } from '@/features/wallet/components/address-list-page'
import { requireAuth } from '@/lib/auth-guard'
import { LANGUAGES } from '@/lib/cookies'

/** /{lan}/newAssets/addressMent: the withdrawal address list ({lan} is the language cookie value, spec §2). */
export const Route = createFileRoute('/$lan/newAssets/addressMent')({
  beforeLoad: async (ctx) => {
    if (!(LANGUAGES as readonly string[]).includes(ctx.params.lan)) throw notFound()
    return requireAuth(ctx)
  },
  component: AddressListPage,
})
