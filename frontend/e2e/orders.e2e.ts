// Spot orders page (/order/spot): a funded user places orders (on the trade
// page and through the API), finds them on the orders page through the user
// menu, cancels one, pages through the order history, filters it, opens an
// order's fills, opens the order's own page (/order/spot/<id>) from the panel
// and by URL; then the same at 390 px in Mongolian; someone else's order and
// unknown ids are "not found"; and signed-out visitors go to the login page
// and come back.
// Screenshots: frontend/test-results/screenshots/orders/.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, setCookies, submitLoginForm, toast } from './support/browser'
import { apiOk, loginToken, registerUser } from './support/server-api'
import { fundByChain, walletUser, type WalletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'orders')

interface OrderList {
  count: number
  orderList: { order_id: string; status: number; deal_volume: string }[]
}

/**
 * A market buy ends FILLED, or CANCELLED with a part filled when the dev
 * market maker's asks run out (another test may be buying at the same
 * time): the tests read which, and expect the matching label.
 */
const MARKET_LABELS: Record<string, Record<number, string>> = {
  en_US: { 3: 'Filled', 4: 'Partly filled, cancelled' },
  mn_MN: { 3: 'Биелсэн', 4: 'Хэсэгчлэн биелээд цуцлагдсан' },
}

/** Places a market buy and waits until it has finished with something bought. */
async function marketBuy(request: APIRequestContext, w: WalletUser, quote: string): Promise<{ id: string; status: number }> {
  const { order_id: id } = await apiOk<{ order_id: string }>(
    request,
    '/order/create',
    { symbol: 'btcusdt', side: 'BUY', type: 'MARKET', quoteVolume: quote },
    w.token,
  )
  let status = 0
  await expect
    .poll(
      async () => {
        const list = await apiOk<OrderList>(request, '/order/entrust_history', { pageSize: 100 }, w.token)
        const o = list.orderList.find((x) => x.order_id === id)
        status = o?.status ?? 0
        return o ? Number(o.deal_volume) > 0 : false
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  expect([3, 4]).toContain(status)
  return { id, status }
}

/** A limit buy price well below the book (it rests) and the smallest volume worth 6+ USDT there. */
async function restingBuy(request: APIRequestContext, w: WalletUser): Promise<{ price: string; volume: string }> {
  const depth = await apiOk<{ buys: [string, string][] }>(request, '/market/depth', { symbol: 'btcusdt', limit: 5 }, w.token)
  const price = Math.floor(Number(depth.buys[0][0]) * 0.6)
  const volume = (Math.ceil((6 / price) * 1e6) / 1e6).toFixed(6)
  return { price: String(price), volume }
}

async function placeLimit(request: APIRequestContext, w: WalletUser, price: string, volume: string): Promise<string> {
  const { order_id } = await apiOk<{ order_id: string }>(
    request,
    '/order/create',
    { symbol: 'btcusdt', side: 'BUY', type: 'LIMIT', price, volume },
    w.token,
  )
  return order_id
}

/** Waits until the engine has settled: the user has `open` open orders and `finished` finished ones. */
async function settled(request: APIRequestContext, w: WalletUser, open: number, finished: number) {
  await expect
    .poll(async () => (await apiOk<OrderList>(request, '/order/list/new', { symbol: 'btcusdt' }, w.token)).count, { timeout: 15_000 })
    .toBe(open)
  await expect
    .poll(async () => (await apiOk<OrderList>(request, '/order/entrust_history', {}, w.token)).count, { timeout: 15_000 })
    .toBe(finished)
}

async function openUserMenuItem(page: Page, testId: string) {
  await page.getByTestId('user-menu-trigger').click()
  const menu = page.getByTestId('user-menu')
  await expect(menu).toHaveAttribute('data-state', 'open')
  // A click during the open animation is not a selection.
  await menu.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)))
  await page.getByTestId(testId).click()
}

async function shoot(
  page: Page,
  name: string,
  theme: 'light' | 'dark',
  size: { width: number; height: number },
  lan = 'en_US',
  pageTestId = 'orders-page',
) {
  await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2', stickyBar: '1', lan })
  await page.setViewportSize(size)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(new RegExp(theme))
  await expect(page.getByTestId(pageTestId)).toBeVisible()
  await expect(page.locator('[data-testid$="-loading"]')).toHaveCount(0)
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`), fullPage: true })
}

test('orders page: open orders, cancel, history pages and filters, order details', async ({ page, request }) => {
  test.setTimeout(120_000)
  const w = await walletUser(page, request, 'orders')
  await fundByChain(request, w, 'USDT', 'BEP20', '1000', 15)
  const { price, volume } = await restingBuy(request, w)

  // Eleven orders placed and cancelled at once: history material for two pages.
  for (let i = 0; i < 11; i++) {
    const id = await placeLimit(request, w, price, volume)
    await apiOk(request, '/order/cancel', { symbol: 'btcusdt', order_id: id }, w.token)
  }
  // A market buy that fills against the dev market maker.
  const market = await marketBuy(request, w, '20')
  await placeLimit(request, w, price, volume)
  await settled(request, w, 1, 12)

  // One more resting order through the trade page's form.
  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1', lan: 'en_US' })
  await page.setViewportSize(DESKTOP)
  await page.goto('/trade/BTC_USDT')
  await page.getByTestId('price-input').fill(price)
  await page.getByTestId('amount-input').fill(volume)
  await page.getByTestId('order-submit').click()
  await expect(toast(page)).toBeVisible()
  await expect(page.getByTestId('open-orders-table').getByTestId('order-row')).toHaveCount(2)
  // The panel's history pages too, and links to the full page.
  await page.getByTestId('tab-order-history').click()
  await expect(page.getByTestId('order-history-table').getByTestId('order-row')).toHaveCount(10)
  await expect(page.getByTestId('order-history-pager')).toBeVisible()

  // The user menu's orders link is live now and reaches the page.
  await openUserMenuItem(page, 'user-menu-orders')
  await expect(page).toHaveURL(/\/order\/spot$/)
  await expect(page).toHaveTitle('Orders | Tenger Exchange')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Spot orders')
  const open = page.getByTestId('open-orders')
  await expect(open).toHaveAttribute('data-layout', 'table')
  await expect(open.getByTestId('open-order')).toHaveCount(2)
  await expect(open.getByTestId('open-order').first()).toContainText('BTC/USDT')
  // Prices group thousands (58,411.00).
  await expect(open.getByTestId('open-order').first()).toContainText(Number(price).toLocaleString('en-US', { minimumFractionDigits: 2 }))
  await expect(open.getByTestId('order-status').first()).toHaveText('Open')

  // Cancel one from its row.
  await open.getByTestId('open-order').first().getByTestId('order-cancel').click()
  // The trade page's "Order placed" may still show: the pointer rested on it
  // (below the user menu, top right), which pauses its 5 s.
  await expect(toast(page).filter({ hasText: 'Order cancelled' })).toBeVisible()
  await expect(open.getByTestId('open-order')).toHaveCount(1)

  // The order history: 13 finished orders on two pages.
  await page.getByTestId('orders-tab-history').click()
  await expect(page).toHaveURL(/tab=history/)
  const history = page.getByTestId('order-history')
  await expect(page.getByTestId('history-count')).toHaveText('13 in total')
  await expect(history.getByTestId('history-order')).toHaveCount(10)
  await page.getByTestId('history-pager').getByRole('button', { name: 'Page 2' }).click()
  await expect(page).toHaveURL(/page=2/)
  await expect(history.getByTestId('history-order')).toHaveCount(3)
  await page.getByTestId('history-pager-prev').click()
  await expect(history.getByTestId('history-order')).toHaveCount(10)

  // Filter on the market buy's status: it is there, with its label.
  await page.getByTestId('filter-status').selectOption(String(market.status))
  await expect(page).toHaveURL(new RegExp(`status=${market.status}`))
  const filled = history.locator(`[data-testid="history-order"][data-key="${market.id}"]`)
  await expect(filled.getByTestId('order-status')).toHaveText(MARKET_LABELS.en_US[market.status])
  await expect(filled).toContainText('Market')
  await expect
    .poll(async () => new Set(await history.getByTestId('order-status').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))))
    .toEqual(new Set([String(market.status)]))

  // Its details list the fills.
  await filled.getByTestId('order-details').click()
  const detail = page.getByTestId('order-detail')
  await expect(detail).toBeVisible()
  await expect(detail.getByTestId('order-detail-heading')).toContainText('BTC/USDT')
  await expect(detail.getByTestId('order-detail-heading')).toContainText('Buy')
  await expect(detail.getByTestId('order-fill').first()).toBeVisible()
  await expect(detail.getByTestId('order-fill').first()).toContainText('Taker')

  // The panel opens the order's own page, which remembers the filtered list.
  await detail.getByTestId('order-detail-page-link').click()
  await expect(page).toHaveURL(new RegExp(`/order/spot/${market.id}\\?tab=history&status=${market.status}$`))
  await expect(detail).toHaveCount(0)
  const orderPage = page.getByTestId('order-page')
  await expect(orderPage.getByRole('heading', { level: 1 })).toHaveText('Order details')
  await expect(orderPage.getByTestId('order-detail-heading')).toContainText('BTC/USDT')
  await expect(orderPage.getByTestId('order-status')).toHaveText(MARKET_LABELS.en_US[market.status])
  await expect(orderPage.getByTestId('order-detail-order-id')).toContainText(market.id)
  await expect(orderPage.getByTestId('order-detail-price')).toContainText('Market')
  await expect(orderPage.getByTestId('order-fills')).toHaveAttribute('data-layout', 'table')
  await expect(orderPage.getByTestId('order-fill').first()).toContainText('Taker')
  // Fees line up at the ledger's 8 places, in the summary and on every fill.
  await expect(orderPage.getByTestId('order-detail-fee')).toContainText(/\d\.\d{8} BTC/)
  await expect(orderPage.getByTestId('order-fill').first()).toContainText(/\d\.\d{8} BTC/)
  await expect(orderPage.getByTestId('order-page-cancel')).toHaveCount(0)
  // Back to the list as it was: the history tab with the status filter.
  await orderPage.getByTestId('order-back').click()
  await expect(page).toHaveURL(new RegExp(`/order/spot\\?tab=history&status=${market.status}$`))
  await expect(page.getByTestId('filter-status')).toHaveValue(String(market.status))
  await expect(filled).toBeVisible()

  // The range is the last 7, 30, 90 or 180 days (the default), named in the app's language.
  const range = page.getByTestId('filter-range')
  await expect(range).toHaveValue('180')
  await range.selectOption('7')
  await expect(page).toHaveURL(/[?&]days=7(&|$)/)
  await expect(filled).toBeVisible()
  await page.getByTestId('filter-reset').click()
  await expect(range).toHaveValue('180')
  await expect(page.getByTestId('history-count')).toHaveText('13 in total')

  // The trade history has the market buy's fills.
  await page.getByTestId('orders-tab-trades').click()
  await expect(page.getByTestId('trade-history').getByTestId('history-trade').first()).toBeVisible()
  await expect(page.getByTestId('trade-history').getByTestId('history-trade').first()).toContainText('Buy')

  await page.getByTestId('orders-tab-history').click()
  for (const theme of ['light', 'dark'] as const) await shoot(page, 'desktop-history', theme, DESKTOP)
  await page.getByTestId('orders-tab-open').click()
  for (const theme of ['light', 'dark'] as const) await shoot(page, 'desktop-open', theme, DESKTOP)

  // An order's page opened by its address alone (a bookmark, a shared link).
  await page.goto(`/order/spot/${market.id}`)
  const byUrl = page.getByTestId('order-page')
  await expect(page).toHaveTitle('Orders | Tenger Exchange')
  await expect(byUrl.getByTestId('order-status')).toHaveText(MARKET_LABELS.en_US[market.status])
  await expect(byUrl.getByTestId('order-detail-filled')).not.toHaveText(/—/)
  await expect(byUrl.getByTestId('order-fill').first()).toBeVisible()
  await expect(byUrl.getByTestId('order-back')).toHaveAttribute('href', '/order/spot')
  for (const theme of ['light', 'dark'] as const) await shoot(page, 'desktop-order', theme, DESKTOP, 'en_US', 'order-page')
  await byUrl.getByTestId('order-trade-link').click()
  await expect(page).toHaveURL(/\/trade\/BTC_USDT$/)
})

test('orders page at 390 px in Mongolian: cards, cancel all, order details', async ({ page, request }) => {
  test.setTimeout(90_000)
  const w = await walletUser(page, request, 'orders-mn')
  await fundByChain(request, w, 'USDT', 'BEP20', '500', 15)
  const { price, volume } = await restingBuy(request, w)
  const market = await marketBuy(request, w, '15')
  await placeLimit(request, w, price, volume)
  await placeLimit(request, w, price, volume)
  // An IOC far below the book ends at once with nothing: its long Mongolian type name is checked in the wide table.
  await apiOk(request, '/order/create', { symbol: 'btcusdt', side: 'BUY', type: 'IOC', price, volume }, w.token)
  await settled(request, w, 2, 2)

  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1', lan: 'mn_MN' })
  await page.setViewportSize(PHONE)
  await page.goto('/')
  // The mobile menu's orders link reaches the page.
  await page.getByTestId('mobile-menu-button').click()
  await page.getByTestId('mobile-menu').getByTestId('mobile-menu-orders').click()
  await expect(page).toHaveURL(/\/order\/spot$/)
  await expect(page).toHaveTitle('Захиалгууд | Тэнгэр бирж')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Спот захиалгууд')

  const open = page.getByTestId('open-orders')
  await expect(open).toHaveAttribute('data-layout', 'cards')
  await expect(open.getByTestId('open-order')).toHaveCount(2)
  await expect(open.getByTestId('order-status').first()).toHaveText('Нээлттэй')
  // Nothing overflows sideways at 390 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  for (const theme of ['light', 'dark'] as const) await shoot(page, 'phone-open', theme, PHONE, 'mn_MN')

  // An open order's details from its card; nothing of it has traded.
  await open.getByTestId('open-order').first().getByTestId('order-details').click()
  const detail = page.getByTestId('order-detail')
  await expect(detail).toBeVisible()
  await expect(detail.getByTestId('order-fills-empty')).toHaveText('Энэ захиалгаас одоогоор арилжаа хийгдээгүй')
  await expect(detail.getByTestId('order-detail-cancel')).toBeVisible()
  await detail.getByTestId('order-detail-close').click()
  await expect(detail).toHaveCount(0)

  // Cancel all, after the confirmation.
  await page.getByTestId('orders-cancel-all').click()
  const dialog = page.getByTestId('cancel-all-dialog')
  await expect(dialog).toContainText('2')
  await dialog.getByTestId('cancel-all-confirm').click()
  await expect(toast(page).filter({ hasText: 'Нээлттэй захиалгууд цуцлагдлаа' })).toBeVisible()
  await expect(page.getByTestId('open-orders-empty')).toHaveText('Нээлттэй захиалга алга', { timeout: 15_000 })

  // History as cards, with the filled market order's fills.
  await page.getByTestId('orders-tab-history').click()
  const history = page.getByTestId('order-history')
  await expect(history).toHaveAttribute('data-layout', 'cards')
  await expect(history.getByTestId('history-order')).toHaveCount(4)
  await page.getByTestId('filter-status').selectOption(String(market.status))
  const bought = history.locator(`[data-testid="history-order"][data-key="${market.id}"]`)
  await expect(bought.getByTestId('order-status')).toHaveText(MARKET_LABELS.mn_MN[market.status])
  await bought.getByTestId('order-details').click()
  await expect(detail.getByTestId('order-fill').first()).toContainText('Тэйкер')
  await page.screenshot({ path: path.join(OUT, 'phone-detail.png') })
  await page.keyboard.press('Escape')
  await expect(detail).toHaveCount(0)
  for (const theme of ['light', 'dark'] as const) await shoot(page, 'phone-history', theme, PHONE, 'mn_MN')

  // At 1366 px the history is a table that fits its box: a long type ("Шууд эсвэл цуцлах") or status
  // ("Хэсэгчлэн биелээд цуцлагдсан") wraps in its cell instead of sliding under the pinned Details column.
  await page.getByTestId('filter-status').selectOption('')
  await page.setViewportSize({ width: 1366, height: 900 })
  await expect(history).toHaveAttribute('data-layout', 'table')
  await expect(history.getByTestId('history-order')).toHaveCount(4)
  expect(await history.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBeLessThanOrEqual(0)
  await page.setViewportSize(PHONE)

  // The market order's own page by URL at 390 px: fields, fill cards, nothing wider than the screen.
  await page.goto(`/order/spot/${market.id}`)
  const orderPage = page.getByTestId('order-page')
  await expect(orderPage.getByRole('heading', { level: 1 })).toHaveText('Захиалгын дэлгэрэнгүй')
  await expect(orderPage.getByTestId('order-status')).toHaveText(MARKET_LABELS.mn_MN[market.status])
  await expect(orderPage.getByTestId('order-fills')).toHaveAttribute('data-layout', 'cards')
  await expect(orderPage.getByTestId('order-fill').first()).toContainText('Тэйкер')
  await expect(orderPage.getByTestId('order-back')).toHaveText('Спот захиалгууд')
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
  for (const theme of ['light', 'dark'] as const) await shoot(page, 'phone-order', theme, PHONE, 'mn_MN', 'order-page')
  await orderPage.getByTestId('order-back').click()
  await expect(page).toHaveURL(/\/order\/spot$/)
  await expect(page.getByTestId('open-orders-empty')).toBeVisible()
})

test('order page: an unknown id or someone else\'s order is not found', async ({ page, request }) => {
  test.setTimeout(60_000)
  // The owner works through the API only; the viewer is signed in in the browser.
  const ownerUser = await registerUser(request, 'orders-owner')
  const ownerToken = await loginToken(request, ownerUser)
  const ownerInfo = await apiOk<{ id: string | number }>(request, '/common/user_info', {}, ownerToken)
  const owner: WalletUser = { user: ownerUser, token: ownerToken, uid: String(ownerInfo.id) }
  await fundByChain(request, owner, 'USDT', 'BEP20', '100', 15)
  const { price, volume } = await restingBuy(request, owner)
  const theirs = await placeLimit(request, owner, price, volume)
  // The owner sees it on its page (the API answers it for them).
  expect((await apiOk<{ order_id: string }>(request, '/order/detail', { order_id: theirs }, owner.token)).order_id).toBe(theirs)

  await walletUser(page, request, 'orders-viewer')
  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1', lan: 'en_US' })
  await page.setViewportSize(DESKTOP)
  const asked: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/order/detail')) asked.push(r.url())
  })
  await page.goto(`/order/spot/${theirs}?tab=history`)
  const missing = page.getByTestId('order-not-found')
  await expect(missing.getByRole('heading', { level: 1 })).toHaveText('Order not found')
  await expect(missing).toContainText(`There is no order ${theirs} in your account`)
  // Nothing of the order leaks, and "not found" is an answer, not an error: no toast, no retry loop.
  await expect(page.getByTestId('order-detail-fields')).toHaveCount(0)
  await expect(page.getByTestId('order-page-error')).toHaveCount(0)
  await expect(toast(page, 'error')).toHaveCount(0)
  // Asked once; then, for longer than the open-order poll (5 s), never again.
  expect(asked).toHaveLength(1)
  await page.waitForTimeout(6000)
  expect(asked).toHaveLength(1)
  await expect(toast(page, 'error')).toHaveCount(0)
  // Its back link goes to the list it names.
  await missing.getByTestId('order-not-found-back').click()
  await expect(page).toHaveURL(/\/order\/spot\?tab=history$/)
  await expect(page.getByTestId('order-history-empty')).toBeVisible()

  // An id that cannot be an order, and one that does not exist.
  for (const id of ['not-an-order', '987654321987654321']) {
    await page.goto(`/order/spot/${id}`)
    await expect(page.getByTestId('order-not-found')).toContainText(`There is no order ${id} in your account`)
    await expect(toast(page, 'error')).toHaveCount(0)
  }
  await page.screenshot({ path: path.join(OUT, 'desktop-not-found.png') })
})

test('orders page: signed-out visitors log in first and come back', async ({ page, request }) => {
  const user = await registerUser(request, 'orders-anon')
  await setCookies(page.context(), { stickyBar: '1', lan: 'en_US' })
  await page.goto('/order/spot?tab=history')
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Forder%2Fspot%3Ftab%3Dhistory$/)
  await submitLoginForm(page, user)
  await expect(page).toHaveURL(/\/order\/spot\?tab=history$/)
  await expect(page.getByTestId('order-history-empty')).toHaveText('No finished orders in this period')
})

test("order page: signed-out visitors log in first and come back to the order's address", async ({ page, request }) => {
  const user = await registerUser(request, 'orders-anon-page')
  await setCookies(page.context(), { stickyBar: '1', lan: 'en_US' })
  await page.goto('/order/spot/123456?tab=history')
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Forder%2Fspot%2F123456%3Ftab%3Dhistory$/)
  await submitLoginForm(page, user)
  await expect(page).toHaveURL(/\/order\/spot\/123456\?tab=history$/)
  // Not this new account's order.
  await expect(page.getByTestId('order-not-found')).toBeVisible()
})
