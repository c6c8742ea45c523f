import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { AddBankModal } from './add-bank-modal'

const api = vi.hoisted(() => ({ getPaymentList: vi.fn(), addBankAccount: vi.fn(), sendSms: vi.fn() }))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))
vi.mock('@/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1, email: 'a@example.com', realName: 'Bat', isOpenMobileCheck: 0, googleStatus: 0 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

describe('AddBankModal', () => {
  beforeEach(() => vi.clearAllMocks())

  it('says when the bank list did not load (rather than an empty choice) and retries', async () => {
    api.getPaymentList.mockRejectedValueOnce(new Error('Error: Network error'))
    renderWithApp(<AddBankModal open onClose={() => {}} />)
    const modal = await screen.findByTestId('add-bank-modal')
    const failed = await within(modal).findByTestId('payments-error')
    expect(failed.getAttribute('role')).toBe('alert')
    api.getPaymentList.mockResolvedValue([{ id: '1', payment: 'KHAN', title: 'Khan Bank', titleMn: 'Хаан банк', icon: '' }])
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(within(modal).getByRole('option', { name: 'Khan Bank' })).toBeTruthy())
    expect(within(modal).queryByTestId('payments-error')).toBeNull()
  })
})
