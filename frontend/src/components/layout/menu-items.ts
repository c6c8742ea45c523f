import type { IconType } from 'react-icons'
import {
  LuArrowLeftRight,
  LuBadgePercent,
  LuBookOpen,
  LuBuilding2,
  LuChartCandlestick,
  LuChartLine,
  LuCoins,
  LuDownload,
  LuGauge,
  LuGift,
  LuGrid3X3,
  LuHandCoins,
  LuIdCard,
  LuKeyRound,
  LuLifeBuoy,
  LuListChecks,
  LuMegaphone,
  LuPiggyBank,
  LuReceiptText,
  LuRocket,
  LuShieldCheck,
  LuStar,
  LuStore,
  LuTrophy,
  LuUsers,
  LuWallet,
  LuZap,
} from 'react-icons/lu'
import { isLive } from '@/lib/capabilities'
import type { RuntimeFlags } from '@/lib/config'
import { linkArea, maintenanceHref } from './link-target'

/** One link of a product menu (spec §3 menu item: id, text, link, icon). */
export interface MenuItem {
  id: string
  /** navbar text key of the label; the description key is `${textKey}Desc`. */
  textKey: string
  link: string
  icon: IconType
  /** A futures link other than the competition: goes to /maintenance while futures are not live. */
  futuresTrading?: boolean
  /**
   * A capability that is not built yet although its link's route exists
   * (margin and grid open the trade page with a type it does not trade):
   * the item leads to its maintenance page, marked "Soon". Remove when it lands.
   */
  notLive?: boolean
}

/** A product menu with its submenu. */
export interface MenuSection {
  id: 'markets' | 'trade' | 'futures' | 'p2p' | 'earn' | 'more'
  /** Where the section title leads; undefined when the title is not a link. */
  link?: string
  items: MenuItem[]
}

/** The product menus of the desktop navbar and the mobile menu, in order. */
export const MENU_SECTIONS: MenuSection[] = [
  {
    id: 'markets',
    link: '/market',
    items: [
      { id: 'markets-all', textKey: 'items.marketsAll', link: '/market', icon: LuChartLine },
      { id: 'markets-favourites', textKey: 'items.marketsFavourites', link: '/market?tab=favourites', icon: LuStar },
    ],
  },
  {
    // The second title is not clickable (spec §2): it only groups its submenu.
    id: 'trade',
    items: [
      { id: 'spot', textKey: 'items.spot', link: '/trade/BTC_USDT', icon: LuChartCandlestick },
      { id: 'margin', textKey: 'items.margin', link: '/trade/BTC_USDT?type=margin', icon: LuArrowLeftRight, notLive: !isLive('margin') },
      { id: 'grid', textKey: 'items.grid', link: '/trade/BTC_USDT?type=grid', icon: LuGrid3X3, notLive: !isLive('grid') },
    ],
  },
  {
    id: 'futures',
    items: [
      { id: 'futures-usdt', textKey: 'items.futuresUsdt', link: '/futures/BTCUSDT', icon: LuZap, futuresTrading: true },
      { id: 'futures-guide', textKey: 'items.futuresGuide', link: '/futures/guide', icon: LuBookOpen, futuresTrading: true },
      { id: 'futures-competition', textKey: 'items.futuresCompetition', link: '/futureBonus', icon: LuTrophy },
    ],
  },
  {
    id: 'p2p',
    link: '/p2p/trading',
    items: [
      { id: 'p2p-trading', textKey: 'items.p2pTrading', link: '/p2p/trading', icon: LuUsers },
      { id: 'p2p-express', textKey: 'items.p2pExpress', link: '/p2p/express', icon: LuZap },
      { id: 'p2p-orders', textKey: 'items.p2pOrders', link: '/order/otc', icon: LuReceiptText },
      { id: 'p2p-publish', textKey: 'items.p2pPublishAd', link: '/p2p/publish-ad', icon: LuMegaphone },
      { id: 'p2p-my-ads', textKey: 'items.p2pMyAds', link: '/p2p/my-advertising', icon: LuListChecks },
      { id: 'p2p-merchant', textKey: 'items.p2pApplyMerchant', link: '/p2p/apply-merchant', icon: LuStore },
    ],
  },
  {
    id: 'earn',
    items: [
      { id: 'staking', textKey: 'items.staking', link: '/staking', icon: LuCoins },
      { id: 'savings', textKey: 'items.savings', link: '/savings', icon: LuPiggyBank },
      { id: 'launchpad', textKey: 'items.launchpad', link: '/launchpad', icon: LuRocket },
      { id: 'crypto-cash', textKey: 'items.cryptoCash', link: '/cryptoCash', icon: LuHandCoins },
    ],
  },
  {
    id: 'more',
    items: [
      { id: 'task-center', textKey: 'items.taskCenter', link: '/taskCenter', icon: LuGift },
      { id: 'invitation', textKey: 'items.invitation', link: '/invitation', icon: LuBadgePercent },
      { id: 'download', textKey: 'items.download', link: '/download', icon: LuDownload },
      { id: 'api', textKey: 'items.api', link: '/profile/api', icon: LuKeyRound },
    ],
  },
]

/**
 * The href of a menu item under the current flags. Futures trading links go to
 * /maintenance until futures are live (spec §2); every other link goes through
 * `resolve`, which turns links without a route into their maintenance page
 * (see link-target.ts). Without `resolve` the item's own link is returned.
 */
export function menuHref(
  item: MenuItem,
  flags: Pick<RuntimeFlags, 'futuresLive'>,
  resolve: (href: string) => string = (href) => href,
): string {
  if (item.futuresTrading && !flags.futuresLive) return '/maintenance'
  if (item.notLive) return maintenanceHref(linkArea(item.link))
  return resolve(item.link)
}

/** Links of the signed-in user menu. */
export const USER_LINKS = {
  profile: '/profile/security',
  identity: '/profile/identity',
  corporate: '/profile/corporate',
  limits: '/profile/limits',
  wallet: '/wallet',
  orders: '/order/spot',
  futuresOrders: '/order/futures',
  support: '/profile/support',
  deposit: '/wallet?modal=deposit',
} as const

/** One link of the signed-in user's menus (the navbar's account menu and the phone menu). */
export interface UserMenuLink {
  id: keyof typeof USER_LINKS
  /** Navbar text key; the phone menu names the security page "profile". */
  textKey: string
  icon: IconType
}

/** The signed-in user's links, in the order both menus show them. */
export const USER_MENU: readonly UserMenuLink[] = [
  { id: 'profile', textKey: 'user.security', icon: LuShieldCheck },
  { id: 'identity', textKey: 'user.identity', icon: LuIdCard },
  { id: 'corporate', textKey: 'user.corporate', icon: LuBuilding2 },
  { id: 'limits', textKey: 'user.limits', icon: LuGauge },
  { id: 'wallet', textKey: 'user.wallet', icon: LuWallet },
  { id: 'orders', textKey: 'user.orders', icon: LuReceiptText },
  { id: 'futuresOrders', textKey: 'user.futuresOrders', icon: LuZap },
  { id: 'support', textKey: 'user.support', icon: LuLifeBuoy },
]

/** Support links of the mobile menu and the footer. */
export const SUPPORT_LINKS = [
  { id: 'help', textKey: 'support.help', path: '/support' },
  { id: 'request', textKey: 'support.request', path: '/request' },
  { id: 'fees', textKey: 'support.fees', path: '/fees' },
  { id: 'contact', textKey: 'support.contact', path: '/contact' },
] as const
