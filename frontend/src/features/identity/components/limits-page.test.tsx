import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { setLanguage } from '@/lib/cookies'
import type { ApiEnvelope } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { LevelList } from '../api/get-level-list'
import { accountLimitsTexts, identityTexts } from '../lib/texts'
import { LimitsPage, usedPercent } from './limits-page'

const server = vi.hoisted(() => ({
  answers: {} as Record<string, (body: Record<string, unknown>) => { code: string; msg: string; data: unknown }>,
}))
vi.mock('@/lib/request-client', async (orig) => {
  const actual = await orig<typeof import('@/lib/request-client')>()
  const apiPost = vi.fn(async (path: string, body: Record<string, unknown> = {}) => {
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
vi.mock('@/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), markUnreachableTold: vi.fn() }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 7 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const ok = <T,>(data: T) => ({ code: '0', msg: 'suc', data })

function levels(over: Partial<LevelList> = {}): LevelList {
  const verified = over.verifiedLevel === 'basic'
  return {
    levels: [
      { levelName: 'basic', providerLevel: 'basic-kyc-level', withdrawDailyUsdt: '100000', description: '', rank: 1, status: verified ? 'verified' : 'unverified', current: verified },
    ],
    kycStatus: verified ? 2 : 0,
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

const cost = (limit: string, used: string, left: string) =>
  ok({ coin: 'USDT', total_withdraw_daily_max_limit: limit, used_withdraw_daily_amount: used, left_withdraw_daily_amount: left })

describe('account limits page', () => {
  beforeAll(() => Promise.all(['en-US', 'mn-MN'].flatMap((l) => [identityTexts.load(l as 'en-US'), accountLimitsTexts.load(l as 'en-US')])))
  beforeEach(() => {
    vi.clearAllMocks()
    screenWidth(1440)
    server.answers = {
      '/fe-ex-api/sumsub/v2/get_level_list': () => ok(levels()),
      '/fe-ex-api/cost/Getcost': (body) => (body.symbol === 'USDT' ? cost('1000.00', '250.00', '750.00') : { code: '410', msg: 'x', data: null }),
    }
  })

  it('shows the unverified limit, what the last 24 hours used and left, every level and the way to verify', async () => {
    renderWithApp(<LimitsPage />)
    const summary = await screen.findByTestId('limit-summary')
    expect(within(summary).getByTestId('limit-total').textContent).toBe('1,000 USDT')
    expect(within(summary).getByTestId('limit-level').textContent).toBe('Not verified')
    expect((await within(summary).findByTestId('limit-used')).textContent).toBe('250 USDT')
    expect(within(summary).getByTestId('limit-left').textContent).toBe('750 USDT')
    const bar = within(summary).getByRole('progressbar', { name: 'Used in the last 24 hours' })
    expect(bar.getAttribute('aria-valuenow')).toBe('25')
    expect(bar.getAttribute('aria-valuetext')).toBe('250 of 1,000 USDT used')
    const cta = within(summary).getByTestId('limit-cta')
    expect(cta.textContent).toContain('Withdraw up to 100,000 USDT a day')
    expect(within(cta).getByRole('link', { name: 'Verify your identity' }).getAttribute('href')).toBe('/profile/identity')
    const table = screen.getByRole('table', { name: 'Daily withdrawal limit of each verification level' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual(['No verificationYour level1,000 USDT', 'BasicUnverified100,000 USDT'])
  })

  it('a verified user at the top level sees the full limit, no call to verify, in Mongolian', async () => {
    setLanguage('mn_MN')
    server.answers['/fe-ex-api/sumsub/v2/get_level_list'] = () =>
      ok(levels({ verifiedLevel: 'basic', currentLevel: 'basic', reviewStatus: 'completed', reviewAnswer: 'GREEN' }))
    server.answers['/fe-ex-api/cost/Getcost'] = () => cost('100000.00', '0.00', '100000.00')
    renderWithApp(<LimitsPage />)
    const summary = await screen.findByTestId('limit-summary')
    expect(within(summary).getByTestId('limit-total').textContent).toBe('100,000 USDT')
    expect(within(summary).getByTestId('limit-level').textContent).toBe('Баталгаажсан: Үндсэн')
    expect((await within(summary).findByTestId('limit-left')).textContent).toBe('100,000 USDT')
    expect(within(summary).getByTestId('limit-top').textContent).toBe('Та хамгийн дээд түвшинд байна.')
    expect(within(summary).queryByTestId('limit-cta')).toBeNull()
    const basic = screen.getByTestId('limit-row-basic')
    expect(basic.textContent).toContain('Таны түвшин')
    expect(basic.textContent).toContain('Баталгаажсан')
  })

  it('while a review runs it says so instead of offering to verify', async () => {
    server.answers['/fe-ex-api/sumsub/v2/get_level_list'] = () =>
      ok(levels({ kycStatus: 1, currentLevel: 'basic', reviewStatus: 'pending', canRetry: false }))
    renderWithApp(<LimitsPage />)
    const note = await screen.findByTestId('limit-level-note')
    expect(note.textContent).toContain('Your documents are under review')
    expect(screen.queryByTestId('limit-cta')).toBeNull()
  })

  it('when today\'s usage cannot be read the limit still shows, with a way to load it again', async () => {
    server.answers['/fe-ex-api/cost/Getcost'] = () => ({ code: '20001', msg: 'closed', data: null })
    renderWithApp(<LimitsPage />)
    const error = await screen.findByTestId('limit-usage-error')
    expect(screen.getByTestId('limit-total').textContent).toBe('1,000 USDT')
    server.answers['/fe-ex-api/cost/Getcost'] = () => cost('1000.00', '0.00', '1000.00')
    fireEvent.click(within(error).getByRole('button', { name: 'Load again' }))
    await waitFor(() => expect(screen.getByTestId('limit-left').textContent).toBe('1,000 USDT'))
  })

  it('a failed load of the levels says so', async () => {
    server.answers['/fe-ex-api/sumsub/v2/get_level_list'] = () => ({ code: '16000', msg: 'x', data: null })
    renderWithApp(<LimitsPage />)
    expect((await screen.findByTestId('limits-error')).textContent).toContain('Your limits could not be loaded.')
  })

  it('computes the share used, within 0–100', () => {
    expect(usedPercent('250', '1000')).toBe(25)
    expect(usedPercent('2000', '1000')).toBe(100)
    expect(usedPercent('', '1000')).toBe(0)
    expect(usedPercent('5', '0')).toBe(0)
  })
})
