import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { TradePasswordModal } from './trade-password-modal'

const api = vi.hoisted(() => ({ getCapitalStatus: vi.fn() }))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1, email: 'a@example.com', googleStatus: 0 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const status = (isSet: number) => ({ isCapitalPwordSet: isSet, withdrawLockedUntil: 0, lockSeconds: 86_400, setAt: 0 })

describe('TradePasswordModal', () => {
  beforeEach(() => vi.clearAllMocks())

  it('is titled Set trade password for a first password, without the 24-hour warning (a first password locks nothing)', async () => {
    api.getCapitalStatus.mockResolvedValue(status(0))
    renderWithApp(<TradePasswordModal open onClose={() => {}} />)
    const modal = await screen.findByTestId('trade-password-modal')
    await vi.waitFor(() => expect(api.getCapitalStatus).toHaveBeenCalled())
    // The form is there (the status has been read), and no ban is announced.
    await within(modal).findByTestId('trade-password-submit')
    await vi.waitFor(() => expect(within(modal).getByTestId('modal-title').textContent).toBe('Set trade password'))
    expect(within(modal).queryByTestId('trade-password-warning')).toBeNull()
  })

  it('keeps the warning when the status could not be read (it may be a change)', async () => {
    api.getCapitalStatus.mockRejectedValue(new Error('Error: Network error'))
    renderWithApp(<TradePasswordModal open onClose={() => {}} />)
    const modal = await screen.findByTestId('trade-password-modal')
    expect((await within(modal).findByTestId('trade-password-warning')).textContent).toContain('24 hours')
  })

  it('is titled Change trade password when one is set, with the 24-hour warning', async () => {
    api.getCapitalStatus.mockResolvedValue(status(1))
    renderWithApp(<TradePasswordModal open onClose={() => {}} />)
    const modal = await screen.findByTestId('trade-password-modal')
    await vi.waitFor(() => expect(within(modal).getByTestId('modal-title').textContent).toBe('Change trade password'))
    expect(within(modal).getByTestId('trade-password-warning').textContent).toContain('24 hours')
  })
})
