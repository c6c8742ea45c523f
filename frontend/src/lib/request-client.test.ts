import { beforeEach, describe, expect, it, vi } from 'vitest'

const postMock = vi.fn()
vi.mock('aws-amplify/api', () => ({ post: (...args: unknown[]) => postMock(...args) }))
const notifyError = vi.fn()
vi.mock('./notify', () => ({ notifyError: (...args: unknown[]) => notifyError(...args), notifySuccess: vi.fn() }))

import {
  apiData,
  apiPost,
  ApiError,
  buildBody,
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
