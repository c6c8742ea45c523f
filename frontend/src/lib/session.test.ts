import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'

vi.mock('./request-client', async (orig) => ({
  ...(await orig<typeof import('./request-client')>()),
  apiPost: vi.fn(),
}))

import { getCookie, setCookie } from './cookies'
import { apiPost, emitSessionExpired } from './request-client'
import { bindSessionToQueryClient, fetchUserInfo, LOGOUT_PATH, logout, USER_INFO_PATH, userInfoKey } from './session'

describe('signed-in state', () => {
  it('reads user_info silently; 10002 means anonymous', async () => {
    vi.mocked(apiPost).mockResolvedValueOnce({ code: '0', msg: 'ok', data: { id: 3, email: 'a@b.mn' } })
    await expect(fetchUserInfo()).resolves.toEqual({ id: 3, email: 'a@b.mn' })
    expect(vi.mocked(apiPost).mock.calls[0]).toEqual([USER_INFO_PATH, {}, { silent: true, signal: undefined }])
    vi.mocked(apiPost).mockResolvedValueOnce({ code: '10002', msg: 'login', data: null })
    await expect(fetchUserInfo()).resolves.toBeNull()
  })

  it('clears the cached user when any call answers 10002', () => {
    const client = new QueryClient()
    client.setQueryData(userInfoKey, { id: 1 })
    const off = bindSessionToQueryClient(client)
    emitSessionExpired()
    expect(client.getQueryData(userInfoKey)).toBeNull()
    off()
    client.setQueryData(userInfoKey, { id: 2 })
    emitSessionExpired()
    expect(client.getQueryData(userInfoKey)).toEqual({ id: 2 })
  })
})

describe('logout', () => {
  it('calls login_out, removes the token cookie, clears stored tokens and goes to /', async () => {
    vi.mocked(apiPost).mockResolvedValueOnce({ code: '0', msg: 'ok', data: null })
    setCookie('token', 'tok')
    localStorage.setItem('token', 'tok')
    sessionStorage.setItem('tenger.challengeToken', 'c')
    const navigate = vi.fn()
    await logout(navigate)
    expect(vi.mocked(apiPost)).toHaveBeenLastCalledWith(LOGOUT_PATH, {}, { silent: true })
    expect(getCookie('token')).toBeUndefined()
    expect(localStorage.getItem('token')).toBeNull()
    expect(sessionStorage.getItem('tenger.challengeToken')).toBeNull()
    expect(navigate).toHaveBeenCalledWith('/')
  })

  it('signs the browser out even when the server is unreachable', async () => {
    vi.mocked(apiPost).mockRejectedValueOnce(new Error('Error: Failed to fetch'))
    setCookie('token', 'tok')
    const navigate = vi.fn()
    await logout(navigate)
    expect(getCookie('token')).toBeUndefined()
    expect(navigate).toHaveBeenCalledWith('/')
  })
})
