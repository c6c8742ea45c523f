// Direct calls to the Tenger HTTP API for test set-up (creating users, reading
// the dev outbox), so each browser test only drives the part it is about.
import { expect, type APIRequestContext } from '@playwright/test'

/** The base URL of the `tenger serve` under test (set by e2e/run.mjs). */
export const baseURL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080'

/** One message in the local notification outbox (GET /dev/outbox). */
export interface OutboxEntry {
  to: string
  channel: string
  operationType: number | string
  code: string
  sentAt: string | number
}

/** The envelope every answer of the API has. */
export interface ApiAnswer<T> {
  code: string | number
  msg: string
  data: T
}

/** A test account made through the API. */
export interface TestUser {
  email: string
  password: string
}

/** Operation types of the code-sending endpoints (API contract). */
export const OP_REGISTER = 1
export const OP_FORGOT_PASSWORD = 3
export const OP_BIND_PHONE = 4
export const OP_SECURITY = 11
export const OP_LOGIN_SMS = 25

function uaTime(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`
}

/** A fresh e-mail address, unique per call across parallel workers. */
export function uniqueEmail(tag: string): string {
  const rand = Math.random().toString(36).slice(2, 8)
  return `e2e-${tag}-${Date.now().toString(36)}-${rand}@example.com`
}

/** A fresh Mongolian mobile number (8 digits starting with 9), unique enough per run. */
export function uniqueMobile(): string {
  return `9${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`
}

/** POSTs to /fe-ex-api{path} with the uaTime/securityInfo envelope. */
export async function api<T = unknown>(
  request: APIRequestContext,
  path: string,
  body: Record<string, unknown> = {},
  token?: string,
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {
    'exchange-client': 'pc',
    'exchange-language': 'en_US',
  }
  if (token) headers['exchange-token'] = token
  const res = await request.post(`${baseURL}/fe-ex-api${path}`, {
    headers,
    data: { ...body, uaTime: uaTime(), securityInfo: JSON.stringify({ timestamp: Date.now(), e2e: true }) },
  })
  expect(res.status(), `HTTP status of ${path}`).toBeLessThan(500)
  return (await res.json()) as ApiAnswer<T>
}

/** Like api() but fails the test unless the answer code is 0. */
export async function apiOk<T = unknown>(
  request: APIRequestContext,
  path: string,
  body: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const answer = await api<T>(request, path, body, token)
  expect(String(answer.code), `${path}: ${answer.msg}`).toBe('0')
  return answer.data
}

/** Reads the newest code sent to `to` for an operation from GET /dev/outbox. */
export async function latestCode(
  request: APIRequestContext,
  to: string,
  operationType: number,
  timeoutMs = 5000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await request.get(`${baseURL}/dev/outbox`)
    expect(res.ok(), 'GET /dev/outbox').toBeTruthy()
    const entries = (await res.json()) as OutboxEntry[]
    const match = [...entries].reverse().find((e) => e.to.includes(to) && Number(e.operationType) === operationType)
    if (match) return match.code
    if (Date.now() > deadline) throw new Error(`no code for ${to} (operation ${operationType}) in the outbox`)
    await new Promise((r) => setTimeout(r, 150))
  }
}

/** Registers a new e-mail account through the API and returns its credentials. */
export async function registerUser(request: APIRequestContext, tag: string): Promise<TestUser> {
  const user = { email: uniqueEmail(tag), password: 'Tenger2026pass' }
  await apiOk(request, '/v4/common/emailValidCode', { email: user.email, operationType: OP_REGISTER })
  const code = await latestCode(request, user.email, OP_REGISTER)
  await apiOk(request, '/user/register', { email: user.email, loginPword: user.password, code })
  return user
}

/** Signs in through the API; the answer sets the `token` cookie in the request's context. */
export async function loginToken(request: APIRequestContext, user: TestUser): Promise<string> {
  const data = await apiOk<{ token: string; type?: string }>(request, '/user/login_in', {
    email: user.email,
    loginPword: user.password,
  })
  expect(data.type, 'no second factor expected for this account').toBeUndefined()
  return data.token
}
