// The account security page: Google authenticator on, then a sign-in that
// needs the TOTP step; nickname and password changes; the histories.
import { expect, test } from '@playwright/test'
import { signInWithApi, signOutWithUserMenu, submitLoginForm, toast } from './support/browser'
import { latestCode, OP_BIND_PHONE, OP_LOGIN_SMS, OP_SECURITY, registerUser, uniqueMobile } from './support/server-api'
import { timeStep, totp } from './support/totp'

test('turn on the Google authenticator, sign out, sign in again with the TOTP step', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const user = await registerUser(request, 'google')

  await page.goto('/profile/security')
  await submitLoginForm(page, user)
  await expect(page).toHaveURL(/\/profile\/security$/)
  await expect(page.getByTestId('google-status')).toHaveText('Off')

  await page.getByTestId('google-toggle').click()
  const dialog = page.getByTestId('google-on-dialog')
  await expect(dialog.getByTestId('google-qr')).toBeVisible()
  const secret = (await dialog.getByTestId('google-secret').textContent())?.trim() ?? ''
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/)

  // Copy shows a checkmark label for 3 seconds (spec §4).
  await dialog.getByTestId('copy-secret').click()
  await expect(dialog.getByTestId('copy-secret')).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
  await expect(dialog.getByTestId('copy-secret')).toHaveText('Copy', { timeout: 5000 })

  // A wrong code is refused with the spec message before any request.
  await dialog.locator('input[name="googleCode"]').fill('12')
  await dialog.locator('button[type="submit"]').click()
  await expect(dialog.getByText('Please enter a 6-digit verification code')).toBeVisible()

  const enableStep = timeStep()
  await dialog.locator('input[name="googleCode"]').fill(totp(secret))
  await dialog.locator('input[name="loginPwd"]').fill(user.password)
  await dialog.locator('button[type="submit"]').click()
  await expect(dialog).toBeHidden()
  await expect(toast(page).filter({ hasText: 'Google Authenticator turned on' })).toBeVisible()
  await expect(page.getByTestId('google-status')).toHaveText('On')
  await expect(page.getByTestId('google-toggle')).toHaveText('Turn off')

  // The settings history records the change.
  await page.getByRole('tab', { name: 'Security settings history' }).click()
  await expect(page.getByTestId('setting-history')).toContainText('Google authenticator turned on')

  await signOutWithUserMenu(page)
  await page.goto('/auth/login?redirect=%2Fprofile%2Fsecurity')
  await submitLoginForm(page, user)
  const verify = page.getByTestId('login-verify')
  await expect(verify).toBeVisible()
  await expect(verify.getByText('Google authenticator code')).toBeVisible()

  // The server never accepts a time step twice; it allows one step of skew,
  // so the step after the one used to turn it on is always accepted.
  const step = Math.max(timeStep(), enableStep + 1)
  await verify.locator('input[name="authCode"]').fill(totp(secret, step * 30_000))
  await verify.locator('button[type="submit"]').click()
  await expect(page).toHaveURL(/\/profile\/security$/)
  await expect(page.getByTestId('google-status')).toHaveText('On')
})

test('nickname and password changes from the security page', async ({ page, request }) => {
  const user = await registerUser(request, 'settings')
  await signInWithApi(page, user)
  await page.goto('/profile/security')
  await expect(page.getByTestId('user-email')).toHaveText(user.email)
  await expect(page.getByTestId('user-info')).toContainText('Unverified')

  await page.getByTestId('user-info').getByRole('button', { name: 'Edit' }).click()
  await page.locator('input[name="nickName"]').fill('Бат-Эрдэнэ')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByTestId('user-nickname')).toHaveText('Бат-Эрдэнэ')

  await page.getByTestId('password-action').click()
  const dialog = page.getByTestId('password-dialog')
  await dialog.locator('input[name="loginPword"]').fill(user.password)
  await dialog.locator('input[name="newLoginPword"]').fill('Another2026pass')
  await dialog.locator('input[name="confirmPassword"]').fill('Another2026pas')
  await dialog.locator('button[type="submit"]').click()
  await expect(dialog.getByText('Password entires do not match. Try again')).toBeVisible()
  await dialog.locator('input[name="confirmPassword"]').fill('Another2026pass')
  await dialog.locator('button[type="submit"]').click()
  await expect(dialog).toBeHidden()
  await expect(toast(page).filter({ hasText: 'Password changed' })).toBeVisible()

  await expect(page.getByTestId('login-history')).toContainText('127.0.0.1')
  await page.getByRole('tab', { name: 'Security settings history' }).click()
  await expect(page.getByTestId('setting-history')).toContainText('Password changed')
  await expect(page.getByTestId('setting-history')).toContainText('Nickname changed')
})

test('bind a phone, turn on the SMS check, then sign in with the SMS step', async ({ page, request }) => {
  const user = await registerUser(request, 'sms')
  const mobile = uniqueMobile()
  await signInWithApi(page, user)
  await page.goto('/profile/security')
  await expect(page.getByTestId('phone-status')).toHaveText('No phone number bound')
  await expect(page.getByTestId('mobile-check-toggle')).toBeDisabled()

  await page.getByTestId('phone-action').click()
  const phone = page.getByTestId('phone-dialog')
  await phone.locator('select[name="countryCode"]').selectOption('976')
  await phone.locator('input[name="mobileNumber"]').fill(mobile)
  await phone.getByRole('button', { name: 'Send code' }).click()
  await expect(phone.getByRole('button', { name: /Resend in \d+s/ })).toBeDisabled()
  await phone.locator('input[name="smsAuthCode"]').fill(await latestCode(request, mobile, OP_BIND_PHONE))
  await phone.locator('button[type="submit"]').click()
  await expect(phone).toBeHidden()
  await expect(page.getByTestId('phone-status')).toHaveText(`+976 ${mobile.slice(0, 4)} ${mobile.slice(4)}`)

  await page.getByTestId('mobile-check-toggle').click()
  const check = page.getByTestId('mobile-check-dialog')
  await check.getByRole('button', { name: 'Send code' }).click()
  await check.locator('input[name="smsAuthCode"]').fill(await latestCode(request, mobile, OP_SECURITY))
  await check.locator('button[type="submit"]').click()
  await expect(check).toBeHidden()
  await expect(page.getByTestId('mobile-check-status')).toHaveText('On')

  await signOutWithUserMenu(page)
  await page.goto('/auth/login')
  // Sign in by phone this time.
  const form = page.getByTestId('login-form')
  await form.getByRole('tab', { name: 'Phone' }).click()
  await form.locator('input[name="mobileNumber"]').fill(mobile)
  await form.locator('input[name="password"]').fill(user.password)
  await form.locator('button[type="submit"]').click()

  const verify = page.getByTestId('login-verify')
  await expect(verify.getByText('SMS verification code')).toBeVisible()
  // The server sent the code with the challenge, so resend starts counting at once.
  await expect(verify.getByRole('button', { name: /Resend in (90|89|88|87)s/ })).toBeDisabled()
  await verify.locator('input[name="authCode"]').fill('123')
  await verify.locator('button[type="submit"]').click()
  await expect(verify.getByText('Please enter a 6-digit verification code')).toBeVisible()
  await verify.locator('input[name="authCode"]').fill(await latestCode(request, mobile, OP_LOGIN_SMS))
  await verify.locator('button[type="submit"]').click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByTestId('user-menu-trigger')).toBeVisible()
})
