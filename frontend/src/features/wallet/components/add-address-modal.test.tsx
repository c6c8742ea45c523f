import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { AssetEntry } from '../api/wallet-api'
import { AddAddressModal } from './add-address-modal'

const api = vi.hoisted(() => ({
  getAssets: vi.fn(),
  getVerifyAddress: vi.fn(),
  validateWithdrawAddress: vi.fn(),
  sendSms: vi.fn(),
  addWithdrawAddress: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))
vi.mock('@/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1, email: 'a@example.com', isOpenMobileCheck: 1, googleStatus: 0 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const ton: AssetEntry = {
  value: 'TON',
  label: 'TON',
  img: '',
  code: 'TON',
  fix: 6,
  normal_balance: '0',
  totalBalance: '0',
  lockBalance: '0',
  chains: [{ name: 'TON', mainChainName: 'TON', tagType: 1, depositMin: '0.1', confirmations: 1, arrivalSeconds: 5 }],
  trustType: 'TON',
  isFiat: false,
  depositOpen: true,
  withdrawOpen: true,
}

async function fillStep1(address: string) {
  renderWithApp(<AddAddressModal open onClose={() => {}} coin="TON" />)
  const modal = await screen.findByTestId('add-address-modal')
  await within(modal).findByTestId('add-address-step-1')
  fireEvent.change(within(modal).getByTestId('add-address-address'), { target: { value: address } })
  fireEvent.change(within(modal).getByTestId('add-address-memo'), { target: { value: '555' } })
  fireEvent.change(within(modal).getByTestId('add-address-label'), { target: { value: 'Mine' } })
  fireEvent.click(within(modal).getByTestId('add-address-next'))
  return modal
}

describe('AddAddressModal', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getAssets.mockResolvedValue([ton])
    api.getVerifyAddress.mockResolvedValue(false)
  })

  it('refuses a wrong address on step 1 with the server message, before the code step', async () => {
    api.validateWithdrawAddress.mockResolvedValue({ code: '10020', msg: 'The address is not a valid TON address', data: null })
    const modal = await fillStep1('UQnotanaddress')
    expect(await within(modal).findByText('The address is not a valid TON address')).toBeTruthy()
    expect(api.validateWithdrawAddress).toHaveBeenCalledWith('TON', 'TON', 'UQnotanaddress_555')
    expect(within(modal).queryByTestId('add-address-step-2')).toBeNull()
    expect(api.sendSms).not.toHaveBeenCalled()

    // Editing the address clears the verdict.
    fireEvent.change(within(modal).getByTestId('add-address-address'), { target: { value: 'UQother' } })
    await waitFor(() => expect(within(modal).queryByText('The address is not a valid TON address')).toBeNull())
  })

  it('goes on to the code step once the server accepts the address', async () => {
    api.validateWithdrawAddress.mockResolvedValue({ code: '0', msg: 'success', data: null })
    const modal = await fillStep1('UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt')
    const step2 = await within(modal).findByTestId('add-address-step-2')
    expect(step2.textContent).toContain('UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt')
  })
  it('Enter in a field goes on like the button: step 1 checks the address, step 2 saves it', async () => {
    api.validateWithdrawAddress.mockResolvedValue({ code: '0', msg: 'success', data: null })
    api.addWithdrawAddress.mockResolvedValue({ code: '0', msg: 'success', data: null })
    renderWithApp(<AddAddressModal open onClose={() => {}} coin="TON" />)
    const modal = await screen.findByTestId('add-address-modal')
    await within(modal).findByTestId('add-address-step-1')
    fireEvent.change(within(modal).getByTestId('add-address-address'), { target: { value: 'UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt' } })
    const label = within(modal).getByTestId('add-address-label')
    fireEvent.change(label, { target: { value: 'Mine' } })
    fireEvent.submit(label.closest('form')!)
    const step2 = await within(modal).findByTestId('add-address-step-2')
    const code = step2.querySelector('input[name="smsValidCode"]') as HTMLInputElement
    fireEvent.change(code, { target: { value: '123456' } })
    fireEvent.submit(code.closest('form')!)
    await waitFor(() => expect(api.addWithdrawAddress).toHaveBeenCalledTimes(1))
  })
})
