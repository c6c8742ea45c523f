// Flexible savings against `tenger serve --dev`: a new user funded with
// 1,500 USDT subscribes 1,000 on /savings with auto-subscribe on and sees it
// pending (it earns from the next UTC day); the earn service's clock moves
// two days on (/dev/earn/advance runs the daily settlement) and the page
// shows yesterday's interest by the formula, 1,000 × 6.5% ÷ 365 cut to 6
// decimals = 0.178082, and auto-subscribe has swept the other 500 in; a
// fast redemption of 100 reaches the spot account at once, and the wallet's
// earn view opens the same subscription dialog; the records list the
// subscriptions, the interest and the redemption. Last, the page once in
// Mongolian and dark on a 390 px phone, without sideways scrolling.
// e2e/run.mjs runs `tenger audit` on the server's data after the suite.
import { expect, test } from '@playwright/test'
import path from 'node:path'
import { PHONE, setCookies, toast } from './support/browser'
import { fundByChain, walletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'savings')

/** 1,000 USDT for one day at 6.5% a year: 1000 × 0.065 ÷ 365 = 0.17808219…, cut to the coin's 6 decimals. */
const DAY_INTEREST = '0.178082'

test('savings: subscribe with auto-subscribe, interest paid by the daily settlement, fast redemption, records', async ({ page, request }) => {
  test.setTimeout(60_000)
  const w = await walletUser(page, request, 'savings')
  await fundByChain(request, w, 'USDT', 'BEP20', '1500', 15)
  await setCookies(page.context(), { stickyBar: '1' })

  // The products: USDT at 6.50% a year, tiered, open.
  await page.goto('/savings')
  const product = page.getByTestId('product-USDT')
  await expect(product.getByTestId('product-apr-USDT')).toContainText('6.50%')
  await expect(product.getByTestId('tiers-USDT')).toContainText('Up to 10,000 USDT')
  await expect(page.getByTestId('savings-mine-empty')).toBeVisible()

  // Subscribe 1,000 USDT with auto-subscribe on; the field is checked as it is typed.
  await product.getByTestId('product-subscribe-USDT').click()
  const modal = page.getByTestId('subscribe-modal')
  await expect(modal.getByTestId('subscribe-available')).toContainText('1,500.000000 USDT')
  const amount = modal.getByTestId('subscribe-amount')
  await amount.fill('2000')
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await expect(modal.getByText('More than your available 1,500.000000 USDT')).toBeVisible()
  await expect(modal.getByTestId('subscribe-submit')).toBeDisabled()
  await amount.fill('1000')
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true')
  await expect(modal.getByTestId('subscribe-daily')).toContainText(`≈ ${DAY_INTEREST} USDT`)
  await page.screenshot({ path: path.join(OUT, 'subscribe-en-light-1280.png') })
  const auto = modal.getByTestId('subscribe-auto')
  await auto.click()
  await expect(auto).toHaveAttribute('data-state', 'checked')
  await modal.getByTestId('subscribe-submit').click()
  await expect(toast(page).filter({ hasText: 'Subscribed 1,000.000000 USDT' }).first()).toBeVisible()
  await expect(modal).toBeHidden()

  // Pending until the next UTC day, auto-subscribe on.
  const holding = page.getByTestId('holding-USDT')
  await expect(holding.getByTestId('holding-pending-USDT')).toHaveText('1,000.000000 USDT')
  await expect(holding.getByTestId('holding-earning-USDT')).toHaveText('0.000000 USDT')
  await expect(holding.getByTestId('holding-amount-USDT')).toHaveText('1,000.000000 USDT')
  await expect(holding.getByTestId('holding-auto-USDT')).toHaveAttribute('data-on', 'true')

  // Two days on: the next day's interest is paid; auto-subscribe then sweeps the spot balance in.
  const advanced = await page.request.post('/dev/earn/advance', { data: { days: 2 } })
  const answer = (await advanced.json()) as { code: string | number; msg: string; data: { settled: number; autoSubscribed: number } }
  expect(String(answer.code), answer.msg).toBe('0')
  await page.reload()
  await expect(holding.getByTestId('holding-yesterday-USDT')).toHaveText(`${DAY_INTEREST} USDT`)
  await expect(holding.getByTestId('holding-total-USDT')).toHaveText(`${DAY_INTEREST} USDT`)
  await expect(holding.getByTestId('holding-earning-USDT')).toHaveText(`1,000.${DAY_INTEREST.slice(2)} USDT`)
  await expect(holding.getByTestId('holding-pending-USDT')).toHaveText('500.000000 USDT')
  await expect(holding.getByTestId('holding-amount-USDT')).toHaveText(`1,500.${DAY_INTEREST.slice(2)} USDT`)
  await expect(page.getByTestId('interest-chart-sum')).toHaveText(`${DAY_INTEREST} USDT in the last 30 days`)
  await page.screenshot({ path: path.join(OUT, 'savings-en-light-1280.png'), fullPage: true })

  // Redeem 100 fast: into spot at once.
  await holding.getByTestId('holding-redeem-USDT').click()
  const redeem = page.getByTestId('redeem-modal')
  await expect(redeem.getByTestId('redeem-redeemable')).toContainText(`1,500.${DAY_INTEREST.slice(2)} USDT`)
  await expect(redeem.getByTestId('redeem-type-fast')).toBeChecked()
  await expect(redeem.getByTestId('redeem-option-standard')).toContainText("with today's interest")
  await redeem.getByTestId('redeem-amount').fill('100')
  await page.screenshot({ path: path.join(OUT, 'redeem-en-light-1280.png') })
  await redeem.getByTestId('redeem-submit').click()
  await expect(toast(page).filter({ hasText: '100.000000 USDT is in your spot account.' }).first()).toBeVisible()
  await expect(redeem).toBeHidden()
  await expect(holding.getByTestId('holding-amount-USDT')).toHaveText(`1,400.${DAY_INTEREST.slice(2)} USDT`)

  // The records: both subscriptions (the 1,000 and auto-subscribe's 500), the interest, the redemption.
  const records = page.getByTestId('savings-records')
  await expect(records.getByTestId('record-subscribe')).toHaveCount(2)
  await expect(records.getByTestId('record-interest')).toHaveCount(1)
  await expect(records.getByTestId('record-interest').getByTestId('record-amount')).toHaveText(`${DAY_INTEREST} USDT`)
  await expect(records.getByTestId('record-redeem_fast')).toHaveCount(1)
  await records.getByTestId('records-type').selectOption('interest')
  await expect(records.getByTestId('record-subscribe')).toHaveCount(0)
  await expect(records.getByTestId('record-interest')).toHaveCount(1)

  // The spot balance rose by the 100 (everything else is in savings); the wallet's earn view opens the same dialog.
  await page.goto('/wallet?view=spot')
  await expect(page.getByTestId('spot-row-USDT').getByTestId('spot-available')).toHaveText('100.000000')
  await page.getByTestId('wallet-tab-earn').click()
  await expect(page.getByTestId('earn-balance-USDT')).toHaveText(`1,400.${DAY_INTEREST.slice(2)}`)
  await page.getByTestId('earn-subscribe-USDT').click()
  await expect(page.getByTestId('subscribe-modal').getByTestId('subscribe-available')).toContainText('100.000000 USDT')
  await page.getByTestId('subscribe-modal').getByTestId('modal-close').click()
  await expect(page.getByTestId('subscribe-modal')).toBeHidden()

  // Once in Mongolian and dark on a phone: the page renders and nothing scrolls sideways.
  await setCookies(page.context(), { lan: 'mn_MN', cusSkin: '1' })
  await page.setViewportSize(PHONE)
  await page.goto('/savings')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Уян хатан хадгаламж')
  await expect(page.locator('html')).toHaveClass(/dark/)
  await expect(page.getByTestId('savings-products')).toHaveAttribute('data-layout', 'cards')
  await expect(page.getByTestId('holding-USDT').getByTestId('holding-yesterday-USDT')).toHaveText(`${DAY_INTEREST} USDT`)
  await expect(page.getByTestId('record-redeem_fast')).toContainText('Шуурхай буцаан авалт')
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
  await page.screenshot({ path: path.join(OUT, 'savings-mn-dark-390.png'), fullPage: true })
})
