// Market favourites follow the signed-in user: a visitor's star survives
// signing in, stars made signed in are kept by the server, and another
// browser signed in as the same user shows them.
import { expect, test, type Page } from '@playwright/test'
import { cookieValue, signInWithApi, submitLoginForm } from './support/browser'
import { apiOk, baseURL, registerUser } from './support/server-api'

/** The star button of a pair ('BTC_USDT') in the market list. */
function star(page: Page, symbol: string) {
  return page.getByTestId(`market-row-${symbol}`).getByRole('button', { name: /favourites$/ })
}

/** The user's favourites as the server keeps them, asked with the page's own session. */
async function serverFavourites(page: Page): Promise<string[]> {
  const token = await cookieValue(page.context(), 'token')
  expect(token, 'signed in').toBeTruthy()
  const data = await apiOk<{ symbols: string[] }>(page.request, '/optional/list_symbol', {}, token)
  return data.symbols
}

test('a visitor star survives signing in, and the stars follow the user to another browser', async ({ page, browser, request }) => {
  const user = await registerUser(request, 'favourites')

  // Signed out: the star lives in local storage only.
  await page.goto('/market')
  await star(page, 'TON_USDT').click()
  await expect(star(page, 'TON_USDT')).toHaveAttribute('aria-pressed', 'true')
  await expect(star(page, 'TON_USDT')).toHaveAccessibleName('Remove TON/USDT from favourites')

  // Signing in merges it into the account.
  await page.goto('/auth/login?redirect=%2Fmarket')
  await submitLoginForm(page, user)
  await expect(page).toHaveURL(/\/market$/)
  await expect(star(page, 'TON_USDT')).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(() => serverFavourites(page)).toEqual(['tonusdt'])

  // With favourites and no tab chosen yet, the list opens on Favourites.
  await expect(page.getByTestId('market-tab-favourites')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('market-row-BTC_USDT')).toHaveCount(0)

  // Signed in: a star is saved on the server straight away. The USDT tab
  // chosen here is the one the list opens on after the reload below.
  await page.getByTestId('market-tab-USDT').click()
  await star(page, 'BTC_USDT').click()
  await expect(star(page, 'BTC_USDT')).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(() => serverFavourites(page)).toEqual(['tonusdt', 'btcusdt'])

  // A fresh browser signed in as the same user shows both under Favourites.
  const other = await browser.newContext({ baseURL, locale: 'en-US', viewport: { width: 1280, height: 800 } })
  try {
    const second = await other.newPage()
    await signInWithApi(second, user)
    await second.goto('/market?tab=favourites')
    await expect(star(second, 'TON_USDT')).toHaveAttribute('aria-pressed', 'true')
    await expect(star(second, 'BTC_USDT')).toHaveAttribute('aria-pressed', 'true')
    await expect(second.getByTestId('market-row-ETH_USDT')).toHaveCount(0)

    // Unstarred there, the pair stays unstarred here: the first browser's
    // cached list does not add it back.
    await star(second, 'TON_USDT').click()
    await expect(second.getByTestId('market-row-TON_USDT')).toHaveCount(0)
    await expect.poll(() => serverFavourites(second)).toEqual(['btcusdt'])
  } finally {
    await other.close()
  }
  await page.reload()
  await expect(star(page, 'BTC_USDT')).toHaveAttribute('aria-pressed', 'true')
  await expect(star(page, 'TON_USDT')).toHaveAttribute('aria-pressed', 'false')
  expect(await serverFavourites(page)).toEqual(['btcusdt'])
})
