// API management (/profile/api): a visitor signs in and comes back, creates an
// HMAC key that trades spot (the secret shown once), finds it in the list,
// restricts it to IPs under a new label, and deletes it.
import { expect, test } from '@playwright/test'
import { submitLoginForm, toast } from './support/browser'
import { latestCode, registerUser } from './support/server-api'

/** operationType of the e-mail code of a key change (the withdrawal's). */
const OP_WITHDRAW_EMAIL = 17

test('create an API key, see its secret once, edit its label and IPs, delete it', async ({ page, request }) => {
  const user = await registerUser(request, 'apikeys')

  await page.goto('/profile/api')
  await expect(page).toHaveURL(/\/auth\/login\?redirect=/)
  await submitLoginForm(page, user)
  await expect(page).toHaveURL(/\/profile\/api$/)
  await expect(page.getByTestId('api-key-empty')).toBeVisible()
  await expect(page.getByTestId('api-key-count')).toContainText('0 / 30')

  // Create: label, spot trading, no IP restriction; withdraw waits for an IP.
  await page.getByTestId('create-api-key').click()
  const form = page.getByTestId('api-key-form')
  await form.getByTestId('api-key-label').fill('E2E bot')
  await form.getByTestId('perm-spot').click()
  await expect(form.locator('input[name="perm-spot"]')).toBeChecked()
  await expect(form.locator('input[name="perm-withdraw"]')).toBeDisabled()
  await form.getByRole('button', { name: 'Next' }).click()

  const sendCode = form.getByTestId('send-email-code')
  await sendCode.click()
  // The countdown starts once the server has sent the code (it is in the outbox then).
  await expect(sendCode).toHaveText(/Resend in \d+s/)
  await form.locator('input[name="emailCode"]').fill(await latestCode(request, user.email, OP_WITHDRAW_EMAIL))
  await form.getByRole('button', { name: 'Create' }).click()

  // The secret, once.
  const secretDialog = page.getByTestId('api-key-secret-dialog')
  await expect(secretDialog).toContainText('cannot be shown again')
  const apiKey = ((await secretDialog.getByTestId('created-api-key').textContent()) ?? '').trim()
  const secret = ((await secretDialog.getByTestId('created-secret-key').textContent()) ?? '').trim()
  expect(apiKey).toMatch(/^[A-Za-z0-9]{64}$/)
  expect(secret).toMatch(/^[A-Za-z0-9]{64}$/)
  expect(secret).not.toBe(apiKey)
  await secretDialog.getByTestId('secret-saved').click()
  await expect(secretDialog).toBeHidden()
  await expect(page.locator('body')).not.toContainText(secret)

  // In the list: short key, Read and Spot, unrestricted as a warning, never used.
  const row = page.getByTestId('api-key-row').filter({ hasText: 'E2E bot' })
  await expect(row.getByTestId('api-key-short')).toHaveText(`${apiKey.slice(0, 8)}…${apiKey.slice(-6)}`)
  await expect(row.getByTestId('permission-badges')).toHaveText(/Read\s*Spot trading/)
  await expect(row.getByTestId('api-key-ips-cell')).toHaveAttribute('data-risk', 'true')
  await expect(row).toContainText('Never')
  await expect(page.getByTestId('api-key-count')).toContainText('1 / 30')
  // Still there after a reload: the server keeps it (without the secret).
  await page.reload()
  await expect(row.getByTestId('api-key-short')).toBeVisible()
  await expect(page.locator('body')).not.toContainText(secret)

  // Edit: a new label and an IP restriction (a range is kept masked).
  await row.getByRole('button', { name: 'Edit the API key "E2E bot"' }).click()
  await expect(form.getByTestId('api-key-label')).toHaveValue('E2E bot')
  await form.getByTestId('api-key-label').fill('E2E bot 2')
  await form.getByTestId('api-key-ip-mode').getByText('Only these IPs').click()
  const ips = form.getByTestId('api-key-ips')
  await ips.fill('203.0.113.7, 300.1.1.1\n')
  await expect(form).toContainText('Not an IP address or CIDR range: 300.1.1.1')
  await ips.fill('203.0.113.7\n10.0.0.7/24')
  await expect(form).not.toContainText('Not an IP address')
  await form.getByRole('button', { name: 'Next' }).click()
  await sendCode.click()
  await expect(sendCode).toHaveText(/Resend in \d+s/)
  await form.locator('input[name="emailCode"]').fill(await latestCode(request, user.email, OP_WITHDRAW_EMAIL))
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form).toBeHidden()
  await expect(toast(page).filter({ hasText: 'API key saved' })).toBeVisible()

  const edited = page.getByTestId('api-key-row').filter({ hasText: 'E2E bot 2' })
  await expect(edited.getByTestId('api-key-ips-cell')).toHaveText(/203\.0\.113\.7\s*10\.0\.0\.0\/24/)
  await expect(edited.getByTestId('api-key-short')).toHaveText(`${apiKey.slice(0, 8)}…${apiKey.slice(-6)}`)

  // Delete, after confirming.
  await edited.getByRole('button', { name: 'Delete the API key "E2E bot 2"' }).click()
  const confirm = page.getByTestId('delete-api-key-dialog')
  await expect(confirm).toContainText('E2E bot 2')
  await confirm.getByTestId('confirm-delete-api-key').click()
  await expect(toast(page).filter({ hasText: 'API key deleted' })).toBeVisible()
  await expect(page.getByTestId('api-key-empty')).toBeVisible()
  await expect(page.getByTestId('api-key-count')).toContainText('0 / 30')
})
