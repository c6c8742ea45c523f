// The address book page and add-address modal, and the trade password with
// its 24-hour withdrawal ban.
import { expect, test } from '@playwright/test'
import { toast } from './support/browser'
import { latestCode } from './support/server-api'
import { pickAsset, walletUser } from './wallet-support'

const XRP_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'
const OP_TRADE_PASSWORD = 6

test('address book: add a memo address in two steps, list it, delete it', async ({ page, request }) => {
  await walletUser(page, request, 'address')
  await page.goto('/en_US/newAssets/addressMent')
  await expect(page.getByTestId('address-list-page')).toBeVisible()
  await expect(page.getByTestId('wallet-empty')).toBeVisible()

  await page.getByTestId('add-address').click()
  const modal = page.getByTestId('add-address-modal')
  await expect(modal.getByTestId('add-address-step-1')).toBeVisible()
  // MONT (bank only) is not offered and no Bank chain appears.
  await modal.getByTestId('asset-picker').click()
  await modal.getByTestId('asset-search').fill('MON')
  await expect(modal.getByTestId('asset-option-MONT')).toHaveCount(0)
  await modal.getByTestId('asset-search').fill('')
  await modal.getByTestId('asset-picker').click()
  await expect(modal.getByTestId('chain-Bank')).toHaveCount(0)

  // The memo field shows only for tag chains and is cleared when switching away.
  await pickAsset(page, modal, 'XRP')
  await modal.getByTestId('add-address-memo').fill('12345')
  await pickAsset(page, modal, 'BTC')
  await expect(modal.getByTestId('add-address-memo')).toHaveCount(0)
  await pickAsset(page, modal, 'XRP')
  await expect(modal.getByTestId('add-address-memo')).toHaveValue('')

  await modal.getByTestId('add-address-next').click()
  await expect(modal.getByText('Required').first()).toBeVisible()
  await modal.getByTestId('add-address-address').fill(XRP_ADDRESS)
  await modal.getByTestId('add-address-memo').fill('778899')
  await modal.getByTestId('add-address-label').fill('Cold wallet')
  await modal.getByTestId('add-address-next').click()
  await expect(modal.getByTestId('add-address-step-2')).toContainText(XRP_ADDRESS)
  await modal.getByTestId('add-address-submit').click()
  await expect(toast(page).filter({ hasText: 'Address saved' })).toBeVisible()
  await expect(modal).toBeHidden()

  const row = page.getByTestId('address-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('XRP')
  await expect(row).toContainText('Cold wallet')
  await expect(row).toContainText('778899')

  await row.getByTestId('delete-address').click()
  await page.getByTestId('confirm-delete').click()
  await expect(toast(page).filter({ hasText: 'Address deleted' })).toBeVisible()
  await expect(page.getByTestId('address-row')).toHaveCount(0)
})

// A first trade password bans nothing; a change bans withdrawals for 24 hours
// (spec §6): the Go tests of internal/wallet and httpapi change it twice, and
// the withdraw modal's test shows the ban's notice (a second change here would
// wait out the 90 s resend of the code).
test('trade password: validation on change, e-mail code, and a first password leaves withdrawals open', async ({ page, request }) => {
  const w = await walletUser(page, request, 'capital')
  await page.goto('/wallet?modal=tradePassword')
  const modal = page.getByTestId('trade-password-modal')
  // A first password bans nothing, so no 24 h warning is shown for it.
  await expect(modal.getByTestId('trade-password-submit')).toBeVisible()
  await expect(modal.getByTestId('trade-password-warning')).toHaveCount(0)
  await expect(modal.getByTestId('modal-title')).toHaveText('Set trade password')
  await modal.locator('input[name="newCapitalPwd"]').fill('Trade2026pass')
  await modal.locator('input[name="confirmCapitalPwd"]').fill('Trade2026pas')
  await expect(modal.getByText('Password entires do not match. Try again')).toBeVisible()
  await modal.locator('input[name="confirmCapitalPwd"]').fill('Trade2026pass')
  await expect(modal.getByText('Password entires do not match. Try again')).toHaveCount(0)
  await modal.getByTestId('send-code').click()
  await expect(modal.getByTestId('send-code')).toContainText(/Resend in (90|89|88)s/)
  const code = await latestCode(request, w.user.email, OP_TRADE_PASSWORD)
  await modal.locator('input[name="emailCode"]').fill(code)
  await modal.getByTestId('trade-password-submit').click()
  await expect(toast(page).filter({ hasText: 'Trade password set' })).toBeVisible()
  await expect(modal).toBeHidden()

  await page.getByTestId('open-withdraw').click()
  const withdraw = page.getByTestId('withdraw-modal')
  await expect(withdraw.getByTestId('withdraw-step-1')).toBeVisible()
  await expect(withdraw.getByTestId('withdraw-locked')).toHaveCount(0)
  // The back arrow on step 1 leaves the modal.
  await withdraw.getByTestId('modal-back').click()
  await expect(withdraw).toBeHidden()
})
