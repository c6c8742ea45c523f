// The account's own life: a new user changes the e-mail (codes from the dev
// outbox), opens a support ticket with an image, reads the operator's answer
// (POST /dev/support/reply, what `tenger support reply` does) and replies;
// a funded user is refused the closing with the balance reason; an empty
// user closes the account and is refused at sign-in (16200). Each screen is
// captured at 1440 and 390 px in the light and dark themes, under
// frontend/test-results/screenshots/account-*.png (git-ignored).
import { expect, test, type Locator, type Page } from '@playwright/test'
import path from 'node:path'
import zlib from 'node:zlib'
import { signInWithApi, submitLoginForm, toast } from './support/browser'
import { apiOk, baseURL, latestCode, loginToken, registerUser, uniqueEmail, type TestUser } from './support/server-api'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots')
const WIDE = { width: 1440, height: 900 }
const PHONE = { width: 390, height: 844 }
const OP_CHANGE_TARGET = 5
const OP_OWN_EMAIL = 17

/** A small PNG (a two-colour gradient), so the previews show something. */
function gradientPng(width = 96, height = 64): Buffer {
  const rows: Buffer[] = []
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3)
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = 11 + Math.round((x / width) * 60)
      row[2 + x * 3] = 99 + Math.round((y / height) * 100)
      row[3 + x * 3] = 229
    }
    rows.push(row)
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([len, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * Switches the theme without a reload, as the app's theme store hears a
 * change made in another tab (next-themes' storage event), so the screen
 * keeps its state (an open dialog, a filled form).
 */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => {
    localStorage.setItem('tenger-theme', t)
    window.dispatchEvent(new StorageEvent('storage', { key: 'tenger-theme', newValue: t }))
  }, theme)
  await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`))
}

/** Closes the toasts on screen (they would cover the fields of a phone's capture). */
async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.locator('[data-testid^="toast-"]')
  for (let i = await toasts.count(); i > 0; i--) {
    await toasts.first().locator('[data-part="close-trigger"]').click({ timeout: 2_000 }).catch(() => undefined)
  }
  await expect(toasts).toHaveCount(0)
}

/** Captures the page as it is in both themes and at both widths (the window only, for a dialog). */
async function shoot(page: Page, name: string, ready: Locator, { fullPage = true } = {}): Promise<void> {
  await dismissToasts(page)
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme)
    for (const [width, viewport] of [
      ['1440', WIDE],
      ['390', PHONE],
    ] as const) {
      await page.setViewportSize(viewport)
      await expect(ready).toBeVisible()
      await page.evaluate(() => {
        window.scrollTo(0, 0)
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      })
      await page.screenshot({ path: path.join(OUT, `account-${name}-${theme}-${width}.png`), fullPage })
    }
  }
  await setTheme(page, 'light')
  await page.setViewportSize(WIDE)
}

/** POSTs to a dev route and returns its data (the test fails on a non-zero code). */
async function dev<T>(page: Page, route: string, body: Record<string, unknown>): Promise<T> {
  const res = await page.request.post(`${baseURL}${route}`, { data: body })
  const answer = (await res.json()) as { code: string | number; msg: string; data: T }
  expect(String(answer.code), `${route}: ${answer.msg}`).toBe('0')
  return answer.data
}

/** Signs the page in as `user` alone (another user's session cookies go first). */
async function switchTo(page: Page, user: TestUser): Promise<void> {
  await page.context().clearCookies()
  await signInWithApi(page, user)
}

test('change the e-mail, a support ticket with its answer, and closing the account', async ({ page, request }) => {
  test.setTimeout(120_000)
  await page.setViewportSize(WIDE)

  // 1. A new user changes the e-mail from the security page.
  const user = await registerUser(request, 'acct')
  await signInWithApi(page, user)
  await page.goto('/profile/security')
  await expect(page.getByTestId('email-status')).toHaveText(user.email)
  await expect(page.getByTestId('danger-zone')).toBeVisible()
  await page.getByTestId('email-action').click()
  const dialog = page.getByTestId('email-dialog')
  await expect(dialog.getByTestId('email-lock-before')).toContainText('Withdrawals pause for 24 hours')
  // An e-mail account without SMS check or authenticator gives the two e-mail codes only.
  await expect(dialog.locator('input[name="smsAuthCode"]')).toHaveCount(0)
  await expect(dialog.locator('input[name="googleCode"]')).toHaveCount(0)
  const newEmail = uniqueEmail('acct-new')
  await dialog.locator('input[name="email"]').fill(newEmail)
  await dialog.getByTestId('send-new-email-code').click()
  await dialog.locator('input[name="emailCode"]').fill(await latestCode(request, newEmail, OP_CHANGE_TARGET))
  await dialog.getByTestId('send-old-email-code').click()
  await dialog.locator('input[name="oldEmailCode"]').fill(await latestCode(request, user.email, OP_OWN_EMAIL))
  await shoot(page, 'email-dialog', dialog, { fullPage: false })
  await dialog.getByTestId('email-submit').click()
  await expect(dialog.getByTestId('email-done')).toContainText(newEmail)
  await expect(dialog.getByTestId('email-lock-after')).toContainText('Withdrawals are locked until')
  await dialog.getByTestId('email-done-close').click()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('email-status')).toHaveText(newEmail)
  await expect(page.getByTestId('email-withdraw-lock')).toBeVisible()
  await shoot(page, 'security', page.getByTestId('danger-zone'))
  user.email = newEmail

  // 2. A ticket with an image: the support page is empty; the footer's
  // "Submit a request" page leads to the new ticket form.
  await page.goto('/profile/support')
  await expect(page.getByTestId('tickets-empty')).toContainText('You have no tickets yet')
  await page.getByTestId('footer-link-request').click()
  await page.getByTestId('info-ticket-link').click()
  await expect(page).toHaveURL(/\/profile\/support\/new$/)
  const form = page.getByTestId('new-ticket-form')
  await form.locator('select[name="type"]').selectOption('deposit')
  await form.locator('input[name="title"]').fill('MNT deposit not credited')
  await form.locator('textarea[name="description"]').fill('I sent 150,000 MNT from Khan Bank at 10:05 with my user ID as the reference.')
  await form.getByTestId('attach-input').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: gradientPng() })
  await expect(form.getByTestId('attach-item')).toHaveAttribute('data-state', 'done')
  await shoot(page, 'ticket-new', form)
  await form.getByTestId('new-ticket-submit').click()
  // The ticket's own page (not the form's /new, which the pattern would match before the answer comes).
  await expect(page).toHaveURL(/\/profile\/support\/(?!new$)[A-Za-z0-9]+$/)
  const id = page.url().split('/').pop() as string
  const thread = page.getByTestId('ticket-thread')
  await expect(thread.getByTestId('ticket-message')).toHaveCount(1)
  // The image is read back with the session and shown.
  await expect(thread.getByTestId('stored-attachment').locator('img')).toBeVisible()

  // 3. The operator answers (dev route: what `tenger support reply` does); the user replies.
  await dev(page, '/dev/support/reply', { id, content: 'Thank you. We found your transfer and credited it.' })
  await page.reload()
  await expect(thread.getByTestId('ticket-message')).toHaveCount(2)
  await expect(thread.locator('[data-by="support"]')).toContainText('We found your transfer')
  await expect(page.getByTestId('ticket').getByTestId('ticket-status').first()).toHaveText('Answered')
  await page.locator('textarea[name="content"]').fill('It is there now, thanks!')
  await page.getByTestId('reply-submit').click()
  await expect(thread.getByTestId('ticket-message')).toHaveCount(3)
  await expect(page.getByTestId('ticket').getByTestId('ticket-status').first()).toHaveText('Waiting for support')
  await shoot(page, 'ticket-thread', thread)
  await page.getByTestId('ticket-back').click()
  await expect(page.getByTestId('ticket-row')).toHaveCount(1)
  await shoot(page, 'tickets', page.getByTestId('ticket-row'))

  // 4. A funded user is told the balance keeps the account open.
  const funded = await registerUser(request, 'acct-funded')
  const fundedToken = await loginToken(request, funded)
  const info = await apiOk<{ id: string | number }>(request, '/common/user_info', {}, fundedToken)
  await dev(page, '/dev/bank/incoming', { amount: '150000', reference: String(info.id), bankTxId: `e2e-acct-${info.id}-${Date.now()}` })
  await switchTo(page, funded)
  await page.goto('/profile/close-account')
  const balance = page.getByTestId('cancel-reason-balance')
  await expect(balance).toContainText('You still hold funds')
  await expect(balance.getByTestId('cancel-holding').first()).toContainText(/MNT|MONT/)
  await expect(balance.getByTestId('cancel-reason-link')).toHaveAttribute('href', '/wallet')
  await expect(page.getByTestId('close-form')).toHaveCount(0)
  await shoot(page, 'close-blocked', balance)

  // 5. An empty user closes the account and cannot sign in again.
  const leaving = await registerUser(request, 'acct-close')
  await switchTo(page, leaving)
  await page.goto('/profile/security')
  await page.getByTestId('close-account-link').click()
  await expect(page.getByTestId('cancel-ready')).toBeVisible()
  await expect(page.getByTestId('closing-means')).toContainText('You can no longer sign in')
  const close = page.getByTestId('close-form')
  await close.locator('textarea[name="reason"]').fill('Moving abroad')
  await close.getByTestId('send-email-code').click()
  await close.locator('input[name="emailCode"]').fill(await latestCode(request, leaving.email, OP_OWN_EMAIL))
  await close.locator('input[name="confirm"]').fill('CLOSE')
  await shoot(page, 'close-ready', close)
  await close.getByTestId('close-submit').click()
  await expect(page).toHaveURL(/\/$/)
  await expect(toast(page).filter({ hasText: 'Your account is closed' })).toBeVisible()
  await expect(page.getByTestId('nav-login')).toBeVisible()
  await page.goto('/auth/login')
  await submitLoginForm(page, leaving)
  const refusal = page.getByTestId('login-refusal')
  await expect(refusal).toHaveText('This account has been closed. Contact support to reopen it')
})
