// Sign-up, sign-in, sign-out, the protected-page redirect, forgot password and
// the validation messages, driven through the real screens.
import { expect, test } from '@playwright/test'
import { cookieValue, PHONE, setCookies, signOutWithUserMenu, submitLoginForm, toast } from './support/browser'
import { api, latestCode, OP_FORGOT_PASSWORD, OP_REGISTER, registerUser, uniqueEmail } from './support/server-api'

test('register by e-mail with the outbox code: signed in at once; sign out, then sign in with the form', async ({ page, request }) => {
  const email = uniqueEmail('register')
  const password = 'Tenger2026pass'

  await page.goto('/auth/register')
  const form = page.getByTestId('register-form')
  await expect(form).toBeVisible()
  await form.locator('input[name="email"]').fill(email)
  await form.getByTestId('send-code').click()
  // The send button enters the 90-second countdown (spec §4).
  await expect(form.getByTestId('send-code')).toHaveText(/Resend in (90|89|88)s/)
  await expect(form.getByTestId('send-code')).toBeDisabled()

  const code = await latestCode(request, email, OP_REGISTER)
  expect(code).toMatch(/^\d{6}$/)
  await form.locator('input[name="code"]').fill(code)
  await form.locator('input[name="password"]').fill(password)
  await form.locator('input[name="confirmPassword"]').fill(password)
  await form.locator('label:has(input[name="agree"])').click()
  await form.locator('button[type="submit"]').click()

  // Registration signs the new account in: home, a success toast, the user menu.
  await expect(page).toHaveURL(/\/$/)
  await expect(toast(page).first()).toBeVisible()
  await page.getByTestId('user-menu-trigger').click()
  await expect(page.getByTestId('user-menu-name')).toHaveText(email)
  await page.keyboard.press('Escape')
  expect(await cookieValue(page.context(), 'token')).toBeTruthy()

  await signOutWithUserMenu(page)
  await expect(page).toHaveURL(/\/$/)
  expect(await cookieValue(page.context(), 'token')).toBeFalsy()

  // A wrong password is refused in the form; the right one signs in.
  await page.goto('/auth/login')
  const login = page.getByTestId('login-form')
  await login.locator('input[name="email"]').fill(email)
  await login.locator('input[name="password"]').fill(password + 'x')
  await login.locator('button[type="submit"]').click()
  await expect(login.getByTestId('login-refusal')).toBeVisible()
  await login.locator('input[name="password"]').fill(password)
  await login.locator('button[type="submit"]').click()
  await expect(page).toHaveURL(/\/$/)
  expect(await cookieValue(page.context(), 'token')).toBeTruthy()
})

test('register at 390 px in Mongolian: the countdown button and the code input both fit the card', async ({ page }) => {
  await setCookies(page.context(), { lan: 'mn_MN', stickyBar: '1' })
  await page.setViewportSize(PHONE)
  await page.goto('/auth/register')
  const form = page.getByTestId('register-form')
  await form.locator('input[name="email"]').fill(uniqueEmail('register-mn'))
  await form.getByTestId('send-code').click()
  await expect(form.getByTestId('send-code')).toHaveText(/секундын дараа дахин илгээх/)
  const card = (await form.boundingBox())!
  const input = (await form.locator('input[name="code"]').boundingBox())!
  const button = (await form.getByTestId('send-code').boundingBox())!
  expect(input.width).toBeGreaterThanOrEqual(120)
  expect(input.x + input.width).toBeLessThanOrEqual(card.x + card.width)
  expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width)
  expect(await form.evaluate((f) => f.scrollWidth - f.clientWidth)).toBeLessThanOrEqual(0)
})

test('a protected page sends an anonymous visitor to login and back', async ({ page, request }) => {
  const user = await registerUser(request, 'redirect')

  await page.goto('/profile/security')
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile%2Fsecurity$/)
  await submitLoginForm(page, user)

  await expect(page).toHaveURL(/\/profile\/security$/)
  await expect(page.getByTestId('user-email')).toHaveText(user.email)
})

test('an absolute ?redirect= is never followed', async ({ page, request }) => {
  const user = await registerUser(request, 'openredirect')
  await page.goto(`/auth/login?redirect=${encodeURIComponent('https://evil.example/phish')}`)
  await submitLoginForm(page, user)
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/)
})

test('the sign-in screens show the spec validation messages', async ({ page }) => {
  await page.goto('/auth/register')
  const form = page.getByTestId('register-form')
  await form.locator('button[type="submit"]').click()
  await expect(form.getByText('required', { exact: true }).first()).toBeVisible()

  await form.locator('input[name="email"]').fill('someone@example.com')
  // Letters are dropped by the code input; only digits remain.
  await form.locator('input[name="code"]').fill('12a3')
  await expect(form.locator('input[name="code"]')).toHaveValue('123')
  await form.locator('input[name="password"]').fill('abcdefgh')
  await form.locator('input[name="confirmPassword"]').fill('abcdefg1')
  await form.locator('button[type="submit"]').click()
  await expect(form.getByText('Please enter a 6-digit verification code')).toBeVisible()
  await expect(
    form.getByText('The password must be 8–32 characters long and contain both letters and digits'),
  ).toBeVisible()
  await expect(form.getByText('Password entires do not match. Try again')).toBeVisible()

  await page.goto('/auth/login')
  const login = page.getByTestId('login-form')
  await login.locator('input[name="email"]').fill('not-an-email')
  await login.locator('button[type="submit"]').click()
  await expect(login.getByText('Please enter a valid email address')).toBeVisible()
  await expect(login.getByText('required', { exact: true })).toBeVisible()
})

test('forgot password in three steps, then sign in with the new password', async ({ page, request }) => {
  const user = await registerUser(request, 'forgot')
  const newPassword = 'Changed2026pass'

  await page.goto('/auth/login')
  await page.getByTestId('login-form').getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page).toHaveURL(/\/auth\/forgot-password$/)
  const card = page.getByTestId('forgot-password')
  await expect(card.getByTestId('forgot-step')).toHaveText('Step 1 of 3')
  await card.locator('input[name="email"]').fill(user.email)
  await card.locator('button[type="submit"]').click()

  await expect(card.getByTestId('forgot-step')).toHaveText('Step 2 of 3')
  const code = await latestCode(request, user.email, OP_FORGOT_PASSWORD)
  await card.locator('input[name="code"]').fill(code)
  await card.locator('button[type="submit"]').click()

  await expect(card.getByTestId('forgot-step')).toHaveText('Step 3 of 3')
  await card.locator('input[name="password"]').fill(newPassword)
  await card.locator('input[name="confirmPassword"]').fill(newPassword)
  await card.locator('button[type="submit"]').click()

  await expect(page).toHaveURL(/\/auth\/login$/)
  await expect(page.getByTestId('login-form').locator('input[name="email"]')).toHaveValue(user.email)
  await submitLoginForm(page, { email: user.email, password: newPassword })
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByTestId('user-menu-trigger')).toBeVisible()
  // The old password no longer works.
  const old = await api(request, '/user/login_in', { email: user.email, loginPword: user.password })
  expect(String(old.code)).not.toBe('0')
})

test('the footer is hidden on the sign-in screens and shown on home', async ({ page }) => {
  await page.goto('/auth/login')
  await expect(page.getByTestId('login-form')).toBeVisible()
  await expect(page.getByTestId('site-footer')).toHaveCount(0)
  await page.goto('/auth/register')
  await expect(page.getByTestId('register-form')).toBeVisible()
  await expect(page.getByTestId('site-footer')).toHaveCount(0)
  await page.goto('/')
  await expect(page.getByTestId('site-footer')).toBeVisible()
})
