// Language, theme and the phone-width menu: the shell behaviours of spec §2–§4.
import { expect, test } from '@playwright/test'
import { cookieValue, PHONE, setCookies } from './support/browser'

test('switching the language writes lan and reloads with Mongolian texts', async ({ page }) => {
  await page.goto('/auth/login')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to Tenger')

  await page.getByTestId('preferences-trigger').click()
  await Promise.all([page.waitForEvent('load'), page.getByTestId('language-mn_MN').click()])

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tenger-т нэвтрэх')
  await expect(page.getByTestId('login-form').locator('button[type="submit"]')).toHaveText('Нэвтрэх')
  expect(await cookieValue(page.context(), 'lan')).toBe('mn_MN')
  await expect(page.locator('html')).toHaveAttribute('lang', 'mn')
})

test('the theme toggle persists over a reload through cusSkin', async ({ page }) => {
  await page.goto('/')
  const html = page.locator('html')
  await expect(html).not.toHaveClass(/dark/)

  await page.getByTestId('theme-toggle').click()
  await expect(html).toHaveClass(/dark/)
  expect(await cookieValue(page.context(), 'cusSkin')).toBe('1')

  await page.reload()
  await expect(html).toHaveClass(/dark/)

  await page.getByTestId('theme-toggle').click()
  await expect(html).not.toHaveClass(/dark/)
  expect(await cookieValue(page.context(), 'cusSkin')).toBe('2')
})

test.describe('at phone width', () => {
  test.use({ viewport: PHONE })

  test('the mobile menu opens, navigates and closes on the route change', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByTestId('mobile-header')).toBeVisible()
    await expect(page.getByTestId('desktop-navbar')).toBeHidden()

    await page.getByTestId('mobile-menu-button').click()
    const menu = page.getByTestId('mobile-menu')
    await expect(menu).toBeVisible()
    await expect(menu.getByTestId('mobile-menu-login')).toBeVisible()

    await menu.getByTestId('mobile-menu-login').click()
    await expect(page).toHaveURL(/\/auth\/login$/)
    await expect(page.getByTestId('mobile-menu')).toBeHidden()
    await expect(page.getByTestId('login-form')).toBeVisible()
    // The login page fits the phone width: no horizontal scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
})

// The desktop bar needs 1024 px for its six menus, account actions and
// pickers; narrower windows (tablets) get the mobile bar instead of a
// desktop bar whose right end is cut off.
test.describe('at tablet and small laptop widths', () => {
  for (const lan of ['en_US', 'mn_MN']) {
    test(`the header fits the window in ${lan}`, async ({ page, context }) => {
      await setCookies(context, { lan })
      await page.setViewportSize({ width: 900, height: 800 })
      await page.goto('/')
      await expect(page.getByTestId('mobile-header')).toBeVisible()
      await expect(page.getByTestId('desktop-navbar')).toBeHidden()
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

      await page.setViewportSize({ width: 1024, height: 800 })
      await expect(page.getByTestId('desktop-navbar')).toBeVisible()
      await expect(page.getByTestId('mobile-header')).toBeHidden()
      const toggle = await page.getByTestId('theme-toggle').boundingBox()
      expect(toggle).not.toBeNull()
      expect(toggle!.x + toggle!.width).toBeLessThanOrEqual(1024)
    })
  }
})
