import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UserInfo } from '@/lib/session'
import { renderWithApp } from '@/test/render'
import { normalizeApplication } from '../api/types'
import { loadCorporateTexts } from '../lib/texts-loader'
import { CorporatePage } from './corporate-page'

const api = vi.hoisted(() => ({ getBaseInfo: vi.fn(), changeToRegular: vi.fn(), confirmSubmit: vi.fn() }))
vi.mock('../api/get-base-info', async () => {
  const { queryOptions } = await import('@tanstack/react-query')
  const { corporateKeys } = await import('../api/types')
  return { corporateApplicationQuery: queryOptions({ queryKey: corporateKeys.application, queryFn: () => api.getBaseInfo() }) }
})
vi.mock('../api/change-to-regular', () => ({ changeToRegular: api.changeToRegular }))
vi.mock('../api/confirm-submit', () => ({ confirmSubmit: api.confirmSubmit }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), reportReachable: vi.fn(), reportUnreachable: vi.fn() }))
vi.mock('@/lib/notify', () => notify)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 7 } as UserInfo, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  ;(globalThis as unknown as { CSS: { escape: (s: string) => string } }).CSS = { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) }
}

const steps = (saved: boolean) => [1, 2, 3, 4, 5].map((step) => ({ step, name: '', saved, complete: saved }))

describe('corporate verification general page', () => {
  beforeAll(() => Promise.all([loadCorporateTexts('en-US'), loadCorporateTexts('mn-MN')]))
  beforeEach(() => {
    vi.clearAllMocks()
    document.cookie = 'lan=en_US; path=/'
  })

  it('says what a rejection asks for, and leads back to the forms', async () => {
    api.getBaseInfo.mockResolvedValue(
      normalizeApplication({
        status: 'rejected',
        accountType: 'regular',
        editable: true,
        canSubmit: true,
        reasons: ['The proof of address is older than three months'],
        steps: steps(true),
        missing: [],
      }),
    )
    renderWithApp(<CorporatePage />, { path: '/profile/corporate' })
    const notice = await screen.findByTestId('corporate-notice')
    expect(notice.textContent).toContain('Your application was not approved')
    expect(within(notice).getByTestId('corporate-reasons').textContent).toBe('The proof of address is older than three months')
    expect(screen.getByTestId('corporate-continue').textContent).toBe('Edit and resubmit')
    expect(screen.getByTestId('corporate-progress').textContent).toBe('5 of 5')
    expect(screen.getByTestId('corporate-submit')).toBeTruthy()
    expect(screen.queryByTestId('corporate-change-to-regular')).toBeNull()
  })

  it('changes an enterprise account back to regular after asking', async () => {
    const approved = { status: 'approved', accountType: 'enterprise', editable: false, canChangeToRegular: true, steps: steps(true), missing: [] }
    api.getBaseInfo.mockResolvedValue(normalizeApplication(approved))
    api.changeToRegular.mockResolvedValue({ code: '0', msg: 'success', data: {} })
    renderWithApp(<CorporatePage />, { path: '/profile/corporate' })
    expect((await screen.findByTestId('corporate-account-type')).textContent).toBe('Enterprise')
    expect(screen.queryByTestId('corporate-continue')).toBeNull()
    api.getBaseInfo.mockResolvedValue(normalizeApplication({ ...approved, status: 'draft', accountType: 'regular', editable: true, canChangeToRegular: false }))
    fireEvent.click(screen.getByTestId('corporate-change-to-regular'))
    fireEvent.click(await screen.findByTestId('confirm-change-to-regular'))
    await waitFor(() => expect(api.changeToRegular).toHaveBeenCalledTimes(1))
    await waitFor(() => expect(screen.getByTestId('corporate-account-type').textContent).toBe('Regular'))
    expect(notify.notifySuccess).toHaveBeenCalledWith('Your account is a regular account again')
    expect(screen.getByTestId('corporate-status').getAttribute('data-status')).toBe('draft')
  })

  it('speaks Mongolian, with the steps a new user has not started', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    api.getBaseInfo.mockResolvedValue(normalizeApplication({ status: 'none', accountType: 'regular', editable: true, steps: steps(false), missing: [{ step: 1, field: 'fullName', rule: 'required' }] }))
    renderWithApp(<CorporatePage />, { path: '/profile/corporate' })
    expect((await screen.findByTestId('corporate-status')).textContent).toBe('Эхлээгүй')
    expect(screen.getByTestId('corporate-continue').textContent).toBe('Эхлэх')
    expect(within(screen.getByTestId('corporate-step-row-1')).getByTestId('corporate-step-state').textContent).toBe('Эхлээгүй')
  })
})
