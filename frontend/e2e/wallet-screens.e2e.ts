// Screenshots of the wallet screens and modals in both themes, both widths
// and both languages, for review: frontend/test-results/screenshots/wallet/.
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, setCookies } from './support/browser'
import { fundByBank, fundByChain, walletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'wallet')

const SCREENS: { name: string; path: string; ready: (p: Page) => ReturnType<Page['getByTestId']>; core?: boolean }[] = [
  { core: true, name: 'overview', path: '/wallet', ready: (p) => p.getByTestId('portfolio-chart') },
  { core: true, name: 'spot', path: '/wallet?view=spot', ready: (p) => p.getByTestId('spot-view') },
  { name: 'cross', path: '/wallet?view=cross', ready: (p) => p.getByTestId('cross-table') },
  { name: 'isolated', path: '/wallet?view=isolated', ready: (p) => p.getByTestId('isolated-view') },
  { name: 'otc', path: '/wallet?view=otc', ready: (p) => p.getByTestId('otc-table') },
  { name: 'futures', path: '/wallet?view=futures', ready: (p) => p.getByTestId('futures-table') },
  { name: 'earn', path: '/wallet?view=earn', ready: (p) => p.getByTestId('earn-view') },
  { core: true, name: 'history', path: '/wallet/history?tab=deposit', ready: (p) => p.locator('[data-testid="deposit-row"]:visible, [data-testid="deposit-card"]:visible').first() },
  { core: true, name: 'deposit-chain', path: '/wallet?modal=deposit&coin=BTC', ready: (p) => p.getByTestId('deposit-qr') },
  // A coin on several networks: none chosen until the user picks one.
  { name: 'deposit-networks', path: '/wallet?modal=deposit&coin=USDT', ready: (p) => p.getByTestId('deposit-choose-network') },
  { name: 'deposit-bank', path: '/wallet?modal=deposit&coin=MNT', ready: (p) => p.getByTestId('bank-block') },
  { core: true, name: 'withdraw', path: '/wallet?modal=withdraw&coin=USDT', ready: (p) => p.getByTestId('withdraw-limits') },
  { core: true, name: 'transfer', path: '/wallet?modal=transfer&account=margin_isolated', ready: (p) => p.getByTestId('transfer-base-quote') },
  { name: 'add-bank', path: '/wallet?modal=addBank', ready: (p) => p.getByTestId('bank-iban') },
  { name: 'add-address', path: '/wallet?modal=addAddress', ready: (p) => p.getByTestId('add-address-step-1') },
  { name: 'trade-password', path: '/wallet?modal=tradePassword', ready: (p) => p.getByTestId('trade-password-submit') },
  { name: 'address-book', path: '/en_US/newAssets/addressMent', ready: (p) => p.getByTestId('address-list-page') },
]

// Both themes at both widths, each language twice; two variants take every
// screen, the other two the core ones (keeps the suite short).
const VARIANTS = [
  { theme: 'light', width: 1280, lan: 'en_US', all: true },
  { theme: 'dark', width: 1280, lan: 'mn_MN', all: false },
  { theme: 'light', width: 390, lan: 'mn_MN', all: true },
  { theme: 'dark', width: 390, lan: 'en_US', all: false },
] as const

for (const v of VARIANTS) {
  test(`wallet screenshots: ${v.theme} ${v.width} px ${v.lan}`, async ({ page, request }) => {
    // Seventeen screens in one test: on a busy 2-core machine each can take
    // several seconds to load, so the bounds leave room for that.
    test.setTimeout(v.all ? 180_000 : 90_000)
    await page.setViewportSize(v.width === 1280 ? DESKTOP : PHONE)
    await setCookies(page.context(), { cusSkin: v.theme === 'dark' ? '1' : '2', lan: v.lan, stickyBar: '1' })
    const w = await walletUser(page, request, `wallet-shots-${v.theme}-${v.width}`)
    await fundByBank(request, w, '1500000')
    await fundByChain(request, w, 'USDT', 'BEP20', '2500', 15)
    for (const s of SCREENS.filter((x) => v.all || x.core)) {
      await page.goto(s.path.replace('/en_US/', `/${v.lan}/`))
      await expect(s.ready(page)).toBeVisible({ timeout: 20_000 })
      await expect(page.locator('html')).toHaveClass(v.theme === 'dark' ? /dark/ : /light/)
      // Let icons and texts settle (bounded: the wallet polls and keeps a socket open).
      await page.waitForLoadState('networkidle', { timeout: 700 }).catch(() => undefined)
      await page.screenshot({ path: path.join(OUT, `${s.name}-${v.theme}-${v.width}-${v.lan}.png`), fullPage: !s.path.includes('modal=') })
    }
  })
}
