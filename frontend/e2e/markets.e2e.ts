// The markets page against the real server and its market maker: the 24 h
// figures, the price in the chosen currency, sorting by keyboard and on a
// phone, and trend lines of at least 24 points.
import { expect, test, type Locator } from '@playwright/test'
import { PHONE, setCookies } from './support/browser'

/** A shown figure as a number ('1,075.72', '12.35M', '3.40 тэрбум'), for comparing the order. */
function figure(text: string): number {
  const n = Number(text.replace(/[^\d.]/g, ''))
  if (/M|сая/.test(text)) return n * 1e6
  if (/B|тэрбум/.test(text)) return n * 1e9
  return n
}

/**
 * Whether the rows' figures (the element `testId` of each row, read in one
 * go from the rows as they stand) are in the order `dir`. Live prices move
 * rows while the test reads, so callers poll it.
 */
async function sorted(table: Locator, testId: string, dir: 'desc' | 'asc'): Promise<boolean> {
  const texts = await table.locator('tbody tr').evaluateAll((rows, id) => rows.map((r) => r.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''), testId)
  const n = texts.map(figure)
  return n.every((x, i) => i === 0 || (dir === 'desc' ? n[i - 1] >= x : n[i - 1] <= x))
}

test('markets: 24 h columns, fiat price, keyboard sorting and 24-point trend lines', async ({ page }) => {
  await page.goto('/market')
  const table = page.getByTestId('market-table')
  const btc = page.getByTestId('market-row-BTC_USDT')
  await expect(table.getByRole('columnheader')).toHaveText([
    'Pair',
    'Name',
    'Last price',
    'Price (USD)',
    '24h change',
    '24h high',
    '24h low',
    '24h volume',
    '24h trend',
    'Action',
  ])
  // The market maker trades from the start: figures with their units.
  await expect(btc.getByTestId('market-fiat')).toHaveText(/^\$\d{2,3},\d{3}\.\d{2}$/, { timeout: 20_000 })
  await expect(btc.getByTestId('market-volume')).toHaveText(/^[\d,.]+M? USDT$/)
  await expect(btc.getByTestId('market-high')).toHaveText(/^\d{2,3},\d{3}\.\d{2}$/)
  // The server sends 24 points even for pairs that began trading a moment ago; with the 24 h open, 25.
  const points = async () => ((await btc.getByTestId('sparkline').locator('polyline').getAttribute('points')) ?? '').split(' ').length
  await expect.poll(points, { timeout: 20_000 }).toBeGreaterThanOrEqual(24)

  // Sorting from the keyboard: Tab reaches the header's button, Enter sorts high to low, Space reverses.
  const volume = page.getByTestId('sort-volume')
  await page.getByTestId('sort-high').focus()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(volume).toBeFocused()
  await page.keyboard.press('Enter')
  const volumeHeader = table.getByRole('columnheader', { name: '24h volume' })
  await expect(volumeHeader).toHaveAttribute('aria-sort', 'descending')
  await expect.poll(() => sorted(table, 'market-volume', 'desc')).toBe(true)
  await page.keyboard.press('Space')
  await expect(volumeHeader).toHaveAttribute('aria-sort', 'ascending')
  await expect.poll(() => sorted(table, 'market-volume', 'asc')).toBe(true)
  // A third press goes back to the listing order.
  await page.keyboard.press('Enter')
  await expect(volumeHeader).not.toHaveAttribute('aria-sort', /./)
  await expect(table.getByTestId(/^market-row-/).first()).toHaveAttribute('data-testid', 'market-row-BTC_USDT')
})

test('markets on a phone: pair, price and change, a sort select, prices in tögrög', async ({ page }) => {
  await setCookies(page.context(), { lan: 'mn_MN', user_Currency: 'MNT' })
  await page.setViewportSize(PHONE)
  await page.goto('/market')
  const table = page.getByTestId('market-table')
  const btc = page.getByTestId('market-row-BTC_USDT')
  await expect(btc.getByTestId('market-change')).toHaveText(/%$/, { timeout: 20_000 })
  // The other figures' columns are hidden; the price in tögrög stands under the last price.
  await expect(btc.getByTestId('market-volume')).toBeHidden()
  await expect(btc.getByTestId('market-fiat')).toBeHidden()
  await expect(btc.getByTestId('market-price')).toContainText('₮')
  const select = page.getByRole('combobox', { name: 'Эрэмбэлэх' })
  await expect(select).toBeVisible()
  await select.selectOption('volume:desc')
  // Its column is hidden here, its header still says how the table is sorted.
  await expect(table.locator('th', { has: page.getByTestId('sort-volume') })).toHaveAttribute('aria-sort', 'descending')
  // The volume it sorts by stands under each pair (in the quote coin the pair names).
  const shownVolumes = page.getByTestId('market-sorted-figure')
  await expect(shownVolumes.first()).toBeVisible()
  await expect(shownVolumes.first()).toHaveText(/^[\d,.]+( сая)?$/)
  await expect.poll(() => sorted(table, 'market-sorted-figure', 'desc')).toBe(true)
  // Nothing scrolls sideways at 390 px.
  const overflow = await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)
  expect(overflow).toBeLessThanOrEqual(1)
})
