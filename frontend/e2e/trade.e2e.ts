// Spot trade page: a funded user sees the live book and chart, places and
// cancels a limit buy, then fills a market buy against the dev market maker,
// by total and by amount.
// Screenshots: frontend/test-results/screenshots/trade/.
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, setCookies, toast } from './support/browser'
import { apiOk } from './support/server-api'
import { fundByChain, walletUser } from './wallet-support'

/** The window the desktop page is made to fit without scrolling. */
const WIDE = { width: 1440, height: 900 }

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'trade')

/**
 * Records the page's /order/detail requests: the order form learns how its
 * orders end from the private socket's pushes, not by looking them up.
 */
function detailLooksOf(page: Page): string[] {
  const looks: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/order/detail')) looks.push(r.url())
  })
  return looks
}

async function shoot(page: Page, name: string, theme: 'light' | 'dark', size: { width: number; height: number }) {
  await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2', stickyBar: '1' })
  await page.setViewportSize(size)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(new RegExp(theme))
  await expect(page.getByTestId('kline-canvas').locator('canvas').first()).toBeVisible()
  await expect(page.getByTestId('kline-loading')).toHaveCount(0)
  // On a phone the form opens from the Buy / Sell bar.
  await expect(page.getByTestId(size.width < 500 ? 'mobile-trade-bar' : 'order-form')).toBeVisible()
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`), fullPage: size.width < 500 })
}

test('trade page: limit buy placed and cancelled, market buy filled', async ({ page, request }) => {
  test.setTimeout(120_000)
  const w = await walletUser(page, request, 'trade')
  await fundByChain(request, w, 'USDT', 'BEP20', '1000', 15)
  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1' })
  await page.setViewportSize(WIDE)
  const detailLooks = detailLooksOf(page)
  await page.goto('/trade/BTC_USDT')

  // Live market: the maker's book, the chart canvas and the ticker render.
  // The first render waits longer than the default 10 s: on a busy 2-core
  // machine (two browsers beside the server) the app's cold start has taken
  // 8-10 s before its first market call (seen with the server log: the book
  // rendered a moment after a 10 s wait ended).
  await expect(page.getByTestId('book-buy').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('book-sell').first()).toBeVisible()
  await expect(page.getByTestId('kline-canvas').locator('canvas').first()).toBeVisible()
  await expect(page.getByTestId('last-price')).not.toHaveText('—')
  await expect(page.getByTestId('available-balance')).toContainText('1,000.000000 USDT')

  // At 1440 × 900 every panel fits the window: the page itself does not scroll.
  await expect(page.getByTestId('market-list')).toBeVisible()
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0)
  // The tab's title carries the live price.
  await expect(page).toHaveTitle(/^[\d,]+\.\d{2} \| BTC\/USDT \| Tenger$/)
  // The book shows cumulative totals and the spread; one side at a time on demand.
  await expect(page.getByTestId('book-spread')).toContainText('%')
  await page.getByTestId('book-view-bids').click()
  await expect(page.getByTestId('book-view-bids')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('book-sell')).toHaveCount(0)
  await page.getByTestId('book-view-both').click()
  // RSI in its own pane, from the indicators menu.
  await page.getByTestId('indicators-trigger').click()
  await page.getByTestId('indicator-rsi').click()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('legend-rsi')).toBeVisible()

  // A buy limit 10% above the last price asks first; cancelled, nothing is sent.
  let creates = 0
  page.on('request', (r) => {
    if (r.url().endsWith('/order/create')) creates += 1
  })
  const last = Number((await page.getByTestId('last-price').innerText()).replace(/,/g, ''))
  await page.getByTestId('price-input').fill((last * 1.1).toFixed(2))
  await page.getByTestId('amount-input').fill('0.001')
  await page.getByTestId('order-submit').click()
  const confirm = page.getByTestId('order-confirm-dialog')
  await expect(confirm).toBeVisible()
  await expect(confirm.getByTestId('order-confirm-warning')).toContainText('above the last price')
  await confirm.getByTestId('order-confirm-cancel').click()
  await expect(confirm).toBeHidden()
  expect(creates).toBe(0)
  await page.getByTestId('price-input').fill('')
  await page.getByTestId('amount-input').fill('')

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
  await expect(open.first()).toContainText(Number(price).toLocaleString('en-US', { minimumFractionDigits: 2 }))
  // Resting in the book, it is never looked up (the fallback look would come at 2.5 s).
  await page.waitForTimeout(3500)
  expect(detailLooks).toEqual([])

  // Cancel it.
  await open.first().getByTestId('cancel-order').click()
  await expect(page.getByTestId('open-orders-empty')).toBeVisible()

  // A market buy of 50 USDT fills against the maker's asks.
  await page.getByTestId('order-type').selectOption('MARKET')
  await page.getByTestId('total-input').fill('50')
  await page.getByTestId('order-submit').click()
  await page.getByTestId('tab-trade-history').click()
  await expect(page.getByTestId('trade-history-table').getByTestId('trade-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('trade-history-table')).toContainText('Buy')
  // Fees line up at the ledger's 8 places (the buy's fee is taken in BTC).
  await expect(page.getByTestId('trade-history-table').getByTestId('trade-row').first()).toContainText(/\d\.\d{8} BTC/)
  expect(detailLooks).toEqual([])

  // Book click fills the price.
  await page.getByTestId('order-type').selectOption('LIMIT')
  const level = page.getByTestId('book-sell').last()
  await level.click()
  await expect(page.getByTestId('price-input')).not.toHaveValue('')

  // The market list beside the chart switches the pair without loading the page.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
  await page.getByTestId('market-list').locator('[data-testid="market-list-row"][data-symbol="ETH_USDT"], [data-testid="market-list-row"][data-symbol="ethusdt"]').first().click()
  await expect(page).toHaveURL(/\/trade\/ETH_USDT$/)
  await expect(page).toHaveTitle(/\| ETH\/USDT \| Tenger$/)
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
  await page.goto('/trade/BTC_USDT')

  for (const theme of ['light', 'dark'] as const) {
    await shoot(page, 'desktop', theme, DESKTOP)
    await shoot(page, 'phone', theme, PHONE)
  }
  // At 390 px the panels are tabs; the Sell button of the bar opens the form on the sell side in a sheet.
  await page.getByTestId('mobile-tab-book').click()
  await expect(page.getByTestId('book-buy').first()).toBeVisible()
  await page.getByTestId('mobile-tab-trades').click()
  await expect(page.getByTestId('market-trade').first()).toBeVisible()
  await page.getByTestId('mobile-sell').click()
  const sheet = page.getByTestId('mobile-order-sheet')
  await expect(sheet).toBeVisible()
  await expect(sheet.getByTestId('order-submit')).toBeVisible()
  await expect(sheet.getByTestId('order-submit')).toContainText('Sell')
})

test('trade page: market buy by amount fills and gives the unspent balance back', async ({ page, request }) => {
  test.setTimeout(90_000)
  const w = await walletUser(page, request, 'trade-by-amount')
  await fundByChain(request, w, 'USDT', 'BEP20', '1000', 15)
  // Wait for the maker's asks and buy about 30 USDT worth, well within them.
  type Depth = { buys: [string, string][]; asks: [string, string][] }
  let asks: [string, string][] = []
  await expect
    .poll(
      async () => {
        asks = (await apiOk<Depth>(request, '/market/depth', { symbol: 'btcusdt', limit: 5 }, w.token)).asks
        return asks.length
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0)
  const best = Number(asks[0][0])
  const amount = (Math.floor((30 / best) * 1e6) / 1e6).toFixed(6)
  expect(asks.reduce((sum, [, v]) => sum + Number(v), 0)).toBeGreaterThan(Number(amount))
  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1' })
  await page.setViewportSize(DESKTOP)
  const detailLooks = detailLooksOf(page)
  await page.goto('/trade/BTC_USDT')
  await expect(page.getByTestId('available-balance')).toContainText('1,000.000000 USDT')

  // A market buy is by Total unless Amount is picked; Amount trades the
  // total field for the amount, with a note on the hold and no slider.
  await page.getByTestId('order-type').selectOption('MARKET')
  await expect(page.getByTestId('market-by-total')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('total-input')).toBeVisible()
  await page.getByTestId('market-by-amount').click()
  await expect(page.getByTestId('market-by-amount')).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('total-input')).toHaveCount(0)
  await expect(page.getByTestId('amount-input-hint')).toHaveText('Holds your available USDT (at most the amount at the last price plus 50%) while it matches; what it does not spend comes back at once.')
  const slider = page.getByRole('slider', { name: 'Share of the available balance' })
  await expect(slider).toHaveAttribute('aria-disabled', 'true')
  await expect(page.getByTestId('percent-value')).toHaveText('0%')

  const sent = page.waitForRequest((r) => r.url().endsWith('/order/create'))
  await page.getByTestId('amount-input').fill(amount)
  await page.getByTestId('order-submit').click()
  const body = (await sent).postDataJSON()
  expect(body).toMatchObject({ symbol: 'btcusdt', side: 'BUY', type: 'MARKET', volume: amount })
  expect(body).not.toHaveProperty('quoteVolume')
  // The idempotency key a retry after no answer would send again.
  expect(body.clientOrderId).toMatch(/^[A-Za-z0-9-]{8,64}$/)
  await expect(toast(page)).toBeVisible()

  // It fills the amount, as the order history says.
  await page.getByTestId('tab-order-history').click()
  const row = page.getByTestId('order-history-table').getByTestId('order-row').first()
  await expect(row).toContainText('Filled', { timeout: 15_000 })
  await expect(row).toContainText(amount)
  await expect(toast(page, 'warning')).toHaveCount(0)
  expect(detailLooks).toEqual([])

  // All the USDT was held while it matched; what it did not spend is back
  // (about 970 USDT available, nothing left frozen).
  const shown = async () => Number((await page.getByTestId('available-balance').textContent())?.replace(/[^\d.]/g, ''))
  await expect.poll(shown, { timeout: 15_000 }).toBeGreaterThan(900)
  expect(await shown()).toBeLessThan(1000)
  type Balances = { coinList: { coin: string; normal: string; freeze: string }[] }
  const usdt = (await apiOk<Balances>(request, '/finance/v5/account_balance', {}, w.token)).coinList.find((c) => c.coin.toUpperCase() === 'USDT')!
  expect(Number(usdt.freeze)).toBe(0)
  expect(Number(usdt.normal)).toBeGreaterThan(900)

  // An amount worth about twice the balance buys what the held funds (or the
  // book) reach; the form says how much was traded and that the rest was
  // cancelled, instead of leaving "Order placed" standing.
  const most = (Math.floor((2 * Number(usdt.normal) / best) * 1e6) / 1e6).toFixed(6)
  await page.getByTestId('amount-input').fill(most)
  await page.getByTestId('order-submit').click()
  const partial = toast(page, 'warning')
  await expect(partial).toContainText('Market order partly filled', { timeout: 15_000 })
  await expect(partial).toContainText(/(?!0\.0+ )\d+\.\d{6} BTC was traded/)
  await expect(row).toContainText('Partly filled, cancelled')
  expect(detailLooks).toEqual([])

  // At 390 px in dark mode and in Mongolian the choice and the note fit the form.
  await setCookies(page.context(), { cusSkin: '1', lan: 'mn_MN' })
  await page.setViewportSize(PHONE)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(/dark/)
  // The form opens from the Buy / Sell bar, in a sheet.
  await page.getByTestId('mobile-buy').click()
  await expect(page.getByTestId('mobile-order-sheet')).toBeVisible()
  await page.getByTestId('order-type').selectOption('MARKET')
  await page.getByTestId('market-by-amount').click()
  await expect(page.getByTestId('market-by-amount')).toHaveText('Тоо хэмжээ (BTC)')
  await expect(page.getByTestId('amount-input-hint')).toContainText('боломжит USDT үлдэгдлийг')
  const form = page.getByTestId('order-form')
  expect(await form.evaluate((f) => f.scrollWidth - f.clientWidth)).toBeLessThanOrEqual(0)
  // The orders panel's three tabs share the row (their names wrap) instead of running off its edge.
  const tabs = page.getByTestId('user-orders-tabs')
  expect(await tabs.evaluate((l) => l.scrollWidth - l.clientWidth)).toBeLessThanOrEqual(0)
  const panel = (await page.getByTestId('user-orders').boundingBox())!
  for (const id of ['tab-open-orders', 'tab-order-history', 'tab-trade-history']) {
    const box = (await page.getByTestId(id).boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width)
  }
  await form.scrollIntoViewIfNeeded()
  await form.screenshot({ path: path.join(OUT, 'market-by-amount-phone-dark.png') })
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
  // The trend line starts at the 24 h open, so a pair traded in the last hour has one too.
  await expect(page.getByTestId('market-row-BTC_USDT').getByTestId('sparkline')).toBeVisible({ timeout: 20_000 })
  // At 390 px the price and the 24 h change fit beside the pair (no sideways
  // scrolling, even with the long Mongolian headers) and the pair opens its trade page.
  await page.setViewportSize(PHONE)
  await expect(page.getByTestId('market-row-BTC_USDT')).toContainText('%')
  const overflow = await page.getByTestId('market-table').evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)
  expect(overflow).toBeLessThanOrEqual(1)
  await page.getByTestId('market-link-BTC_USDT').click()
  await expect(page).toHaveURL(/\/trade\/BTC_USDT$/)
  await expect(page.getByTestId('trade-header')).toContainText('BTC/USDT')
  await page.getByTestId('mobile-buy').click()
  await expect(page.getByTestId('mobile-order-sheet').getByTestId('trade-signin')).toBeVisible()
  // Margin trading is not live: its trade link goes to the maintenance page.
  await page.goto('/trade/BTC_USDT?type=margin')
  await expect(page).toHaveURL(/\/maintenance\?area=margin/)
  await expect(page.getByTestId('maintenance-page')).toBeVisible()
})

test('trade page: percentage slider, order outcomes and wide tables', async ({ page, request }) => {
  test.setTimeout(90_000)
  const w = await walletUser(page, request, 'trade-ui')
  await fundByChain(request, w, 'USDT', 'BEP20', '1000', 15)
  // The market maker fills both sides of the book within seconds of start;
  // wait until it has, the prices below are taken from it.
  type Depth = { buys: [string, string][]; asks: [string, string][] }
  let depth: Depth = { buys: [], asks: [] }
  await expect
    .poll(
      async () => {
        depth = await apiOk<Depth>(request, '/market/depth', { symbol: 'btcusdt', limit: 5 }, w.token)
        return depth.buys.length > 0 && depth.asks.length > 0
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const low = String(Math.floor(Number(depth.buys[0][0]) * 0.8))
  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1' })
  await page.setViewportSize(DESKTOP)
  const detailLooks = detailLooksOf(page)
  await page.goto('/trade/BTC_USDT')
  await expect(page.getByTestId('available-balance')).toContainText('1,000.000000 USDT')

  // The slider is a labelled, keyboard-driven control: End spends it all,
  // the amount cut to the 0.000001 BTC lot (never rounded up).
  await page.getByTestId('price-input').fill(low)
  const slider = page.getByRole('slider', { name: 'Share of the available balance' })
  await slider.focus()
  await slider.press('End')
  await expect(slider).toHaveAttribute('aria-valuenow', '100')
  const all = (Math.floor((1000 / Number(low)) * 1e6) / 1e6).toFixed(6)
  await expect(page.getByTestId('amount-input')).toHaveValue(all)
  expect(Number(await page.getByTestId('total-input').inputValue())).toBeLessThanOrEqual(1000)
  await slider.press('PageDown')
  await expect(page.getByTestId('percent-value')).toHaveText('90%')
  // A tap on a mark sets that share exactly; a typed amount moves the slider.
  await page.getByTestId('percent-mark-25').click()
  await expect(slider).toHaveAttribute('aria-valuenow', '25')
  await page.getByTestId('total-input').fill('500')
  await expect(slider).toHaveAttribute('aria-valuenow', '50')

  // A post-only buy above the best ask would take: the API accepts it, the
  // engine rejects it, and the form says so instead of "Order placed",
  // told by the private socket's push, without looking the order up.
  await page.getByTestId('order-type').selectOption('POST_ONLY')
  await page.getByTestId('price-input').fill((Number(depth.asks[0][0]) * 1.02).toFixed(2))
  await page.getByTestId('amount-input').fill('0.001')
  await page.getByTestId('order-submit').click()
  await expect(toast(page, 'warning')).toContainText('would have taken liquidity')
  await expect(toast(page)).toHaveCount(0)
  expect(detailLooks).toEqual([])

  // Open orders with long Mongolian texts at 1280 px: every column fits
  // without scrolling sideways, and the Cancel column stays pinned in view
  // on a solid ground.
  const stop = (Number(depth.asks[0][0]) * 1.5).toFixed(2)
  for (const type of ['LIMIT', 'STOP_LIMIT', 'POST_ONLY']) {
    await apiOk(request, '/order/create', { symbol: 'btcusdt', side: 'BUY', type, price: low, volume: '0.001', ...(type === 'STOP_LIMIT' ? { stopPrice: stop } : {}) }, w.token)
  }
  let open = 3
  for (const theme of ['light', 'dark'] as const) {
    await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2', lan: 'mn_MN' })
    await page.reload()
    const table = page.getByTestId('open-orders-table')
    await expect(table.getByTestId('order-row')).toHaveCount(open)
    const layout = await table.evaluate((t) => {
      const area = t.parentElement!.getBoundingClientRect()
      const cancel = t.querySelector('[data-testid=cancel-order]')!.getBoundingClientRect()
      const cell = t.querySelector('[data-testid=order-row] > td:last-child')!
      return {
        overflow: t.parentElement!.scrollWidth - t.parentElement!.clientWidth,
        inside: cancel.left >= area.left && cancel.right <= area.right,
        position: getComputedStyle(cell).position,
        bg: getComputedStyle(cell).backgroundColor,
      }
    })
    expect(layout.overflow).toBeLessThanOrEqual(0)
    expect(layout).toMatchObject({ inside: true, position: 'sticky' })
    expect(layout.bg).not.toBe('rgba(0, 0, 0, 0)')
    // And it cancels.
    await table.getByTestId('cancel-order').first().click()
    open -= 1
    await expect(table.getByTestId('order-row')).toHaveCount(open)
  }

  // At 390 px the chart's periods stay on one row.
  await page.setViewportSize(PHONE)
  const periods = page.getByTestId('period-row').getByRole('button')
  await expect(periods).toHaveCount(9)
  const tops = await periods.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)))
  expect(new Set(tops).size).toBe(1)

  // The BTC icon is drawn with paths: no font needed for the ₿ sign.
  const icon = await page.evaluate(async () => {
    const text = await (await fetch('/coins/btc.svg')).text()
    const img = new Image()
    img.src = `data:image/svg+xml;base64,${btoa(text)}`
    await img.decode()
    const canvas = document.createElement('canvas')
    canvas.width = canvas.height = 32
    const ctx = canvas.getContext('2d')!
    ctx.drawImage(img, 0, 0, 32, 32)
    const px = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data)
    return { hasText: text.includes('<text'), bar: px(16, 16), hole: px(16, 13), edge: px(3, 16) }
  })
  expect(icon.hasText).toBe(false)
  expect(icon.bar).toEqual([255, 255, 255, 255]) // the B's middle bar
  expect(icon.hole[0]).toBeGreaterThan(200) // orange inside the upper bowl
  expect(icon.hole[2]).toBeLessThan(100)
  expect(icon.edge[2]).toBeLessThan(100) // orange disc
})

