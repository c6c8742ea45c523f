import { beforeEach, describe, expect, it, vi } from 'vitest'

const postMock = vi.fn()
vi.mock('aws-amplify/api', () => ({ post: (...args: unknown[]) => postMock(...args) }))
const notifyError = vi.fn()
const reportUnreachable = vi.fn()
const reportReachable = vi.fn()
vi.mock('./notify', () => ({
  notifyError: (...args: unknown[]) => notifyError(...args),
  notifySuccess: vi.fn(),
  reportUnreachable: () => reportUnreachable(),
  reportReachable: () => reportReachable(),
}))

import {
  apiData,
  apiPost,
  ApiError,
  buildBody,
  isNetworkError,
  formatUaTime,
  onSessionExpired,
  PARAMETER_ERROR_TEXT,
  splitPath,
} from './request-client'

function answer(json: unknown) {
  postMock.mockReturnValueOnce({
    response: Promise.resolve({ statusCode: 200, headers: {}, body: { json: () => Promise.resolve(json) } }),
    cancel: vi.fn(),
  })
}

function lastCall() {
  return postMock.mock.calls.at(-1)![0] as {
    apiName: string
    path: string
    options: { headers: Record<string, string>; body: Record<string, unknown>; withCredentials: boolean }
  }
}

beforeEach(() => {
  postMock.mockReset()
  notifyError.mockReset()
  reportUnreachable.mockReset()
  reportReachable.mockReset()
})

describe('request headers and envelope', () => {
  it('sends spec §7 headers from the cookies', async () => {
    document.cookie = 'token=tok123; path=/'
    document.cookie = 'lan=mn_MN; path=/'
    document.cookie = 'dId=device-1; path=/'
    document.cookie = 'XSRF-TOKEN=xsrf-9; path=/'
    answer({ code: '0', msg: 'success', data: { ok: true } })
    await apiPost('/fe-ex-api/common/user_info', { a: 1 })
    const call = lastCall()
    expect(call.apiName).toBe('/fe-ex-api')
    expect(call.path).toBe('/common/user_info')
    expect(call.options.withCredentials).toBe(true)
    expect(call.options.headers).toMatchObject({
      'exchange-token': 'tok123',
      'exchange-client': 'pc',
      'exchange-language': 'mn_MN',
      device: 'device-1',
      'X-XSRF-TOKEN': 'xsrf-9',
    })
    expect(call.options.headers['futures-version']).toBeUndefined()
  })

  it('omits the token and XSRF headers without cookies, defaults the language and makes a device id', async () => {
    answer({ code: '0', msg: 'success', data: null })
    await apiPost('/fe-ex-api/common/public_info_market')
    const { headers } = lastCall().options
    expect(headers['exchange-token']).toBeUndefined()
    expect(headers['X-XSRF-TOKEN']).toBeUndefined()
    expect(headers['exchange-language']).toBe('en_US')
    expect(headers.device).toMatch(/^[0-9a-f]{32}$/)
    expect(document.cookie).toContain(`dId=${headers.device}`)
  })

  it('adds futures-version 101 on the futures service', async () => {
    answer({ code: 0, msg: 'success', data: null })
    await apiPost('/fe-co-api/common/public_info')
    expect(lastCall().apiName).toBe('/fe-co-api')
    expect(lastCall().options.headers['futures-version']).toBe('101')
  })

  it('wraps the body in the uaTime/securityInfo envelope', async () => {
    document.cookie = 'dId=dev-7; path=/'
    document.cookie = 'CHFIT_DEVICEID=fp-8; path=/'
    answer({ code: '0', msg: 'success', data: null })
    await apiPost('/fe-ex-api/user/login_in', { email: 'a@b.mn' })
    const body = lastCall().options.body
    expect(body.email).toBe('a@b.mn')
    expect(body.uaTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    const info = JSON.parse(body.securityInfo as string)
    expect(typeof info.timestamp).toBe('number')
    expect(info.dId).toBe('dev-7')
    expect(info.deviceId).toBe('fp-8')
  })

  it('formats uaTime in local time', () => {
    expect(formatUaTime(new Date(2026, 10, 1, 9, 5, 7))).toBe('2026-11-01 09:05:07')
    const body = buildBody({ x: 1 }, new Date(2026, 0, 31, 23, 59, 0))
    expect(body.uaTime).toBe('2026-01-31 23:59:00')
    expect(JSON.parse(body.securityInfo as string).timestamp).toBe(new Date(2026, 0, 31, 23, 59, 0).getTime())
  })

  it('maps paths to their service prefix and rejects unknown ones', () => {
    expect(splitPath('/fe-otc-api/otc/search')).toEqual({ service: '/fe-otc-api', path: '/otc/search' })
    expect(() => splitPath('/nope/x')).toThrow(/^Error:/)
  })
})

describe('response handling', () => {
  it('returns the envelope on success without a toast', async () => {
    answer({ code: '0', msg: 'success', data: { id: 5 } })
    const res = await apiPost<{ id: number }>('/fe-ex-api/common/user_info')
    expect(res.data.id).toBe(5)
    expect(notifyError).not.toHaveBeenCalled()
    answer({ code: 0, msg: 'success', data: 7 })
    await expect(apiData('/fe-ex-api/x')).resolves.toBe(7)
  })

  it('shows the server message in an error toast for a non-zero code', async () => {
    answer({ code: '10100', msg: 'Wrong password', data: null })
    const res = await apiPost('/fe-ex-api/user/login_in', {})
    expect(res.code).toBe('10100')
    expect(notifyError).toHaveBeenCalledWith('Wrong password')
  })

  it('passes 10002 on silently and clears the signed-in state', async () => {
    const listener = vi.fn()
    const off = onSessionExpired(listener)
    answer({ code: '10002', msg: 'Not signed in', data: null })
    const res = await apiPost('/fe-ex-api/common/user_info')
    off()
    expect(res.code).toBe('10002')
    expect(notifyError).not.toHaveBeenCalled()
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it("shows 'Parameter error' for 410", async () => {
    answer({ code: 410, msg: 'bad field x', data: null })
    await apiPost('/fe-ex-api/user/register', {})
    expect(notifyError).toHaveBeenCalledWith(PARAMETER_ERROR_TEXT)
    expect(PARAMETER_ERROR_TEXT).toBe('Parameter error')
  })

  it('does not toast when the caller asks for silence, and apiData rejects with ApiError', async () => {
    answer({ code: '20001', msg: 'Too many requests', data: { retryAfter: 30 } })
    const err = await apiData('/fe-ex-api/v4/common/emailValidCode', {}, { silent: true }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('20001')
    expect((err as ApiError).message).toBe('Too many requests')
    expect((err as ApiError).data).toEqual({ retryAfter: 30 })
    expect(notifyError).not.toHaveBeenCalled()
  })

  it("rejects network failures with an Error whose text starts with 'Error:'", async () => {
    postMock.mockReturnValueOnce({ response: Promise.reject(new TypeError('Failed to fetch')), cancel: vi.fn() })
    await expect(apiPost('/fe-ex-api/common/user_info')).rejects.toThrow('Error: Failed to fetch')
    expect(notifyError).not.toHaveBeenCalled()
  })

  it('reads the envelope from an HTTP error body when present', async () => {
    const httpError = Object.assign(new Error('Unknown error'), {
      response: { statusCode: 429, headers: {}, body: JSON.stringify({ code: '429', msg: 'Slow down', data: null }) },
    })
    postMock.mockReturnValueOnce({ response: Promise.reject(httpError), cancel: vi.fn() })
    const res = await apiPost('/fe-ex-api/user/login_in')
    expect(res.code).toBe('429')
    expect(notifyError).toHaveBeenCalledWith('Slow down')
  })

  it('rejects a response that is not an envelope', async () => {
    answer('<html>')
    await expect(apiPost('/fe-ex-api/common/user_info')).rejects.toThrow(/^Error:/)
  })
})

describe('the exchange could not be reached', () => {
  const fail = (error: unknown) => postMock.mockReturnValueOnce({ response: Promise.reject(error), cancel: vi.fn() })
  const amplifyNetworkError = () => Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' })

  it('reports each request that got no answer to the shared notice, and rejects with a NetworkError', async () => {
    fail(amplifyNetworkError())
    fail(new TypeError('Failed to fetch'))
    const errors = await Promise.all([
      apiPost('/fe-ex-api/common/user_info').catch((e: unknown) => e),
      apiData('/fe-ex-api/finance/v5/account_balance').catch((e: unknown) => e),
    ])
    for (const e of errors) {
      expect(isNetworkError(e)).toBe(true)
      expect((e as Error).message).toMatch(/^Error: /)
    }
    expect(reportUnreachable).toHaveBeenCalledTimes(2)
    // No raw English message of its own.
    expect(notifyError).not.toHaveBeenCalled()
  })

  it('counts a gateway that cannot reach the exchange (502, 503, 504), not other HTTP errors', async () => {
    const http = (statusCode: number) => Object.assign(new Error('Unknown error'), { response: { statusCode, headers: {}, body: '<html>' } })
    fail(http(503))
    await expect(apiPost('/fe-ex-api/x')).rejects.toSatisfy(isNetworkError)
    expect(reportUnreachable).toHaveBeenCalledTimes(1)
    fail(http(500))
    const e = await apiPost('/fe-ex-api/x').catch((err: unknown) => err)
    expect(isNetworkError(e)).toBe(false)
    expect(reportUnreachable).toHaveBeenCalledTimes(1)
  })

  it('says nothing for a request its caller cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    fail(Object.assign(new Error('Request is canceled by user'), { name: 'CanceledError' }))
    const e = await apiPost('/fe-ex-api/x', {}, { signal: controller.signal }).catch((err: unknown) => err)
    expect(isNetworkError(e)).toBe(false)
    expect(reportUnreachable).not.toHaveBeenCalled()
  })

  it('tells the notice when a request is answered again, even with a refusal', async () => {
    answer({ code: '0', msg: 'success', data: null })
    await apiPost('/fe-ex-api/x')
    answer({ code: '10100', msg: 'Wrong password', data: null })
    await apiPost('/fe-ex-api/x')
    expect(reportReachable).toHaveBeenCalledTimes(2)
    expect(reportUnreachable).not.toHaveBeenCalled()
  })
})
