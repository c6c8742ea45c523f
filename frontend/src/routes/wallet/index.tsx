import { createFileRoute } from '@tanstack/react-router'
import { WalletPage } from '@/features/wallet/components/wallet-page'
import {
  TRANSFER_ACCOUNTS,
  WALLET_MODALS,
  WALLET_VIEWS,
  type TransferAccount,
  type WalletModal,
  type WalletSearch,
  type WalletView,
} from '@/features/wallet/lib/search'
import { requireAuth } from '@/lib/auth-guard'

function oneOf<T extends string>(list: readonly T[], v: unknown): T | undefined {
  return typeof v === 'string' && (list as readonly string[]).includes(v) ? (v as T) : undefined
}

/** /wallet?view=&modal=&coin=&account= : the wallet area; modal opens one of the wallet modals. */
export const Route = createFileRoute('/wallet/')({
  beforeLoad: requireAuth,
  validateSearch: (raw: Record<string, unknown>): WalletSearch => {
    const coin = typeof raw.coin === 'string' && /^[A-Za-z0-9_]{1,20}$/.test(raw.coin) ? raw.coin : undefined
    return {
      view: oneOf<WalletView>(WALLET_VIEWS, raw.view),
      modal: oneOf<WalletModal>(WALLET_MODALS, raw.modal),
      account: oneOf<TransferAccount>(TRANSFER_ACCOUNTS, raw.account),
      coin,
    }
  },
  component: WalletRoute,
})

function WalletRoute() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return <WalletPage search={search} onSearch={(next) => void navigate({ search: next, replace: !!search.modal && !next.modal })} />
}
