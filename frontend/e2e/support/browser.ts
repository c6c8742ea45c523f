// Browser-side helpers shared by the end-to-end tests.
import { expect, type BrowserContext, type Page } from '@playwright/test'
import { baseURL, loginToken, type TestUser } from './server-api'

/** The two widths every page is checked at. */
export const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }

/** A toast of the given type (the shell's Toaster marks them with data-testid). */
export function toast(page: Page, type: 'success' | 'error' | 'warning' = 'success') {
  return page.getByTestId(`toast-${type}`)
}

/** Sets preference cookies before the first page load. */
export async function setCookies(context: BrowserContext, cookies: Record<string, string>) {
  await context.addCookies(Object.entries(cookies).map(([name, value]) => ({ name, value, url: baseURL })))
}

/** Value of a cookie in the page's context, or undefined. */
export async function cookieValue(context: BrowserContext, name: string): Promise<string | undefined> {
  const cookies = await context.cookies(baseURL)
  return cookies.find((c) => c.name === name)?.value
}

/**
 * Signs the browser context in without the form: the API sets the token
 * cookie in the context's cookie jar (page.request shares it).
 */
export async function signInWithApi(page: Page, user: TestUser): Promise<void> {
  const token = await loginToken(page.request, user)
  if (!(await cookieValue(page.context(), 'token'))) {
    await page.context().addCookies([{ name: 'token', value: token, url: baseURL }])
  }
}

/** Fills and submits the e-mail sign-in form on /auth/login. */
export async function submitLoginForm(page: Page, user: TestUser): Promise<void> {
  const form = page.getByTestId('login-form')
  await expect(form).toBeVisible()
  await form.locator('input[name="email"]').fill(user.email)
  await form.locator('input[name="password"]').fill(user.password)
  await form.locator('button[type="submit"]').click()
}

/** Signs out through the desktop user menu and checks the signed-out header. */
export async function signOutWithUserMenu(page: Page): Promise<void> {
  const menu = page.getByTestId('user-menu')
  // On a loaded machine a click can land on the item while the menu is still
  // settling and is not taken as a selection (the menu stays open, nothing is
  // sent). Sign-out is idempotent, so the whole step is tried again then.
  await expect(async () => {
    if (await page.getByTestId('nav-login').isVisible()) return
    if (!(await menu.isVisible())) await page.getByTestId('user-menu-trigger').click({ timeout: 5_000 })
    await expect(menu).toHaveAttribute('data-state', 'open')
    // Choose the item only once the menu has finished opening: a click that
    // lands during the open animation is not a selection.
    await menu.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)))
    await page.getByTestId('logout').click({ timeout: 5_000 })
    await expect(page.getByTestId('nav-login')).toBeVisible({ timeout: 8_000 })
  }).toPass({ timeout: 30_000 })
  await expect(page.getByTestId('user-menu-trigger')).toHaveCount(0)
}
