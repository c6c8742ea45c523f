import { describe, expect, it, vi } from 'vitest'
import { normalizeAccessToken, type AccessToken } from '../api/get-access-token'
import { normalizeLevelList, type LevelList } from '../api/get-level-list'
import { launchOf, simulatorHref, startVerification, type VerifyCalls } from './verify-flow'

const API = 'https://api.tenger.mn/fe-ex-api'

const token = (over: Partial<AccessToken> = {}) =>
  normalizeAccessToken({ token: '_act-1', levelName: 'basic', providerLevelName: 'basic-kyc-level', provider: 'sumsub', ...over })

const levels = (over: Partial<LevelList> = {}) =>
  normalizeLevelList({
    levels: [{ levelName: 'basic', providerLevel: 'basic-kyc-level', withdrawDailyUsdt: '100000', rank: 1, status: 'unverified' }],
    provider: 'simulator',
    ...over,
  })

function calls(over: Partial<VerifyCalls> = {}): VerifyCalls {
  return {
    changeLevel: vi.fn(async () => levels({ currentLevel: 'basic', reviewStatus: 'init' })),
    getAccessToken: vi.fn(async () => token()),
    ...over,
  }
}

describe('verify flow', () => {
  it('opens Sumsub\'s WebSDK with the token for provider sumsub', () => {
    expect(launchOf(token())).toEqual({ kind: 'sumsub', token: '_act-1', levelName: 'basic' })
    // No token, nothing to open it with.
    expect(launchOf(token({ token: '' }))).toEqual({ kind: 'unsupported', provider: 'sumsub' })
  })

  it('opens the simulator\'s page (on the API\'s host) for provider simulator', () => {
    const launch = launchOf(token({ provider: 'simulator', simulatorUrl: '/dev/kyc?accessToken=_act-sim-1' }))
    expect(launch).toEqual({ kind: 'simulator', url: `${window.location.origin}/dev/kyc?accessToken=_act-sim-1` })
    expect(simulatorHref('/dev/kyc?accessToken=x', API)).toBe('https://api.tenger.mn/dev/kyc?accessToken=x')
    // Only http(s) pages are opened.
    expect(simulatorHref('javascript:alert(1)', API)).toBeUndefined()
    expect(launchOf(token({ provider: 'simulator', simulatorUrl: 'javascript:alert(1)' }))).toEqual({ kind: 'unsupported', provider: 'simulator' })
    expect(launchOf(token({ provider: 'onfido' }))).toEqual({ kind: 'unsupported', provider: 'onfido' })
  })

  it('moves to the level first when it is not the one applied for, then gets the token for it', async () => {
    const c = calls()
    const started = await startVerification('basic', levels(), c)
    expect(c.changeLevel).toHaveBeenCalledWith('basic')
    expect(c.getAccessToken).toHaveBeenCalledWith('basic')
    expect(started.launch).toEqual({ kind: 'sumsub', token: '_act-1', levelName: 'basic' })
    expect(started.list?.currentLevel).toBe('basic')
  })

  it('asks for the token at once for the level applied for (a retry)', async () => {
    const c = calls({ getAccessToken: vi.fn(async () => token({ provider: 'simulator', simulatorUrl: '/dev/kyc?accessToken=t' })) })
    const started = await startVerification('basic', levels({ currentLevel: 'basic', reviewStatus: 'completed', reviewAnswer: 'RED' }), c)
    expect(c.changeLevel).not.toHaveBeenCalled()
    expect(started).toEqual({ launch: { kind: 'simulator', url: `${window.location.origin}/dev/kyc?accessToken=t` }, list: undefined })
  })

  it('stops when the server refuses the move or the token (the refusal is toasted by the request client)', async () => {
    const refusedMove = calls({ changeLevel: vi.fn(async () => undefined) })
    expect(await startVerification('basic', levels(), refusedMove)).toEqual({})
    expect(refusedMove.getAccessToken).not.toHaveBeenCalled()
    const refusedToken = calls({ getAccessToken: vi.fn(async () => undefined) })
    const started = await startVerification('basic', levels(), refusedToken)
    expect(started.launch).toBeUndefined()
    expect(started.list?.currentLevel).toBe('basic')
  })
})
