// Corporate verification (/profile/corporate): a new user fills the five
// steps with real uploads (a PDF and PNGs made here), reloads half-way and
// resumes at the first incomplete step, submits after the review, is
// approved through the dev reviewer (/dev/corporate/review, what
// `tenger corporate approve` does), sees the enterprise account, and changes
// back to a regular one. Screenshots at 1440 and 390 px, light and dark:
// frontend/test-results/screenshots/corporate/.
import { expect, test, type Page } from '@playwright/test'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { cookieValue, setCookies, toast } from './support/browser'
import { apiOk, baseURL, loginToken, registerUser } from './support/server-api'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'corporate')
const WIDE = { width: 1440, height: 900 }
const PHONE = { width: 390, height: 844 }

/** A one-page PDF with a line of text, its cross-reference table at the right offsets. */
function makePdf(text: string): Buffer {
  const stream = `BT /F1 14 Tf 24 60 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 320 120] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) body += `${String(o).padStart(10, '0')} 00000 n \n`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, 'latin1')
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(data: Buffer): number {
  let c = 0xffffffff
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A small PNG of two colour bands (so the preview shows something). */
function makePng(width: number, height: number, top: [number, number, number], bottom: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(td))
    return Buffer.concat([len, td, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const rows: Buffer[] = []
  for (let y = 0; y < height; y++) {
    const [r, g, b] = y < height / 2 ? top : bottom
    const row = Buffer.alloc(1 + width * 3)
    for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3)
    rows.push(row)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Sets a form field by its API name. */
const field = (page: Page, name: string) => page.locator(`[name="${name}"]`)

async function saveAndContinue(page: Page, nextStep: string) {
  await page.getByTestId('step-save-continue').click()
  await expect(toast(page).filter({ hasText: 'Step saved' }).first()).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`step=${nextStep}$`))
}

async function shot(page: Page, name: string, theme: 'light' | 'dark', width: number) {
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /light/)
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}-${width}.png`), fullPage: true })
}

test('corporate verification: five steps, resume after a reload, submit, approval, back to regular', async ({ page, request }) => {
  // About 45 s on a quiet 2-core machine; the bound leaves room for a busy one.
  test.setTimeout(150_000)
  await page.setViewportSize(WIDE)
  await setCookies(page.context(), { cusSkin: '2', lan: 'en_US', stickyBar: '1' })
  const user = await registerUser(request, 'corporate')
  // Signed in through the API (the token cookie lands in the page's context).
  const token = await loginToken(page.request, user)
  if (!(await cookieValue(page.context(), 'token'))) await page.context().addCookies([{ name: 'token', value: token, url: baseURL }])
  const me = await apiOk<{ id: string | number }>(request, '/common/user_info', {}, token)

  // The general page of a user who has not started.
  await page.goto('/profile/corporate')
  await expect(page.getByTestId('corporate-status')).toHaveAttribute('data-status', 'none')
  await expect(page.getByTestId('corporate-progress')).toHaveText('0 of 5')
  // The page is in the account menu.
  await page.getByTestId('user-menu-trigger').click()
  await expect(page.getByTestId('user-menu-corporate')).toHaveAttribute('href', '/profile/corporate')
  await page.keyboard.press('Escape')
  await page.getByTestId('corporate-continue').click()
  await expect(page).toHaveURL(/\/profile\/corporate\/apply\?step=1$/)

  // Step 1: a malformed e-mail is refused as it is typed; Save and continue needs every field.
  const step1 = page.getByTestId('corporate-step-1')
  await field(page, 'fullName').fill('Bat-Erdene Dorj')
  await field(page, 'email').fill('cfo@steppe')
  await field(page, 'email').blur()
  await expect(step1).toContainText('Enter an e-mail address')
  await field(page, 'email').fill('cfo@steppe.mn')
  await expect(step1).not.toContainText('Enter an e-mail address')
  await page.getByTestId('step-save-continue').click()
  await expect(step1).toContainText('This field is required')
  await expect(field(page, 'position')).toBeFocused()
  await field(page, 'position').fill('CFO')
  await field(page, 'phone').fill('+976 8800 1122')
  await saveAndContinue(page, '2')

  // Step 2: the spec's company form; the business address is elsewhere.
  await expect(page.getByTestId('corporate-step-2')).toBeVisible()
  await field(page, 'entityName').fill('Steppe Trading LLC')
  await field(page, 'registrationNumber').fill('6543210')
  await field(page, 'registrationDate').fill('2015-03-02')
  await field(page, 'contactNumber').fill('+976 7711 2233')
  await field(page, 'businessType').fill('Wholesale trade')
  await field(page, 'sourceOfFunds').fill('Revenue from wholesale trade')
  await field(page, 'applyReason').fill('Treasury and OTC settlement')
  await field(page, 'registeredCountry').selectOption('MN')
  await field(page, 'registeredCity').fill('Ulaanbaatar')
  await field(page, 'registeredStreet').fill('Peace Avenue 17')
  await field(page, 'registeredZip').fill('14200')
  await page.getByTestId('field-businessAddressSame').getByText('No', { exact: true }).click()
  await field(page, 'businessAddress.country').selectOption('MN')
  await field(page, 'businessAddress.city').fill('Darkhan')
  await field(page, 'businessAddress.street').fill('Industrial zone 4')
  await saveAndContinue(page, '3')

  // Half-way: a reload keeps the step and the saved ones; a visit without a step resumes at the first incomplete one.
  await page.reload()
  await expect(page.getByTestId('corporate-step-3')).toBeVisible()
  await expect(page.getByTestId('corporate-step-trigger-2')).toHaveAccessibleName('Step 2, Company, Complete')
  await page.goto('/profile/corporate/apply')
  await expect(page).toHaveURL(/\/profile\/corporate\/apply\?step=3$/)
  const step3 = page.getByTestId('corporate-step-3')
  await expect(step3.getByTestId('people-empty')).toBeVisible()

  // Step 3: one director who owns the company; the owners' declaration.
  await step3.getByTestId('add-person').click()
  await expect(field(page, 'people[0].name')).toBeFocused()
  await field(page, 'people[0].name').fill('Bat-Erdene Dorj')
  await field(page, 'people[0].nationality').selectOption('MN')
  await field(page, 'people[0].dateOfBirth').fill('1980-05-01')
  await step3.getByTestId('role-director').click()
  await step3.getByTestId('role-owner').click()
  await field(page, 'people[0].ownershipPercent').fill('120')
  await field(page, 'people[0].ownershipPercent').blur()
  await expect(step3).toContainText('A share is above 0 and at most 100')
  await field(page, 'people[0].ownershipPercent').fill('100')
  await expect(step3.getByTestId('ownership-total')).toHaveText("Owners' shares: 100% of 100%")
  await step3.getByTestId('all-owners-listed').click()
  await saveAndContinue(page, '4')

  // Step 4: real uploads; a text file is refused before it is sent.
  const step4 = page.getByTestId('corporate-step-4')
  const input = (section: string) => step4.getByTestId(section).locator('input[type="file"]')
  await input('documents-certificate_of_incorporation').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') })
  await expect(step4.getByTestId('documents-certificate_of_incorporation').getByTestId('upload-failed')).toContainText('Upload a PDF, JPEG or PNG file')
  await input('documents-certificate_of_incorporation').setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: makePdf('Certificate of incorporation') })
  await input('documents-articles_of_association').setInputFiles({ name: 'articles.png', mimeType: 'image/png', buffer: makePng(96, 64, [11, 99, 229], [240, 244, 250]) })
  await input('documents-proof_of_address').setInputFiles({ name: 'utility-bill.png', mimeType: 'image/png', buffer: makePng(96, 64, [8, 127, 91], [250, 250, 245]) })
  await input('documents-representative_id-p1').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: makePng(64, 96, [120, 60, 160], [230, 220, 240]) })
  for (const section of ['documents-certificate_of_incorporation', 'documents-articles_of_association', 'documents-proof_of_address', 'documents-representative_id-p1']) {
    await expect(step4.getByTestId(section).getByTestId('attached-file')).toHaveCount(1)
  }
  await expect(step4.getByTestId('documents-certificate_of_incorporation').getByTestId('attached-file-name')).toHaveText('certificate.pdf')
  await expect(step4.getByTestId('documents-articles_of_association').locator('img')).toHaveAttribute('src', /^data:image\/png/)
  await saveAndContinue(page, '5')

  // Step 5: the questionnaire, then the review.
  await field(page, 'monthlyVolume').selectOption('100k_1m')
  await page.getByTestId('purpose-treasury').click()
  await page.getByTestId('purpose-otc').click()
  await page.getByTestId('field-pep').getByText('No', { exact: true }).click()
  await page.getByTestId('field-sanctions').getByText('No', { exact: true }).click()
  await page.getByTestId('accuracy-confirmed').click()
  await saveAndContinue(page, 'review')

  const review = page.getByTestId('corporate-review')
  await expect(review.getByTestId('review-step-2')).toContainText('Steppe Trading LLC')
  await expect(review.getByTestId('review-step-2')).toContainText('Industrial zone 4, Darkhan, Mongolia')
  await expect(review.getByTestId('review-person')).toContainText('Owner · 100%')
  await expect(review.getByTestId('review-missing')).toHaveCount(0)
  await expect(review.getByTestId('attached-file')).toHaveCount(4)
  // Without the steps' toasts over it.
  await page.reload()
  await expect(review.getByTestId('attached-file')).toHaveCount(4)
  await shot(page, 'review', 'light', WIDE.width)

  // Submit, after the confirmation.
  await review.getByTestId('review-submit').click()
  await page.getByTestId('submit-dialog').getByTestId('confirm-submit').click()
  await expect(toast(page).filter({ hasText: 'Application submitted for review' })).toBeVisible()
  await expect(page).toHaveURL(/\/profile\/corporate$/)
  await expect(page.getByTestId('corporate-status')).toHaveAttribute('data-status', 'pending')
  await expect(page.getByTestId('corporate-continue')).toHaveCount(0)
  await expect(page.getByTestId('corporate-progress')).toHaveText('5 of 5')

  // The reviewer approves (the dev route calls what `tenger corporate approve` calls).
  const answer = await request.post(`${baseURL}/dev/corporate/review`, { data: { userId: String(me.id), answer: 'approve' } })
  expect(((await answer.json()) as { code: string }).code).toBe('0')
  await page.reload()
  await expect(page.getByTestId('corporate-status')).toHaveAttribute('data-status', 'approved')
  await expect(page.getByTestId('corporate-account-type')).toHaveAttribute('data-type', 'enterprise')
  await expect(page.getByTestId('corporate-notice')).toContainText('Your account is an enterprise account')

  // The approved account in both themes at both widths; its application, read-only, on a dark phone.
  for (const [theme, size] of [
    ['light', WIDE],
    ['dark', WIDE],
    ['light', PHONE],
    ['dark', PHONE],
  ] as const) {
    await page.setViewportSize(size)
    await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2' })
    await page.goto('/profile/corporate')
    await expect(page.getByTestId('corporate-account-type')).toHaveAttribute('data-type', 'enterprise')
    await shot(page, 'approved', theme, size.width)
  }
  await page.goto('/profile/corporate/apply')
  await expect(page.getByTestId('corporate-readonly')).toBeVisible()
  await expect(page.getByTestId('review-edit')).toHaveCount(0)
  await expect(page.getByTestId('corporate-review').getByTestId('attached-file')).toHaveCount(4)
  await shot(page, 'application-readonly', 'dark', PHONE.width)

  // Back to a regular account: the application is a draft again, its details kept.
  await page.goto('/profile/corporate')
  await page.getByTestId('corporate-change-to-regular').click()
  await page.getByTestId('change-to-regular-dialog').getByTestId('confirm-change-to-regular').click()
  await expect(toast(page).filter({ hasText: 'Your account is a regular account again' })).toBeVisible()
  await expect(page.getByTestId('corporate-account-type')).toHaveAttribute('data-type', 'regular')
  await expect(page.getByTestId('corporate-status')).toHaveAttribute('data-status', 'draft')
  await expect(page.getByTestId('corporate-change-to-regular')).toHaveCount(0)

  // The documents step, editable again: dark on a desktop, light on a phone.
  for (const [theme, size] of [
    ['dark', WIDE],
    ['light', PHONE],
  ] as const) {
    await page.setViewportSize(size)
    await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2' })
    await page.goto('/profile/corporate/apply?step=4')
    await expect(page.getByTestId('corporate-step-4').getByTestId('attached-file')).toHaveCount(4)
    await shot(page, 'step-4-documents', theme, size.width)
  }
})
