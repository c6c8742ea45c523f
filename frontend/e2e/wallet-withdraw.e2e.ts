// Withdrawals: a crypto withdrawal with the e-mail code from /dev/outbox
// (after the spec §8 errors), and a bank withdrawal approved on the bank
// simulator's page.
import { expect, test } from '@playwright/test'
import { toast } from './support/browser'
import { latestCode } from './support/server-api'
import { BTC_ADDRESS, fundByBank, fundByChain, verifyIdentity, walletUser } from './wallet-support'

const OP_WITHDRAW_EMAIL = 17

test('crypto withdrawal: three steps, spec errors, e-mail code from the outbox', async ({ page, request }) => {
  const w = await walletUser(page, request, 'withdraw-btc')
  await fundByChain(request, w, 'BTC', 'BTC', '0.5', 2)
  // 0.1 BTC is above an unverified user's daily limit (1000 USDT): the
  // withdrawal limit follows the verification level.
  await verifyIdentity(request, w)

  await page.goto('/wallet?modal=withdraw&coin=BTC')
  const modal = page.getByTestId('withdraw-modal')
  await expect(modal.getByTestId('withdraw-step-1')).toBeVisible()
  await expect(modal.getByTestId('asset-picker')).toContainText('BTC')
  await expect(modal.getByTestId('withdrawable')).toContainText('0.50000000 BTC')
  await expect(modal.getByTestId('daily-limit')).toContainText('USDT')
  await modal.getByTestId('withdraw-continue').click()

  // Step 2: the back arrow goes back one step, then on step 1 it would leave.
  await expect(modal.getByTestId('withdraw-step-2')).toBeVisible()
  await modal.getByTestId('modal-back').click()
  await expect(modal.getByTestId('withdraw-step-1')).toBeVisible()
  await modal.getByTestId('withdraw-continue').click()

  // The amount input keeps digits and one point; All fills the available balance.
  await modal.getByTestId('withdraw-amount').fill('0.1a.2')
  await expect(modal.getByTestId('withdraw-amount')).toHaveValue('0.12')
  await modal.getByTestId('withdraw-all').click()
  await expect(modal.getByTestId('withdraw-amount')).toHaveValue('0.50000000')
  await expect(modal.getByTestId('withdraw-fee')).toContainText('0.0002 BTC')
  await expect(modal.getByTestId('withdraw-main-chain-tip')).toHaveText(
    'Withdrawals on this network settle on the BTC main chain: send only to an address that can receive on it.',
  )

  // An invalid address is refused by the validity call as it is typed, at its field.
  const addressField = modal.getByTestId('withdraw-address')
  await addressField.fill('bc1notanaddress')
  await expect(modal.getByTestId('withdraw-address-error')).toHaveText('The address is not a valid BTC address')
  await expect(addressField).toHaveAttribute('aria-invalid', 'true')
  await addressField.fill(BTC_ADDRESS)
  await expect(modal.getByTestId('withdraw-address-valid')).toHaveText('Valid BTC address')
  await expect(addressField).not.toHaveAttribute('aria-invalid', 'true')

  // Below the minimum: refused as it is typed, before any code is sent, and nothing shown as received.
  await modal.getByTestId('withdraw-amount').fill('0.0005')
  await expect(modal.getByTestId('withdraw-amount-error')).toHaveText('The amount is below the minimum withdrawal (0.0010 BTC)')
  await expect(modal.getByTestId('withdraw-receive')).toHaveCount(0)
  await modal.getByTestId('withdraw-confirm-2').click()
  await expect(modal.getByTestId('withdraw-amount')).toBeFocused()
  const step3 = modal.getByTestId('withdraw-step-3')
  await expect(step3).toHaveCount(0)

  await modal.getByTestId('withdraw-amount').fill('0.1')
  await modal.getByTestId('withdraw-confirm-2').click()
  // Amount and received amount at the coin's precision (8 for BTC).
  await expect(step3.getByTestId('withdraw-summary')).toContainText('0.09980000 BTC')
  // Focus moves to the step's title, not to the page.
  await expect(modal.getByTestId('modal-title')).toBeFocused()
  // The 0.0002 BTC fee keeps its digits (fees show at least 2 places, never 0.00 for a real fee).
  await expect(step3.getByTestId('withdraw-summary')).toContainText('0.0002 BTC')

  // Codes: validated before the call, then a wrong code gets the 10009 text.
  await step3.locator('input[name="emailCode"]').fill('12')
  await step3.getByTestId('withdraw-submit').click()
  await expect(step3.getByText('Please enter a 6-digit verification code')).toBeVisible()
  await step3.getByTestId('send-email').click()
  await expect(step3.getByTestId('send-email')).toContainText(/Resend in \d+s/)
  // Back and forth between the steps keeps the countdown (the server would refuse a new code as too soon).
  await modal.getByTestId('modal-back').click()
  await modal.getByTestId('withdraw-confirm-2').click()
  await expect(step3.getByTestId('send-email')).toContainText(/Resend in \d+s/)
  await expect(step3.getByTestId('send-email')).toBeDisabled()
  const code = await latestCode(request, w.user.email, OP_WITHDRAW_EMAIL)
  const wrong = code === '000000' ? '111111' : '000000'
  await step3.locator('input[name="emailCode"]').fill(wrong)
  await step3.getByTestId('withdraw-submit').click()
  await expect(step3.getByTestId('withdraw-error')).toHaveText('The mobile or e-mail verification code is wrong')

  await step3.locator('input[name="emailCode"]').fill(code)
  await step3.getByTestId('withdraw-submit').click()
  await expect(toast(page).filter({ hasText: 'Withdrawal submitted' })).toBeVisible()
  await expect(modal).toBeHidden()

  await page.goto('/wallet/history?tab=withdraw')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deposit and withdrawal history')
  const row = page.getByTestId('withdraw-row').first()
  await expect(row).toContainText('BTC')
  await expect(row).toContainText('0.1')
  await expect(row.getByTestId('history-status')).toBeVisible()
  // Once sent, its transaction links the chain simulator's explorer (--dev), which shows it.
  const link = row.getByTestId('tx-explorer-link')
  await expect(link).toHaveAttribute('href', /^\/dev\/chain\/tx\?chain=BTC&txid=[0-9a-f]{64}$/, { timeout: 15_000 })
  const txPage = await page.request.get((await link.getAttribute('href')) ?? '')
  expect(txPage.status()).toBe(200)
  expect(await txPage.text()).toContain('sent by the exchange')
})

test('bank withdrawal: add a bank account with the IBAN rules, withdraw MNT, approve on the bank page', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const w = await walletUser(page, request, 'withdraw-bank')
  await fundByBank(request, w, '100000')

  await page.goto('/wallet?modal=withdraw&coin=MONT')
  const modal = page.getByTestId('withdraw-modal')
  await expect(modal.getByTestId('asset-picker')).toContainText('MONT')
  await modal.getByTestId('withdraw-continue').click()
  await expect(modal.getByTestId('chain-Bank')).toHaveAttribute('aria-pressed', 'true')
  await expect(modal.getByTestId('withdraw-main-chain-tip')).toHaveCount(0)

  // Add a bank account from the Add Bank link.
  await modal.getByTestId('add-bank-link').click()
  const bank = page.getByTestId('add-bank-modal')
  await expect(bank).toBeVisible()
  await bank.getByTestId('bank-select').selectOption({ index: 1 })
  await expect(bank.getByTestId('bank-holder')).toHaveAttribute('readonly', '')
  const iban = bank.getByTestId('bank-iban')
  // Typing keeps digits only, at most 18.
  await iban.fill('12ab345')
  await expect(iban).toHaveValue('12345')
  await expect(bank.getByTestId('iban-error')).toHaveText('Invalid IBAN format. It must have 18 digits.')
  // A paste must be MN followed by 18 digits.
  await page.evaluate(() => navigator.clipboard.writeText('MN12'))
  await iban.focus()
  await page.keyboard.press('ControlOrMeta+V')
  await expect(bank.getByTestId('iban-error')).toHaveText('Invalid IBAN format. It must start with MN and have 20 characters.')
  await page.evaluate(() => navigator.clipboard.writeText('MN123456789012345678'))
  await iban.focus()
  await page.keyboard.press('ControlOrMeta+V')
  await expect(iban).toHaveValue('123456789012345678')
  await expect(bank.getByTestId('iban-error')).toHaveCount(0)
  await bank.getByTestId('add-bank-submit').click()
  await expect(toast(page).filter({ hasText: 'Bank account added' })).toBeVisible()
  await expect(bank).toBeHidden()
  await expect(modal.getByTestId('withdraw-bank-select')).toContainText('MN123456789012345678')

  await modal.getByTestId('withdraw-amount').fill('20000')
  await modal.getByTestId('withdraw-confirm-2').click()
  const step3 = modal.getByTestId('withdraw-step-3')
  await expect(step3.getByTestId('withdraw-summary')).toContainText('MN123456789012345678')
  await step3.getByTestId('send-email').click()
  const code = await latestCode(request, w.user.email, OP_WITHDRAW_EMAIL)
  await step3.locator('input[name="emailCode"]').fill(code)
  await step3.getByTestId('withdraw-submit').click()

  // The answer's url is the bank's confirmation page; the browser goes there.
  await expect(page).toHaveURL(/\/dev\/bank\/confirm/)
  await page.getByRole('button', { name: /approve/i }).click()
  await page.goto('/wallet/history?tab=withdraw')
  const row = page.getByTestId('withdraw-row').first()
  await expect(row).toContainText('MNT')
  await expect(row.getByTestId('history-status')).toHaveAttribute('data-status', 'SUCCESS', { timeout: 15_000 })
})
