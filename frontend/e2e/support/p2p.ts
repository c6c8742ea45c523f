// Set-up helpers of the P2P journey: a merchant (verified identity, an
// approved application, USDT in the OTC account, a fund password) and a
// buyer, made through the API so the browser drives only the P2P screens.
import { expect, type APIRequestContext } from '@playwright/test'
import { dev, fundByChain, verifyIdentity, type WalletUser } from '../wallet-support'
import { api, apiOk, baseURL, latestCode, loginToken, registerUser } from './server-api'

/** operationType of the fund (trade) password's code (spec §3: SMS 6; e-mail 6 for accounts without a phone). */
export const OP_TRADE_PASSWORD = 6
/** The merchant's fund password in the journey. */
export const FUND_PASSWORD = 'Fund2026pass'

/** POSTs to the OTC service (/fe-otc-api) and returns data, failing the test on a non-zero code. */
export async function otcOk<T = unknown>(request: APIRequestContext, path: string, body: Record<string, unknown>, token?: string): Promise<T> {
  const headers: Record<string, string> = { 'exchange-client': 'pc', 'exchange-language': 'en_US' }
  if (token) headers['exchange-token'] = token
  const res = await request.post(`${baseURL}/fe-otc-api${path}`, { headers, data: body })
  const answer = (await res.json()) as { code: string | number; msg: string; data: T }
  expect(String(answer.code), `${path}: ${answer.msg}`).toBe('0')
  return answer.data
}

/** A test account with its session token and user id (not signed in in any browser yet). */
export async function apiUser(request: APIRequestContext, tag: string): Promise<WalletUser> {
  const user = await registerUser(request, tag)
  const token = await loginToken(request, user)
  const info = await apiOk<{ id: string | number }>(request, '/common/user_info', {}, token)
  return { user, token, uid: String(info.id) }
}

/**
 * A merchant ready to publish a SELL ad: identity verified through the
 * verification simulator, the merchant application approved by the
 * operator (/dev/p2p/merchant), `usdt` USDT deposited on chain and moved
 * from spot to the OTC account, and the fund password set (the account has
 * no phone, so its code is the e-mail code of the same operation).
 */
export async function merchantUser(request: APIRequestContext, usdt: string): Promise<WalletUser> {
  const m = await apiUser(request, 'p2p-merchant')
  await verifyIdentity(request, m)
  await otcOk(request, '/otc/company_apply', {}, m.token)
  await dev(request, '/dev/p2p/merchant', { userId: m.uid, approve: true })
  await fundByChain(request, m, 'USDT', 'BEP20', usdt, 15)
  await expect
    .poll(async () => String((await api(request, '/finance/otc_transfer', { fromAccount: 1, toAccount: 2, amount: usdt, coinSymbol: 'USDT' }, m.token)).code), {
      timeout: 10_000,
    })
    .toBe('0')
  await apiOk(request, '/v4/common/emailValidCode', { operationType: OP_TRADE_PASSWORD }, m.token)
  const code = await latestCode(request, m.user.email, OP_TRADE_PASSWORD)
  await apiOk(request, '/v4/capital_password/reset', { newCapitalPwd: FUND_PASSWORD, emailCode: code }, m.token)
  return m
}

/**
 * Waits until `w`'s OTC (P2P) account holds `normal` available and `lock`
 * frozen of USDT (2 decimals, as otc_account_list answers).
 */
export async function expectOTC(request: APIRequestContext, w: WalletUser, normal: string, lock: string): Promise<void> {
  await expect
    .poll(async () => {
      const list = await apiOk<{ allCoinMap: Record<string, { normal: string; lock: string }> }>(request, '/finance/otc_account_list', {}, w.token)
      const usdt = list.allCoinMap.USDT
      return `${usdt?.normal} available, ${usdt?.lock} frozen`
    })
    .toBe(`${normal} available, ${lock} frozen`)
}
