import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { setLanguage } from '@/lib/cookies'
import type { ApiEnvelope } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import type { LevelList } from '../api/get-level-list'
import { identityTexts, accountLimitsTexts } from '../lib/texts'
import { IdentityPage } from './identity-page'
import { POLL_MS } from './use-level-list'

/** The fake server: answers by path, as the request client would resolve. */
const server = vi.hoisted(() => ({
  answers: {} as Record<string, (body: Record<string, unknown>) => { code: string; msg: string; data: unknown }>,
  calls: [] as { path: string; body: Record<string, unknown> }[],
}))
vi.mock('@/lib/request-client', async (orig) => {
  const actual = await orig<typeof import('@/lib/request-client')>()
  const apiPost = vi.fn(async (path: string, body: Record<string, unknown> = {}) => {
    server.calls.push({ path, body })
    const answer = server.answers[path]
    if (!answer) throw new Error(`Error: no answer for ${path}`)
    return answer(body)
  })
  return {
    ...actual,
    apiPost,
    apiData: vi.fn(async (path: string, body: Record<string, unknown> = {}) => {
      const envelope = (await apiPost(path, body)) as ApiEnvelope
      if (!actual.isSuccess(envelope)) throw new actual.ApiError(envelope)
      return envelope.data
    }),
  }
})
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), markUnreachableTold: vi.fn() }))
vi.mock('@/lib/notify', () => notify)
const sumsub = vi.hoisted(() => ({ launchSumsub: vi.fn(), destroy: vi.fn() }))
vi.mock('../lib/sumsub', async (orig) => ({
  ...(await orig<typeof import('../lib/sumsub')>()),
  launchSumsub: sumsub.launchSumsub,
}))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 7 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const ok = <T,>(data: T) => ({ code: '0', msg: 'suc', data })

const LEVELS_PATH = '/fe-ex-api/sumsub/v2/get_level_list'
const TOKEN_PATH = '/fe-ex-api/sumsub/get_access_token'
const CHANGE_PATH = '/fe-ex-api/sumsub/change_level_and_create_info'

/** A level list as the server answers it: one level, basic, 100,000 USDT a day; unverified 1,000. */
function levels(over: Partial<LevelList> = {}): LevelList {
  const verified = over.verifiedLevel === 'basic'
  return {
    levels: [
      {
        levelName: 'basic',
        providerLevel: 'basic-kyc-level',
        withdrawDailyUsdt: '100000',
        description: 'Identity document (passport, ID card or driving licence); no selfie',
        rank: 1,
        status: verified ? 'verified' : 'unverified',
        current: !!over.currentLevel,
      },
    ],
    kycStatus: 0,
    verifiedLevel: '',
    currentLevel: '',
    applicantId: '',
    reviewStatus: '',
    reviewAnswer: '',
    reviewRejectType: '',
    rejectLabels: [],
    rejectReason: '',
    canRetry: true,
    unverifiedWithdrawDailyUsdt: '1000',
    withdrawDailyUsdt: verified ? '100000' : '1000',
    provider: 'simulator',
    ...over,
  }
}

const rejected = (type: 'RETRY' | 'FINAL') =>
  levels({
    kycStatus: 3,
    currentLevel: 'basic',
    applicantId: 'a1',
    reviewStatus: 'completed',
    reviewAnswer: 'RED',
    reviewRejectType: type,
    rejectLabels: ['UNSATISFACTORY_PHOTOS', 'SOMETHING_ELSE'],
    rejectReason: 'We could not read your document.',
    canRetry: type === 'RETRY',
  })

let current: LevelList
const status = () => screen.findByTestId('identity-status')

describe('identity page', () => {
  beforeAll(() => Promise.all(['en-US', 'mn-MN'].flatMap((l) => [identityTexts.load(l as 'en-US'), accountLimitsTexts.load(l as 'en-US')])))
  beforeEach(() => {
    vi.clearAllMocks()
    server.calls = []
    current = levels()
    server.answers = {
      [LEVELS_PATH]: () => ok(current),
      [CHANGE_PATH]: () => {
        current = { ...current, currentLevel: 'basic', reviewStatus: 'init', applicantId: 'a1' }
        return ok(current)
      },
      [TOKEN_PATH]: () =>
        ok({ token: '_act-sim-1', levelName: 'basic', providerLevelName: 'basic-kyc-level', provider: 'simulator', simulatorUrl: '/dev/kyc?accessToken=_act-sim-1' }),
    }
    sumsub.launchSumsub.mockResolvedValue({ destroy: sumsub.destroy })
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('shows an unverified user the small limit, the levels with their limits, and Verify', async () => {
    renderWithApp(<IdentityPage />)
    const card = await status()
    expect(card.getAttribute('data-state')).toBe('unverified')
    expect(within(card).getByTestId('identity-status-badge').textContent).toBe('Unverified')
    expect(card.textContent).toContain('withdraw up to 1,000 USDT a day')
    expect(card.textContent).toContain('raise it to 100,000 USDT')
    expect(within(card).getByTestId('identity-daily-limit').textContent).toBe('1,000 USDT')
    expect(within(card).getByRole('button', { name: 'Verify now' })).toBeTruthy()
    const rows = within(await screen.findByTestId('identity-levels')).getAllByRole('listitem')
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['identity-level-unverified', 'identity-level-basic'])
    expect(rows[0].textContent).toContain('Your level')
    expect(rows[1].textContent).toContain('Basic')
    expect(rows[1].textContent).toContain('100,000 USDT a day')
    expect(rows[1].textContent).toContain('No selfie needed')
  })

  it('Verify with the simulator: moves to the level, gets a token and opens the simulator\'s page in a new tab', async () => {
    const tab = { opener: {} } as unknown as Window
    const open = vi.spyOn(window, 'open').mockReturnValue(tab)
    renderWithApp(<IdentityPage />)
    fireEvent.click(await screen.findByTestId('verify-identity'))
    await waitFor(() => expect(open).toHaveBeenCalledWith(`${window.location.origin}/dev/kyc?accessToken=_act-sim-1`, '_blank'))
    expect(tab.opener).toBeNull()
    expect(server.calls.map((c) => c.path)).toContain(CHANGE_PATH)
    expect(server.calls.find((c) => c.path === TOKEN_PATH)?.body).toEqual({ levelName: 'basic' })
    // A way back to the page while the documents are not sent; the label says it continues.
    expect(await screen.findByTestId('identity-simulator-notice')).toBeTruthy()
    expect((await screen.findByTestId('verify-identity')).textContent).toBe('Continue verification')
    expect(sumsub.launchSumsub).not.toHaveBeenCalled()
  })

  it('Verify with Sumsub: opens the WebSDK in a dialog with the token, and its refresh asks for a new one', async () => {
    server.answers[TOKEN_PATH] = () =>
      ok({ token: '_act-jwt-1', levelName: 'basic', providerLevelName: 'basic-kyc-level', provider: 'sumsub' })
    current = levels({ provider: 'sumsub', currentLevel: 'basic', reviewStatus: 'init', applicantId: 'a1' })
    const open = vi.spyOn(window, 'open')
    renderWithApp(<IdentityPage />)
    fireEvent.click(await screen.findByTestId('verify-identity'))
    const dialog = await screen.findByTestId('sumsub-dialog')
    await waitFor(() => expect(sumsub.launchSumsub).toHaveBeenCalled())
    const [container, options] = sumsub.launchSumsub.mock.calls[0]
    expect(dialog.contains(container)).toBe(true)
    expect(options).toMatchObject({ token: '_act-jwt-1', lan: 'en_US', theme: 'light' })
    // The level was the one applied for: no move.
    expect(server.calls.map((c) => c.path)).not.toContain(CHANGE_PATH)
    server.answers[TOKEN_PATH] = () => ok({ token: '_act-jwt-2', provider: 'sumsub' })
    await expect(options.refreshToken()).resolves.toBe('_act-jwt-2')
    expect(open).not.toHaveBeenCalled()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(sumsub.destroy).toHaveBeenCalled())
  })

  it('an unknown provider is not opened: the user is told verification is unavailable', async () => {
    server.answers[TOKEN_PATH] = () => ok({ token: 't', provider: 'elsewhere' })
    const open = vi.spyOn(window, 'open')
    renderWithApp(<IdentityPage />)
    fireEvent.click(await screen.findByTestId('verify-identity'))
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith('Identity verification is not available right now. Please try again later.'))
    expect(open).not.toHaveBeenCalled()
    expect(sumsub.launchSumsub).not.toHaveBeenCalled()
  })

  it('a rejection shows the reviewer\'s comment and the labels in Mongolian, and Retry', async () => {
    setLanguage('mn_MN')
    current = rejected('RETRY')
    renderWithApp(<IdentityPage />)
    const card = await status()
    expect(card.getAttribute('data-state')).toBe('rejected')
    expect(within(card).getByTestId('identity-status-badge').textContent).toBe('Татгалзсан')
    expect(within(card).getByTestId('identity-reject-reason').textContent).toBe('We could not read your document.')
    const labels = within(within(card).getByTestId('identity-reject-labels')).getAllByRole('listitem').map((li) => li.textContent)
    expect(labels).toEqual(['Зураг тодорхой бус эсвэл уншигдахгүй байна', 'Something else'])
    expect(within(card).getByTestId('retry-identity').textContent).toBe('Баримт бичгээ дахин илгээх')
    expect(within(card).queryByTestId('identity-support')).toBeNull()
  })

  it('a final rejection offers no retry but the support page', async () => {
    current = rejected('FINAL')
    renderWithApp(<IdentityPage />)
    const card = await status()
    expect(card.getAttribute('data-state')).toBe('final')
    expect(card.textContent).toContain('This decision is final')
    expect(within(card).queryByTestId('retry-identity')).toBeNull()
    expect(within(card).queryByTestId('verify-identity')).toBeNull()
    expect(within(card).getByTestId('identity-support').getAttribute('href')).toBe('/profile/support')
  })

  it('while pending it reads the status again and says when it changes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    current = levels({ kycStatus: 1, currentLevel: 'basic', applicantId: 'a1', reviewStatus: 'pending', canRetry: false })
    renderWithApp(<IdentityPage />)
    const card = await status()
    expect(card.getAttribute('data-state')).toBe('pending')
    expect(within(card).getByRole('status').textContent).toBe('Checking for updates')
    expect(within(card).queryByTestId('verify-identity')).toBeNull()
    const reads = () => server.calls.filter((c) => c.path === LEVELS_PATH).length
    const before = reads()
    current = levels({ kycStatus: 2, currentLevel: 'basic', applicantId: 'a1', reviewStatus: 'completed', reviewAnswer: 'GREEN', verifiedLevel: 'basic' })
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 100))
    await waitFor(() => expect(reads()).toBeGreaterThan(before))
    await waitFor(() => expect(screen.getByTestId('identity-status').getAttribute('data-state')).toBe('verified'))
    expect(notify.notifySuccess).toHaveBeenCalledWith('Your identity is verified')
    expect(screen.getByTestId('identity-daily-limit').textContent).toBe('100,000 USDT')
    // Verified at the only level: nothing more to verify, and no more reading.
    expect(screen.queryByTestId('verify-identity')).toBeNull()
    const after = reads()
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2))
    expect(reads()).toBe(after)
  })

  it('a failed load says so and loads again on Try again', async () => {
    server.answers[LEVELS_PATH] = () => ({ code: '16000', msg: 'unavailable', data: null })
    renderWithApp(<IdentityPage />)
    const error = await screen.findByTestId('identity-error')
    server.answers[LEVELS_PATH] = () => ok(current)
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }))
    expect((await status()).getAttribute('data-state')).toBe('unverified')
  })
})
