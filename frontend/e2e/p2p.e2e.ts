// P2P trading against `tenger serve --dev`: a merchant (verified, approved,
// USDT in the OTC account, a fund password: set up through the API) accepts
// the P2P notice, adds a bank account and publishes a SELL ad; a buyer in a
// second browser finds it on the market, buys, sees the payment countdown,
// writes in the chat and marks the order paid; the merchant reads the
// message and releases with the fund password; both see it completed (and
// the buyer's page once more on a phone, in Mongolian and dark). Then a
// second order is paid and appealed by the buyer, the operator decides for
// the buyer (/dev/p2p/appeal/decide) and the buyer reads the outcome. A
// third order is left unpaid; its time to pay ends (/dev/p2p/order/expire
// brings the deadline to now) and the timeout workflow cancels it. Both
// sides' P2P balances are checked after each order; e2e/run.mjs runs
// `tenger audit` on the server's data after the suite.
import { expect, test, type Browser, type Page } from '@playwright/test'
import path from 'node:path'
import { PHONE, setCookies, toast } from './support/browser'
import { baseURL } from './support/server-api'
import { FUND_PASSWORD, apiUser, expectOTC, merchantUser, otcOk } from './support/p2p'
import { DOCUMENT_PNG, dev, type WalletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'p2p')
/** An order change shows at the page's next read (every 4 s), on a busy machine a little later. */
const ORDER_WAIT = 15_000

/** A browser context signed in as `w` (the session cookie set directly), on a P2P page. */
async function signedIn(browser: Browser, w: WalletUser, cookies: Record<string, string> = {}): Promise<Page> {
  const context = await browser.newContext()
  await context.addCookies([{ name: 'token', value: w.token, url: baseURL }])
  await setCookies(context, cookies)
  return context.newPage()
}

test('P2P: bank account, SELL ad, buy, chat, paid, release; an appeal decided for the buyer; an unpaid order cancelled by the system', async ({ browser, request }) => {
  test.setTimeout(120_000)
  const [merchant, buyer] = await Promise.all([merchantUser(request, '500'), apiUser(request, 'p2p-buyer')])

  // The merchant: the P2P notice first (the checkbox before confirm), then a bank account.
  const m = await signedIn(browser, merchant)
  await m.goto('/p2p/payment-method')
  const notice = m.getByTestId('p2p-agreement')
  await expect(notice).toBeVisible()
  await expect(notice.getByTestId('p2p-agreement-confirm')).toBeDisabled()
  await notice.getByTestId('p2p-agreement-check').click()
  await notice.getByTestId('p2p-agreement-confirm').click()
  await expect(notice).toBeHidden()
  await expect(m.getByTestId('methods-empty')).toBeVisible()
  await m.getByTestId('method-add').click()
  const dialog = m.getByTestId('method-dialog')
  await dialog.getByTestId('method-kind').selectOption('bank')
  await dialog.getByTestId('method-bank').selectOption('KHAN')
  await expect(dialog.getByTestId('method-holder')).toHaveValue('Test User')
  await dialog.getByTestId('method-account').fill('12345')
  await dialog.getByTestId('method-submit').click()
  await expect(dialog.getByTestId('method-account-error')).toHaveText('Wrong IBAN format. It must have 18 digits.')
  await dialog.getByTestId('method-account').fill('123456789012345678')
  await dialog.getByTestId('method-submit').click()
  await expect(dialog).toBeHidden()
  await expect(m.getByTestId('method-card')).toHaveCount(1)
  await expect(m.getByTestId('method-account')).toHaveText('MN123456789012345678')

  // A SELL ad of 100 USDT at 3,500 MNT, 1,000–200,000 MNT an order, 15 minutes to pay.
  await m.getByTestId('p2p-nav-more').click()
  await m.getByTestId('p2p-more-publish-ad').click()
  const form = m.getByTestId('ad-form')
  await expect(form.getByTestId('ad-reference-rate')).toContainText('Reference rate')
  await expect(form.getByTestId('ad-balance')).toHaveText('Available in your P2P account: 500.00 USDT')
  await form.getByTestId('ad-price').fill('3500')
  await form.getByTestId('ad-volume').fill('100')
  await form.getByTestId('ad-min').fill('1000')
  await form.getByTestId('ad-max').fill('200000')
  await form.locator('[data-testid^="ad-method-"]').first().click()
  await expect(form.getByTestId('ad-methods').getByRole('checkbox')).toBeChecked()
  await form.getByTestId('ad-description').fill('Pay from an account in your own name.')
  await form.getByTestId('ad-submit').click()
  await expect(toast(m).filter({ hasText: 'Your ad is published' })).toBeVisible()
  await expect(m).toHaveURL(/\/p2p\/my-advertising$/)
  const adRow = m.getByTestId('my-ad-row')
  await expect(adRow).toHaveCount(1)
  await expect(adRow.getByTestId('my-ad-status')).toHaveText('Open')
  await expect(adRow.getByTestId('my-ad-price')).toHaveText('3,500.00 MNT')

  // The buyer finds it on the market and buys 35,000 MNT worth: 10 USDT.
  const b = await signedIn(browser, buyer, { isAgreeP2PAgreement: 'true' })
  await b.goto('/p2p/trading')
  // The merchant's ad (a retry's run leaves its first merchant's on the market too).
  const row = b.getByTestId('ad-row').filter({ has: b.locator(`a[href="/p2p/profile?uid=${merchant.uid}"]`) })
  await expect(row).toHaveCount(1)
  await expect(row.getByTestId('ad-price')).toHaveText('3,500.00 MNT')
  await expect(row.getByTestId('ad-available')).toHaveText('100.00 USDT')
  await expect(row.getByTestId('ad-limits')).toHaveText('1,000.00 – 200,000.00 MNT')
  await row.getByTestId('ad-trade').click()
  const trade = b.getByTestId('trade-dialog')
  await expect(trade.getByTestId('trade-time-limit')).toHaveText('15 min')
  await trade.getByTestId('trade-amount').fill('500')
  await trade.getByTestId('trade-submit').click()
  await expect(trade.getByTestId('trade-error')).toHaveText('The order must be at least 1,000.00 MNT.')
  await trade.getByTestId('trade-amount').fill('35000')
  await expect(trade.getByTestId('trade-volume')).toHaveValue('10')
  await trade.getByTestId('trade-submit').click()
  await expect(b).toHaveURL(/\/p2p\/order-detail\?id=\d+/)
  const orderId = new URL(b.url()).searchParams.get('id')!

  const bOrder = b.getByTestId('order-detail')
  await expect(bOrder.getByTestId('order-status')).toHaveText('Unpaid')
  await expect(bOrder.getByTestId('order-total')).toHaveText('35,000.00 MNT')
  await expect(bOrder.getByTestId('order-volume')).toHaveText('10 USDT')
  await expect(bOrder.getByTestId('order-countdown')).toHaveText(/^1[45]:\d\d$/)
  await expect(bOrder.getByTestId('order-account-number')).toHaveText('MN123456789012345678')
  await expect(bOrder.getByTestId('chat-system').first()).toHaveText(/Order created/)
  await bOrder.getByTestId('chat-input').fill('Paid from Khan Bank, reference 4411')
  await bOrder.getByTestId('chat-send').click()
  await expect(bOrder.getByTestId('chat-message').filter({ hasText: 'reference 4411' })).toHaveAttribute('data-author', 'me')
  await bOrder.getByTestId('chat-file').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: DOCUMENT_PNG })
  await expect(bOrder.getByTestId('chat-message').last().getByTestId('p2p-image')).toBeVisible()
  await bOrder.getByTestId('order-markPaid').click()
  await b.getByTestId('paid-confirm').click()
  await expect(bOrder.getByTestId('order-status')).toHaveText('Paid')
  await expect(bOrder.getByTestId('order-countdown')).toHaveCount(0)
  await expect(bOrder.getByTestId('order-markPaid')).toHaveCount(0)

  // The merchant: the order is in the sub-navigation's list, the message in the chat; release with the fund password.
  await expect(m.getByTestId('p2p-orders-dot')).toBeVisible({ timeout: ORDER_WAIT * 3 })
  await m.getByTestId('p2p-nav-orders').click()
  await m.getByTestId('p2p-processing-row').first().click()
  await expect(m).toHaveURL(new RegExp(`/p2p/order-detail\\?id=${orderId}$`))
  const mOrder = m.getByTestId('order-detail')
  await expect(mOrder.getByTestId('order-title')).toHaveText('Sell USDT')
  await expect(mOrder.getByTestId('order-status')).toHaveText('Paid')
  await expect(mOrder.getByTestId('chat-message').filter({ hasText: 'reference 4411' })).toHaveAttribute('data-author', 'peer')
  // The buyer's image, served to the other side too (chatMsg/image).
  await expect(mOrder.getByTestId('chat-message').filter({ has: m.getByTestId('p2p-image') })).toHaveAttribute('data-author', 'peer')
  await mOrder.getByTestId('order-release').click()
  const release = m.getByTestId('release-dialog')
  await release.getByTestId('release-password').fill('Wrong2026pass')
  await release.getByTestId('release-dialog-submit').click()
  await expect(toast(m, 'error')).toBeVisible()
  await expect(release).toBeVisible()
  await release.getByTestId('release-password').fill(FUND_PASSWORD)
  await release.getByTestId('release-dialog-submit').click()
  await expect(release).toBeHidden()
  await expect(mOrder.getByTestId('order-status')).toHaveText('Completed')
  await expect(mOrder.getByTestId('chat-system').last()).toHaveText(/The seller released the coins/)

  // The buyer sees it completed.
  await expect(bOrder.getByTestId('order-status')).toHaveText('Completed', { timeout: ORDER_WAIT })
  await expect(bOrder.getByTestId('order-notice')).toHaveText('Completed: 10 USDT is in your P2P account.')
  // 10 USDT moved from the merchant's escrow to the buyer; 90 still held for the ad.
  await expectOTC(request, merchant, '400.00', '90.00')
  await expectOTC(request, buyer, '10.00', '0.00')

  // On a phone, in Mongolian and the dark theme.
  await setCookies(b.context(), { lan: 'mn_MN', cusSkin: '1' })
  await b.setViewportSize(PHONE)
  await b.reload()
  await expect(b.locator('html')).toHaveClass(/\bdark\b/)
  await expect(bOrder.getByTestId('order-status')).toHaveText('Дууссан')
  await expect(bOrder.getByTestId('order-title')).toHaveText('USDT авах')
  await expect(b.getByTestId('p2p-subnav')).toContainText('P2P захиалга')
  const noScroll = await b.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
  expect(noScroll, 'the order page fits 390 px without scrolling sideways').toBe(true)
  await b.screenshot({ path: path.join(OUT, 'order-completed-mn-dark-390.png'), fullPage: true })
  await setCookies(b.context(), { lan: 'en_US', cusSkin: '2' })
  await b.setViewportSize({ width: 1280, height: 800 })

  // A second order: paid, then appealed by the buyer; the operator decides for the buyer.
  const ad = (await otcOk<{ list: { id: string }[] }>(request, '/otc/v4/person_ads', { uid: merchant.uid }, buyer.token)).list[0]
  const second = await otcOk<{ id: string }>(request, '/v4/otc/buy_order_save', { advertId: ad.id, totalPrice: '7000' }, buyer.token)
  await b.goto(`/p2p/order-detail?id=${second.id}`)
  await expect(bOrder.getByTestId('order-volume')).toHaveText('2 USDT')
  await bOrder.getByTestId('order-markPaid').click()
  await b.getByTestId('paid-confirm').click()
  await expect(bOrder.getByTestId('order-status')).toHaveText('Paid')
  await bOrder.getByTestId('order-appeal').click()
  const appeal = b.getByTestId('appeal-dialog')
  await appeal.getByTestId('appeal-dialog-submit').click()
  await expect(appeal).toContainText('Required')
  await appeal.getByTestId('appeal-reason').selectOption('paid_not_released')
  await appeal.getByTestId('appeal-description').fill('I paid 7,000 MNT from Khan Bank an hour ago; no release yet.')
  await appeal.getByTestId('appeal-dialog-submit').click()
  await expect(appeal).toBeHidden()
  await expect(bOrder.getByTestId('order-status')).toHaveText('In appeal')
  await expect(bOrder.getByTestId('order-appeal')).toHaveAttribute('data-appeal', 'open')
  await expect(bOrder.getByTestId('order-cancelAppeal')).toBeVisible()

  const res = await request.post(`${baseURL}/dev/p2p/appeal/decide`, { data: { orderId: second.id, outcome: 'release', note: 'Payment confirmed by the bank.' } })
  expect(res.ok()).toBeTruthy()
  await expect(bOrder.getByTestId('order-status')).toHaveText('Appeal decided', { timeout: ORDER_WAIT })
  await expect(bOrder.getByTestId('appeal-outcome')).toContainText('Decided: the coins were released to the buyer')
  await expect(bOrder.getByTestId('appeal-note')).toHaveText("Operator's note: Payment confirmed by the bank.")
  await expect(bOrder.getByTestId('chat-system').last()).toHaveText(/Support decided: the coins go to the buyer/)

  await expectOTC(request, merchant, '400.00', '88.00')
  await expectOTC(request, buyer, '12.00', '0.00')

  // A third order is never paid: its time to pay ends and the system cancels it; the coin goes back to the ad.
  const third = await otcOk<{ id: string }>(request, '/v4/otc/buy_order_save', { advertId: ad.id, totalPrice: '3500' }, buyer.token)
  await b.goto(`/p2p/order-detail?id=${third.id}`)
  await expect(bOrder.getByTestId('order-status')).toHaveText('Unpaid')
  await expect(bOrder.getByTestId('order-countdown')).toHaveText(/^1[45]:\d\d$/)
  await dev(request, '/dev/p2p/order/expire', { orderId: third.id })
  await expect(bOrder.getByTestId('order-notice')).toHaveText('The order was cancelled because it was not paid in time.', { timeout: ORDER_WAIT })
  await expect(bOrder.getByTestId('order-countdown')).toHaveCount(0)
  await expect(bOrder.getByTestId('order-markPaid')).toHaveCount(0)
  await expect(bOrder.getByTestId('chat-system').last()).toHaveText(/The order expired: it was not paid in time/)
  const left = (await otcOk<{ list: { id: string; volume: string }[] }>(request, '/otc/v4/person_ads', { uid: merchant.uid }, buyer.token)).list[0]
  expect(left).toMatchObject({ id: ad.id, volume: '88' })
  await expectOTC(request, merchant, '400.00', '88.00')
  await expectOTC(request, buyer, '12.00', '0.00')

  // All three orders are in the buyer's finished list.
  await b.goto('/order/otc?tab=finished')
  await expect(b.getByTestId('otc-order-row')).toHaveCount(3)
})
