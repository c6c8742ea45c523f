// Identity verification (/profile/identity) and account limits
// (/profile/limits) against `tenger serve --dev`, whose verification
// provider is the simulator (/dev/kyc): a new user sees the unverified limit,
// uploads a document and sends the simulator's form, is rejected (RETRY)
// through the reviewer's route with a comment and labels, reads them, sends
// the documents again, is approved and sees the full limit (and the security
// page's status says Verified).
// Screenshots: frontend/test-results/screenshots/identity/.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, toast } from './support/browser'
import { apiOk, baseURL } from './support/server-api'
import { DOCUMENT_PNG, dev, walletUser, type WalletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'identity')
const WIDE = { width: 1440, height: 900 }
/** A status change shows at the page's next read of the status (every 4 s), on a busy machine a little later. */
const STATUS_WAIT = 15_000

/** A USDT amount as the pages show it ('100000' → '100,000 USDT'). */
const usdt = (amount: string) => `${Number(amount).toLocaleString('en-US')} USDT`

/** Uploads an identity document page (imageType 1) and returns its upload id. */
async function uploadDocument(request: APIRequestContext, w: WalletUser): Promise<string> {
  const res = await request.post(`${baseURL}/fe-ex-api/common/upload_img_auth?imageType=1`, {
    headers: { 'exchange-token': w.token, 'exchange-client': 'pc' },
    multipart: { file: { name: 'passport.png', mimeType: 'image/png', buffer: DOCUMENT_PNG } },
  })
  const answer = (await res.json()) as { code: string | number; msg: string; data: { id: string } }
  expect(String(answer.code), `document upload: ${answer.msg}`).toBe('0')
  return answer.data.id
}

/**
 * Presses the button that opens the simulator's page in a new tab, sends
 * its form with the document and comes back to the identity page.
 */
async function sendDocuments(page: Page, buttonTestId: string, uploadId: string): Promise<void> {
  const [sim] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId(buttonTestId).click()])
  await expect(sim).toHaveURL(/\/dev\/kyc\?accessToken=/)
  const form = sim.locator('#submit-form')
  await form.locator('#firstName').fill('Saraa')
  await form.locator('#lastName').fill('Bat')
  await form.locator('#dob').fill('1994-05-21')
  await form.locator('#country').fill('MNG')
  await form.locator('#idDocNumber').fill('UB1234567')
  await form.locator('#uploadId').fill(uploadId)
  await form.getByRole('button', { name: 'Send for review' }).click()
  await expect(sim.locator('#status')).toHaveText('pending')
  await sim.close()
  await page.bringToFront()
}

type Theme = 'light' | 'dark'

/** Switches the theme with the navbar's toggle (shown at desktop widths), without a reload. */
async function setTheme(page: Page, theme: Theme) {
  await page.setViewportSize(WIDE)
  const html = page.locator('html')
  if (!((await html.getAttribute('class')) ?? '').split(' ').includes(theme)) await page.getByTestId('theme-toggle').click()
  await expect(html).toHaveClass(new RegExp(`\\b${theme}\\b`))
}

/** Hides the toasts of the steps before in the screenshots. */
const NO_TOASTS = '[data-scope="toast"] { visibility: hidden !important; }'

/** Both themes at both widths, in an order that switches the theme twice. */
const ALL_SHOTS: [Theme, number][] = [
  ['light', 1440],
  ['light', 390],
  ['dark', 390],
  ['dark', 1440],
]

/** Screenshots of the page at `testId`, one per [theme, width]. */
async function shoot(page: Page, name: string, testId: string, shots: [Theme, number][]) {
  for (const [theme, width] of shots) {
    await setTheme(page, theme)
    await page.setViewportSize(width === PHONE.width ? PHONE : WIDE)
    await expect(page.getByTestId(testId)).toBeVisible()
    await page.screenshot({ path: path.join(OUT, `${name}-${theme}-${width}.png`), fullPage: true, animations: 'disabled', style: NO_TOASTS })
  }
  await setTheme(page, 'light')
  await page.setViewportSize(DESKTOP)
}

test('identity: unverified limit, documents sent, rejected with reasons, sent again, verified with the full limit', async ({ page, request }) => {
  const w = await walletUser(page, request, 'identity')
  const levels = await apiOk<{ unverifiedWithdrawDailyUsdt: string; levels: { levelName: string; withdrawDailyUsdt: string }[] }>(
    request,
    '/sumsub/v2/get_level_list',
    {},
    w.token,
  )
  const small = usdt(levels.unverifiedWithdrawDailyUsdt)
  const full = usdt(levels.levels[0].withdrawDailyUsdt)

  // A new user: the small limit, nothing used, and the way to verify.
  await page.goto('/profile/limits')
  await expect(page.getByTestId('limit-total')).toHaveText(small)
  await expect(page.getByTestId('limit-level')).toHaveText('Not verified')
  await expect(page.getByTestId('limit-used')).toHaveText('0 USDT')
  await expect(page.getByTestId('limit-left')).toHaveText(small)
  await expect(page.getByTestId('limit-cta')).toContainText(`Withdraw up to ${full} a day`)
  await page.getByTestId('limit-verify').click()

  await expect(page).toHaveURL(/\/profile\/identity$/)
  const status = page.getByTestId('identity-status')
  await expect(status).toHaveAttribute('data-state', 'unverified')
  await expect(page.getByTestId('identity-status-badge')).toHaveText('Unverified')
  await expect(page.getByTestId('identity-daily-limit')).toHaveText(small)
  await expect(page.getByTestId('identity-level-basic')).toContainText(`${full} a day`)

  // Verify: the simulator's page opens in a new tab; the documents go for review.
  await sendDocuments(page, 'verify-identity', await uploadDocument(request, w))
  await expect(status).toHaveAttribute('data-state', 'pending', { timeout: STATUS_WAIT })
  await expect(toast(page).filter({ hasText: 'Your documents were sent for review' })).toBeVisible()
  await expect(status).toContainText('Checking for updates')

  // The reviewer refuses, the user may try again: the page says why, in words.
  await dev(request, '/dev/kyc/review', {
    userId: w.uid,
    answer: 'RED',
    reviewRejectType: 'RETRY',
    rejectLabels: ['UNSATISFACTORY_PHOTOS', 'DOCUMENT_PAGE_MISSING'],
    moderationComment: 'The photo is blurred and the back side is missing.',
  })
  await expect(status).toHaveAttribute('data-state', 'rejected', { timeout: STATUS_WAIT })
  await expect(toast(page, 'error').filter({ hasText: 'Your verification was not accepted' })).toBeVisible()
  await expect(page.getByTestId('identity-reject-reason')).toHaveText('The photo is blurred and the back side is missing.')
  await expect(page.getByTestId('identity-reject-labels').getByRole('listitem')).toHaveText([
    'The photos are unclear or unreadable',
    'A page or side of the document is missing',
  ])
  await expect(page.getByTestId('identity-daily-limit')).toHaveText(small)
  await shoot(page, 'identity-rejected', 'identity-reject', ALL_SHOTS)

  // Retry: the documents again, then the reviewer approves.
  await sendDocuments(page, 'retry-identity', await uploadDocument(request, w))
  await expect(status).toHaveAttribute('data-state', 'pending', { timeout: STATUS_WAIT })
  await dev(request, '/dev/kyc/review', { userId: w.uid, answer: 'GREEN' })
  await expect(status).toHaveAttribute('data-state', 'verified', { timeout: STATUS_WAIT })
  await expect(toast(page).filter({ hasText: 'Your identity is verified' })).toBeVisible()
  await expect(page.getByTestId('identity-status-badge')).toHaveText('Verified')
  await expect(page.getByTestId('identity-daily-limit')).toHaveText(full)
  await expect(page.getByTestId('verify-identity')).toHaveCount(0)
  await shoot(page, 'identity-verified', 'identity-status', ALL_SHOTS)

  // The limits page, from the user menu: the full limit at the basic level.
  await page.getByTestId('user-menu-trigger').click()
  const menu = page.getByTestId('user-menu')
  await expect(menu).toHaveAttribute('data-state', 'open')
  await menu.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)))
  await page.getByTestId('user-menu-limits').click()
  await expect(page).toHaveURL(/\/profile\/limits$/)
  await expect(page.getByTestId('limit-total')).toHaveText(full)
  await expect(page.getByTestId('limit-level')).toHaveText('Verified: Basic')
  await expect(page.getByTestId('limit-left')).toHaveText(full)
  await expect(page.getByTestId('limit-row-basic')).toContainText('Your level')
  await expect(page.getByTestId('limit-cta')).toHaveCount(0)
  await shoot(page, 'limits-verified', 'limit-summary', ALL_SHOTS)

  // The security page's account details say so too, with the way to the details.
  await page.goto('/profile/security')
  await expect(page.getByTestId('kyc-status')).toHaveText('Verified')
  await expect(page.getByTestId('kyc-link')).toHaveAttribute('href', '/profile/identity')
})
