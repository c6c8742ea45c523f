// Screenshots of each page in both themes and at both widths, for review.
// They are written under frontend/test-results/screenshots (git-ignored).
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, setCookies, signInWithApi } from './support/browser'
import { registerUser } from './support/server-api'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots')

const PAGES: {
  name: string
  path: string
  ready: (page: Page) => ReturnType<Page['getByTestId']>
  signedIn?: boolean
}[] = [
  { name: 'home', path: '/', ready: (p) => p.getByTestId('site-footer') },
  { name: 'login', path: '/auth/login', ready: (p) => p.getByTestId('login-form') },
  { name: 'register', path: '/auth/register', ready: (p) => p.getByTestId('register-form') },
  { name: 'forgot-password', path: '/auth/forgot-password', ready: (p) => p.getByTestId('forgot-password') },
  { name: 'maintenance', path: '/maintenance', ready: (p) => p.getByRole('heading', { level: 1 }) },
  { name: 'security', path: '/profile/security', ready: (p) => p.getByTestId('login-history'), signedIn: true },
]

for (const theme of ['light', 'dark'] as const) {
  for (const [width, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    test(`screenshots: ${theme} theme at ${width} px`, async ({ page, request }) => {
      await page.setViewportSize(viewport)
      await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2' })
      const user = await registerUser(request, `shots-${theme}-${width}`)
      for (const entry of PAGES) {
        if (entry.signedIn) await signInWithApi(page, user)
        await page.goto(entry.path)
        await expect(entry.ready(page)).toBeVisible()
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /light/)
        // Let fonts, images and the page-text query settle before the capture
        // (bounded: a live price stream may keep the network busy).
        await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined)
        await page.screenshot({ path: path.join(OUT, `${entry.name}-${theme}-${width}.png`), fullPage: true })
      }
    })
  }
}
