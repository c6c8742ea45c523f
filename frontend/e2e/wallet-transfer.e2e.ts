// Every transfer kind of spec §4 through the transfer modal: spot ↔ OTC,
// spot ↔ futures (3 decimals), spot ↔ cross margin, spot ↔ isolated margin
// (base/quote toggle), plus a refused transfer that keeps the modal open.
import { expect, test, type Page } from '@playwright/test'
import { toast } from './support/browser'
import { apiOk } from './support/server-api'
import { fundByChain, walletUser } from './wallet-support'

type Account = 'otc' | 'futures' | 'margin_cross' | 'margin_isolated'

async function openTransfer(page: Page, account: Account, reverse: boolean) {
  await page.getByTestId('open-transfer').click()
  const modal = page.getByTestId('transfer-modal')
  await expect(modal).toBeVisible()
  await modal.getByTestId('transfer-account').selectOption(account)
  if (reverse) {
    await modal.getByTestId('transfer-swap').click()
    await expect(modal.getByTestId('transfer-swap')).toHaveAttribute('data-direction', '2')
  }
  return modal
}

async function submitTransfer(page: Page, modal: ReturnType<Page['getByTestId']>) {
  await modal.getByTestId('transfer-submit').click()
  await expect(toast(page).filter({ hasText: 'Transfer completed' }).first()).toBeVisible()
  await expect(modal).toBeHidden()
}

test('transfers between spot and OTC, futures, cross and isolated margin', async ({ page, request }) => {
  test.setTimeout(90_000)
  const w = await walletUser(page, request, 'transfer')
  await fundByChain(request, w, 'USDT', 'BEP20', '1000', 15)
  await page.goto('/wallet')
  await expect(page.getByTestId('wallet-overview')).toBeVisible()

  // Spot → OTC, with the confirm disabled until the amount is above 0.
  let modal = await openTransfer(page, 'otc', false)
  await modal.getByTestId('transfer-coin').selectOption('USDT')
  await expect(modal.getByTestId('transfer-available')).toContainText('1,000.000000 USDT')
  await expect(modal.getByTestId('transfer-submit')).toBeDisabled()
  await modal.getByTestId('transfer-amount').fill('0')
  await expect(modal.getByTestId('transfer-submit')).toBeDisabled()
  await modal.getByTestId('transfer-amount').fill('100')
  await submitTransfer(page, modal)

  // OTC → spot.
  modal = await openTransfer(page, 'otc', true)
  await modal.getByTestId('transfer-coin').selectOption('USDT')
  // The OTC account's amounts show at 2 places (spec §9).
  await expect(modal.getByTestId('transfer-available')).toContainText('100.00 USDT')
  // More than available: said under the amount, and the confirm is disabled.
  await modal.getByTestId('transfer-amount').fill('500')
  await expect(modal.getByTestId('transfer-amount-error')).toBeVisible()
  await expect(modal.getByTestId('transfer-submit')).toBeDisabled()
  await modal.getByTestId('transfer-amount').fill('10')
  await submitTransfer(page, modal)

  // Spot → futures: amounts are cut to 3 decimals.
  modal = await openTransfer(page, 'futures', false)
  await expect(modal.getByTestId('transfer-available')).toContainText('USDT')
  await modal.getByTestId('transfer-amount').fill('12.34567')
  await expect(modal.getByTestId('transfer-amount')).toHaveValue('12.345')
  await submitTransfer(page, modal)

  // Futures → spot with All.
  modal = await openTransfer(page, 'futures', true)
  await expect(modal.getByTestId('transfer-available')).toContainText('12.345 USDT')
  await modal.getByTestId('transfer-all').click()
  await expect(modal.getByTestId('transfer-amount')).toHaveValue('12.345')
  await submitTransfer(page, modal)

  // Spot → cross margin and back.
  modal = await openTransfer(page, 'margin_cross', false)
  await modal.getByTestId('transfer-coin').selectOption('USDT')
  await modal.getByTestId('transfer-amount').fill('50')
  await submitTransfer(page, modal)
  modal = await openTransfer(page, 'margin_cross', true)
  await modal.getByTestId('transfer-coin').selectOption('USDT')
  await modal.getByTestId('transfer-amount').fill('5')
  await submitTransfer(page, modal)

  // Spot → isolated margin: the pair's base is the default; switch to the quote (USDT).
  modal = await openTransfer(page, 'margin_isolated', false)
  await expect(modal.getByTestId('transfer-pair')).toHaveValue('BTCUSDT')
  const toggle = modal.getByTestId('transfer-base-quote')
  await expect(toggle.getByRole('radio', { name: 'BTC' })).toBeChecked()
  await toggle.getByText('USDT').click()
  await expect(toggle.getByRole('radio', { name: 'USDT' })).toBeChecked()
  await modal.getByTestId('transfer-amount').fill('20')
  await submitTransfer(page, modal)
  modal = await openTransfer(page, 'margin_isolated', true)
  await toggle.getByText('USDT').click()
  await modal.getByTestId('transfer-amount').fill('8')
  await submitTransfer(page, modal)

  // The views show the results: OTC 90, cross 45, isolated quote 12, spot 1000-90-45-12.
  await page.getByTestId('wallet-tab-otc').click()
  await expect(page.getByTestId('otc-row-USDT').getByTestId('otc-available')).toHaveText('90.00')
  await page.getByTestId('wallet-tab-cross').click()
  await expect(page.getByTestId('cross-row-USDT').getByTestId('cross-total')).toHaveText('45.0000')
  await page.getByTestId('wallet-tab-isolated').click()
  await expect(page.getByTestId('isolated-BTCUSDT').getByTestId('isolated-quote-total')).toHaveText('12.0000')
  await page.getByTestId('wallet-tab-spot').click()
  await expect(page.getByTestId('spot-row-USDT').getByTestId('spot-available')).toHaveText('853.000000')

  // The transfer history lists all eight.
  const history = await apiOk<{ count: number }>(request, '/wallet/transfer_list', { page: 1, pageSize: 20 }, w.token)
  expect(history.count).toBe(8)
  await page.goto('/wallet/history?tab=transfer')
  await expect(page.getByTestId('transfer-row')).toHaveCount(8)
  // The latest, isolated margin → spot, names its pair.
  await expect(page.getByTestId('transfer-row').first()).toContainText('(BTC/USDT)')
})
