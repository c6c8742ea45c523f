import { useNavigate, useParams, useRouter, useRouterState } from '@tanstack/react-router'
import { ApplyMerchantPage } from './components/apply-merchant-page'
import { ExpressPage } from './components/express-page'
import { MyAdsPage } from './components/my-ads-page'
import { OrderDetailPage } from './components/order-detail-page'
import { OtcOrdersPage } from './components/otc-orders-page'
import { P2PLayout } from './components/p2p-layout'
import { P2PSubNav } from './components/p2p-subnav'
import { PaymentMethodsPage } from './components/payment-methods-page'
import { ProfilePage } from './components/profile-page'
import { PublishAdPage } from './components/publish-ad-page'
import { TradingPage } from './components/trading-page'
import { hrefOf, searchOf, type P2PSearch } from './lib/search-values'
import { p2pTexts } from './lib/texts'

/**
 * The P2P pages as their routes show them, in one module: the P2P routes
 * load this one chunk (lib/routes.ts), so the first load holds one import
 * of it instead of one per page.
 */

/** Loads the P2P texts of a language (the routes' loaders wait for them). */
export const loadTexts = (lan: string) => p2pTexts.loadFor(lan)

export { P2PLayout as Layout }

/**
 * The page's search values from the address as it was written: the
 * router's parsed search reads a digit string as a number, which loses the
 * last digits of a 19-digit order id.
 */
function useRawSearch(): P2PSearch {
  const router = useRouter()
  // Read again whenever the location changes.
  useRouterState({ select: (s) => s.location.href })
  return searchOf(router.history.location.search)
}

/** /p2p/{page}: the page the path names, with its search values. */
export function Page() {
  // The router's hooks rather than a route API object, which the first load would then carry.
  const { page } = useParams({ from: '/p2p/$page' })
  const search = useRawSearch()
  const navigate = useNavigate()
  switch (page) {
    case 'trading':
      return (
        <TradingPage
          search={search}
          onSearch={(next) => void navigate({ href: hrefOf('/p2p/trading', { side: next.side, coin: next.coin, amount: next.amount, payment: next.payment, page: next.page }), replace: true })}
        />
      )
    case 'order-detail':
      return <OrderDetailPage key={search.id} id={search.id ?? ''} />
    case 'profile':
      return <ProfilePage key={search.uid ?? ''} uid={search.uid} />
    case 'publish-ad':
      return <PublishAdPage key={search.id ?? 'new'} id={search.id} />
    case 'my-advertising':
      return <MyAdsPage />
    case 'apply-merchant':
      return <ApplyMerchantPage />
    case 'payment-method':
      return <PaymentMethodsPage />
    case 'express':
      return <ExpressPage />
    default:
      return null
  }
}

/** /order/otc, under the P2P sub-navigation (its "P2P Order" item leads here and shows it as the current one). */
export function OtcOrders() {
  const search = useRawSearch()
  const navigate = useNavigate()
  const { t } = p2pTexts.useTexts()
  return (
    <>
      <P2PSubNav t={t} />
      <OtcOrdersPage search={search} onSearch={(next: P2PSearch) => void navigate({ href: hrefOf('/order/otc', { tab: next.tab, page: next.page }), replace: true })} />
    </>
  )
}
