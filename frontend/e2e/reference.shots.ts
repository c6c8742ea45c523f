// Reference screenshots of the trade page, markets, deposit and withdraw in
// both languages and themes at 1440 × 900 and 390 × 844 (npm run shots):
// e2e/reference/<screen>-<language>-<theme>-<width>.jpeg, kept in the
// repository so that a change's images are compared with the ones before it.
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { setCookies } from './support/browser'
import { fundByBank, fundByChain, walletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, 'reference')
const WIDE = { width: 1440, height: 900 }
const PHONE = { width: 390, height: 844 }

const SCREENS: { name: string; path: string; ready: (p: Page) => ReturnType<Page['getByTestId']> }[] = [
  { name: 'trade', path: '/trade/BTC_USDT', ready: (p) => p.getByTestId('kline-canvas').locator('canvas').first() },
  { name: 'markets', path: '/market', ready: (p) => p.locator('[data-testid^="market-row-"]:visible').first() },
  { name: 'deposit', path: '/wallet?modal=deposit&coin=BTC', ready: (p) => p.getByTestId('deposit-qr') },
  { name: 'withdraw', path: '/wallet?modal=withdraw&coin=USDT', ready: (p) => p.getByTestId('withdraw-limits') },
]

for (const lan of ['en_US', 'mn_MN'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`reference screenshots: ${lan} ${theme}`, async ({ page, request }) => {
      await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2', lan, stickyBar: '1' })
      const w = await walletUser(page, request, `shots-${lan.replace('_', '').toLowerCase()}-${theme}`)
      await fundByBank(request, w, '1500000')
      await fundByChain(request, w, 'USDT', 'BEP20', '2500', 15)
      for (const [width, viewport] of [
        [1440, WIDE],
        [390, PHONE],
      ] as const) {
        await page.setViewportSize(viewport)
        for (const s of SCREENS) {
          await page.goto(s.path)
          await expect(s.ready(page)).toBeVisible({ timeout: 20_000 })
          await expect(page.locator('html')).toHaveClass(new RegExp(theme))
          await page.waitForLoadState('networkidle', { timeout: 1500 }).catch(() => undefined)
          await page.screenshot({
            path: path.join(OUT, `${s.name}-${lan}-${theme}-${width}.jpeg`),
            type: 'jpeg',
            quality: 70,
            fullPage: width === 390 && !s.path.includes('modal='),
          })
        }
      }
    })
  }
}
