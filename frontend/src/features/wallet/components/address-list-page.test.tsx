import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { SavedAddress } from '../api/wallet-api'
import { AddressListPage } from './address-list-page'

const api = vi.hoisted(() => ({
  getAddressList: vi.fn(),
  getVerifyAddress: vi.fn(),
  deleteWithdrawAddress: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/notify', () => notify)

const saved = (id: string, label: string): SavedAddress => ({
  id,
  coinSymbol: 'BTC',
  chain: 'BTC',
  trustType: 'BTC',
  address: `bc1q${id}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`,
  memo: '',
  addressStr: '',
  shortAddress: '',
  label,
  ctime: 0,
})

describe('AddressListPage', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getAddressList.mockResolvedValue([saved('a1', 'Cold wallet'), saved('a2', 'Ledger')])
    api.getVerifyAddress.mockResolvedValue(false)
  })

  it("names each row's copy and delete buttons after the address label, so a screen reader tells them apart", async () => {
    renderWithApp(<AddressListPage />)
    expect(await screen.findByRole('button', { name: 'Delete the address "Cold wallet"' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Delete the address "Ledger"' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Copy the address "Ledger"' })).toBeTruthy()
  })

  it('the delete dialog is described by its text, and a failed request is said and keeps it open', async () => {
    api.deleteWithdrawAddress.mockRejectedValue(new Error('Error: Network error'))
    renderWithApp(<AddressListPage />)
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the address "Ledger"' }))
    const dialog = await screen.findByRole('alertdialog')
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '')
    expect(described?.textContent).toBe('The address "Ledger" will be removed from your address book.')
    fireEvent.click(within(dialog).getByTestId('confirm-delete'))
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith('Error: Network error'))
    expect(screen.getByRole('alertdialog')).toBeTruthy()
  })
})
