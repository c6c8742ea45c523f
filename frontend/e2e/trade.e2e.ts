// Spot trade page: a funded user sees the live book and chart, places and
// cancels a limit buy, then fills a market buy against the dev market maker.
// Screenshots: frontend/test-results/screenshots/trade/.
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, setCookies, toast } from './support/browser'
import { apiOk } from './support/server-api'
import { fundByChain, walletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'trade')

async function shoot(page: Page, name: string, theme: 'light' | 'dark', size: { width: number; height: number }) {
  await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2', stickyBar: '1' })
  await page.setViewportSize(size)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(new RegExp(theme))
  await expect(page.getByTestId('kline-canvas').locator('canvas').first()).toBeVisible()
  await expect(page.getByTestId('kline-loading')).toHaveCount(0)
  await expect(page.getByTestId('order-form')).toBeVisible()
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`), fullPage: size.width < 500 })
}

test('trade page: limit buy placed and cancelled, market buy filled', async ({ page, request }) => {
  test.setTimeout(60_000)
  const w = await walletUser(page, request, 'trade')
  await fundByChain(request, w, 'USDT', 'BEP20', '1000', 15)
  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1' })
  await page.setViewportSize(DESKTOP)
  await page.goto('/trade/BTC_USDT')

  // Live market: the maker's book, the chart canvas and the ticker render.
  await expect(page.getByTestId('book-buy').first()).toBeVisible()
  await expect(page.getByTestId('book-sell').first()).toBeVisible()
  await expect(page.getByTestId('kline-canvas').locator('canvas').first()).toBeVisible()
  await expect(page.getByTestId('last-price')).not.toHaveText('—')
  await expect(page.getByTestId('available-balance')).toContainText('1000.00 USDT')

  // Limit buy well below the best bid rests in the book.
  const depth = await apiOk<{ buys: [string, string][] }>(request, '/market/depth', { symbol: 'btcusdt', limit: 5 }, w.token)
  const price = String(Math.floor(Number(depth.buys[0][0]) * 0.8))
  await page.getByTestId('price-input').fill(price)
  await page.getByTestId('amount-input').fill('0.001')
  await expect(page.getByTestId('total-input')).not.toHaveValue('')
  await page.getByTestId('order-submit').click()
  await expect(toast(page)).toBeVisible()
  const open = page.getByTestId('open-orders-table').getByTestId('order-row')
  await expect(open).toHaveCount(1)
  await expect(open.first()).toContainText(Number(price).toFixed(2))

  // Cancel it.
  await open.first().getByTestId('cancel-order').click()
  await expect(page.getByTestId('open-orders-empty')).toBeVisible()

  // A market buy of 50 USDT fills against the maker's asks.
  await page.getByTestId('order-type').selectOption('MARKET')
  await page.getByTestId('total-input').fill('50')
  await page.getByTestId('order-submit').click()
  await page.getByTestId('tab-trade-history').click()
  await expect(page.getByTestId('trade-history-table').getByTestId('trade-row').first()).toBeVisible({ timeout: 15_000 })
  await expect(page.getByTestId('trade-history-table')).toContainText('Buy')

  // Book click fills the price.
  await page.getByTestId('order-type').selectOption('LIMIT')
  const level = page.getByTestId('book-sell').last()
  await level.click()
  await expect(page.getByTestId('price-input')).not.toHaveValue('')

  for (const theme of ['light', 'dark'] as const) {
    await shoot(page, 'desktop', theme, DESKTOP)
    await shoot(page, 'phone', theme, PHONE)
  }
  // At 390 px the panels are tabs and the form stays usable.
  await page.getByTestId('mobile-tab-book').click()
  await expect(page.getByTestId('book-buy').first()).toBeVisible()
  await page.getByTestId('mobile-tab-trades').click()
  await expect(page.getByTestId('market-trade').first()).toBeVisible()
  await expect(page.getByTestId('order-submit')).toBeVisible()
})

test('trade page: anonymous users get a log-in prompt', async ({ page }) => {
  await setCookies(page.context(), { stickyBar: '1', lan: 'mn_MN' })
  await page.goto('/trade/BTC_USDT')
  await expect(page.getByTestId('trade-signin')).toContainText('нэвтэрнэ үү')
  await expect(page.getByTestId('order-book')).toBeVisible()
  // The market list gets live prices and a 24 h trend column from /market/tickers.
  await page.goto('/market')
  await expect(page.getByTestId('market-table')).toContainText('24ц хандлага')
  await expect(page.getByTestId('market-row-BTC_USDT')).toBeVisible()
  // Margin trading is not live: its trade link goes to the maintenance page.
  await page.goto('/trade/BTC_USDT?type=margin')
  await expect(page).toHaveURL(/\/maintenance\?area=margin/)
  await expect(page.getByTestId('maintenance-page')).toBeVisible()
})
