// Set-up helpers of the wallet end-to-end tests: a signed-in account, its
// user id, and funding through the dev chain and bank simulators.
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { signInWithApi } from './support/browser'
import { api, apiOk, baseURL, loginToken, registerUser, type TestUser } from './support/server-api'

/** A signed-in wallet test account. */
export interface WalletUser {
  user: TestUser
  token: string
  uid: string
}

/** Registers an account, signs the page in and returns its token and user id. */
export async function walletUser(page: Page, request: APIRequestContext, tag: string): Promise<WalletUser> {
  const user = await registerUser(request, tag)
  await signInWithApi(page, user)
  const token = await loginToken(request, user)
  const info = await apiOk<{ id: string | number }>(request, '/common/user_info', {}, token)
  return { user, token, uid: String(info.id) }
}

/** POSTs to a dev simulator route and returns data (fails the test on a non-zero code). */
export async function dev<T = unknown>(request: APIRequestContext, path: string, body: Record<string, unknown>): Promise<T> {
  const res = await request.post(`${baseURL}${path}`, { data: body })
  expect(res.status(), `HTTP status of ${path}`).toBeLessThan(500)
  const answer = (await res.json()) as { code: string | number; msg: string; data: T }
  expect(String(answer.code), `${path}: ${answer.msg}`).toBe('0')
  return answer.data
}

/** Deposits `amount` of coin on chain to the user and mines enough blocks to credit it. */
export async function fundByChain(
  request: APIRequestContext,
  w: WalletUser,
  coin: string,
  chain: string,
  amount: string,
  confirmations: number,
): Promise<void> {
  const addr = await apiOk<{ addressLong: string; addressStr: string; memo: string }>(
    request,
    '/wallet/get_charge_address',
    { symbol: coin, chain },
    w.token,
  )
  await dev(request, '/dev/chain/deposit', { coin, chain, address: addr.addressStr || addr.addressLong, memo: addr.memo, amount })
  await dev(request, '/dev/chain/mine', { chain, blocks: confirmations + 1 })
  await expect
    .poll(async () => {
      const page = await api<{ list: { status: string; coin: string }[] }>(request, '/wallet/deposit_history', { coinSymbol: coin }, w.token)
      return page.data.list.filter((r) => r.status === 'credited').length
    }, { timeout: 10_000 })
    .toBeGreaterThan(0)
}

/** Credits MNT to the user through the bank simulator (reference = user id). */
export async function fundByBank(request: APIRequestContext, w: WalletUser, amount: string): Promise<void> {
  await dev(request, '/dev/bank/incoming', { amount, reference: w.uid, bankTxId: `e2e-${w.uid}-${Date.now()}-${Math.random()}` })
}

/** A 1×1 PNG: the document image the verification simulator is given. */
export const DOCUMENT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * Verifies the user's identity through the dev verification simulator, as
 * the user and the provider's reviewer would: an identity document page
 * uploaded, the simulator's form sent with it, the reviewer's GREEN (sent to
 * the server's webhook route). Withdrawals above the unverified daily limit
 * (1000 USDT unless an operator changes it) need it.
 */
export async function verifyIdentity(request: APIRequestContext, w: WalletUser): Promise<void> {
  const up = await request.post(`${baseURL}/fe-ex-api/common/upload_img_auth?imageType=1`, {
    headers: { 'exchange-token': w.token, 'exchange-client': 'pc' },
    multipart: { file: { name: 'passport.png', mimeType: 'image/png', buffer: DOCUMENT_PNG } },
  })
  const upload = (await up.json()) as { code: string | number; msg: string; data: { id: string } }
  expect(String(upload.code), `document upload: ${upload.msg}`).toBe('0')
  const token = await apiOk<{ token: string }>(request, '/sumsub/get_access_token', {}, w.token)
  const sent = await request.post(`${baseURL}/dev/kyc/submit`, {
    form: {
      accessToken: token.token,
      firstName: 'Test',
      lastName: 'User',
      dob: '1990-03-14',
      country: 'MNG',
      idDocNumber: 'E1234567',
      uploadId: upload.data.id,
    },
    maxRedirects: 0,
  })
  expect(sent.status(), 'the verification simulator took the form').toBe(303)
  await dev(request, '/dev/kyc/review', { userId: w.uid, answer: 'GREEN' })
}

/** A valid Bitcoin mainnet (bech32) address outside the exchange. */
export const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'

/** Picks an asset in the open modal's asset picker. */
export async function pickAsset(page: Page, scope: ReturnType<Page['getByTestId']>, coin: string): Promise<void> {
  await scope.getByTestId('asset-picker').click()
  await scope.getByTestId('asset-search').fill(coin)
  await scope.getByTestId(`asset-option-${coin}`).click()
  await expect(scope.getByTestId('asset-picker')).toContainText(coin)
}
