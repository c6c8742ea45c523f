import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sendCodeLocks } from '@/components/form/send-code-button'
import { renderWithApp } from '@/test/render'
import type { AssetEntry, BankAccount, ChainEntry, WithdrawCost } from '../api/wallet-api'
import { notifyError } from '@/lib/notify'
import { formatTime } from '../lib/format'
import { WithdrawModal } from './withdraw-modal'

const api = vi.hoisted(() => ({
  getAssets: vi.fn(),
  getCost: vi.fn(),
  getBankAccounts: vi.fn(),
  validateWithdrawAddress: vi.fn(),
  sendEmail: vi.fn(),
  sendSms: vi.fn(),
  confirmWithdraw: vi.fn(),
  bankWithdraw: vi.fn(),
  getRates: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))
vi.mock('@/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
// The add-bank form has its own tests: here it only reports a new account.
vi.mock('./add-bank-modal', () => ({
  AddBankModal: ({ open, onAdded }: { open: boolean; onAdded?: (id: string) => void }) =>
    open ? (
      <button type="button" data-testid="stub-add-bank" onClick={() => onAdded?.('b1')}>
        add
      </button>
    ) : null,
}))

const chainEntry = (name: string, tagType = 0): ChainEntry => ({ name, mainChainName: name, tagType, depositMin: '0', confirmations: 1, arrivalSeconds: 0 })

const asset = (value: string, chain: string, isFiat = false): AssetEntry => ({
  value,
  label: value === 'MONT' ? 'MNT' : value,
  img: '',
  code: value === 'MONT' ? 'MNT' : value,
  fix: isFiat ? 2 : 8,
  normal_balance: '1.00000000',
  totalBalance: '1.00000000',
  lockBalance: '0',
  chains: [chainEntry(chain)],
  trustType: chain,
  isFiat,
  depositOpen: true,
  withdrawOpen: true,
})

const cost = (over: Partial<WithdrawCost> = {}): WithdrawCost => ({
  coin: 'BTC',
  chain: 'BTC',
  feeMin: '0.0002',
  feeMax: '0.0002',
  defaultFee: '0.0002',
  withdraw_min: '0.0001',
  withdraw_max: '10.0000',
  can_withdraw_amount: '1.00000000',
  left_withdraw_daily_amount: '100000.00',
  left_withdraw_daily_coin_amount: '',
  total_withdraw_daily_max_limit: '100000.00',
  used_withdraw_daily_amount: '0.00',
  mainChainNameTip: '',
  tagType: 0,
  precision: 8,
  userWithdrawAddrList: [],
  verifyAddress: false,
  needEmailCode: true,
  needSmsCode: false,
  needGoogleCode: false,
  ...over,
})

const ok = { code: '0', msg: '', data: null }

// jsdom has no CSS.escape, which the dialog's focus trap calls when an element with an id (a field's
// error text) comes and goes within one batch of DOM changes, as when an amount is typed through an
// error and out of it; browsers have it.
if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  Object.defineProperty(globalThis, 'CSS', { value: { ...(globalThis.CSS ?? {}), escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) }, configurable: true })
}

async function openStep2(coin = 'BTC') {
  renderWithApp(<WithdrawModal open onClose={() => {}} coin={coin} />)
  const modal = await screen.findByTestId('withdraw-modal')
  await within(modal).findByTestId('withdraw-limits')
  fireEvent.click(within(modal).getByTestId('withdraw-continue'))
  await within(modal).findByTestId('withdraw-step-2')
  return modal
}

function fillCrypto(modal: HTMLElement, amount: string) {
  fireEvent.change(within(modal).getByTestId('withdraw-address'), { target: { value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } })
  fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: amount } })
  fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
}

describe('WithdrawModal', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getAssets.mockResolvedValue([asset('BTC', 'BTC'), asset('MONT', 'Bank', true)])
    api.getCost.mockResolvedValue(cost())
    api.getBankAccounts.mockResolvedValue([])
    api.validateWithdrawAddress.mockResolvedValue(ok)
    api.sendEmail.mockResolvedValue(ok)
    api.getRates.mockResolvedValue({})
  })
  afterEach(() => sendCodeLocks.clear())

  it('refuses on step 2 an amount at or below the fee, below the minimum or above the maximum (spec §8)', async () => {
    api.getCost.mockResolvedValue(cost({ withdraw_min: '0.0001', withdraw_max: '0.5000' }))
    const modal = await openStep2()
    const error = () => within(modal).getByTestId('withdraw-amount-error').textContent

    fillCrypto(modal, '0.0002')
    await waitFor(() => expect(error()).toBe('The amount must be more than the fee (0.0002 BTC)'))
    fillCrypto(modal, '0.00005')
    await waitFor(() => expect(error()).toBe('The amount is below the minimum withdrawal (0.0001 BTC)'))
    fillCrypto(modal, '0.6')
    await waitFor(() => expect(error()).toBe('The amount is above the single withdrawal maximum (0.5000 BTC)'))
    // Confirm takes the user to the field at fault, not on.
    await waitFor(() => expect(document.activeElement).toBe(within(modal).getByTestId('withdraw-amount')))
    expect(within(modal).queryByTestId('withdraw-step-3')).toBeNull()

    fillCrypto(modal, '0.1')
    await within(modal).findByTestId('withdraw-step-3')
    // The summary shows the amounts at the coin's precision, as the fee and the history do.
    expect(within(modal).getByTestId('withdraw-summary').textContent).toContain('0.10000000 BTC')
    expect(within(modal).getByTestId('withdraw-summary').textContent).toContain('0.09980000 BTC')
  })

  it('moves focus to the step 3 title, and keeps the send-code countdown across Back and return', async () => {
    const modal = await openStep2()
    fillCrypto(modal, '0.1')
    const step3 = await within(modal).findByTestId('withdraw-step-3')
    const title = within(modal).getByTestId('modal-title')
    await waitFor(() => expect(document.activeElement).toBe(title))
    expect(title.textContent).toBe('Confirm transaction')

    fireEvent.click(within(step3).getByTestId('send-email'))
    await waitFor(() => expect((within(step3).getByTestId('send-email') as HTMLButtonElement).disabled).toBe(true))
    expect(within(step3).getByTestId('send-email').textContent).toMatch(/Resend in \d+s/)

    fireEvent.click(within(modal).getByTestId('modal-back'))
    await within(modal).findByTestId('withdraw-step-2')
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    const again = await within(modal).findByTestId('withdraw-step-3')
    const button = within(again).getByTestId('send-email') as HTMLButtonElement
    await waitFor(() => expect(button.textContent).toMatch(/Resend in \d+s/))
    expect(button.disabled).toBe(true)
    expect(api.sendEmail).toHaveBeenCalledTimes(1)
  })

  it('clears the choose-a-bank error once a bank account is added', async () => {
    const bank: BankAccount = { id: 'b1', title: 'Khan Bank', account: 'MN123456789012345678', userName: 'Bat', icon: '', payment: 'khan' }
    api.getCost.mockResolvedValue(cost({ coin: 'MONT', chain: 'Bank', defaultFee: '500', withdraw_min: '5000', withdraw_max: '50000000', can_withdraw_amount: '100000.00', precision: 2 }))
    const modal = await openStep2('MONT')
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '20000' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    expect((await within(modal).findByTestId('withdraw-form-error')).textContent).toBe('Choose a bank account')

    api.getBankAccounts.mockResolvedValue([bank])
    fireEvent.click(within(modal).getByTestId('add-bank-link'))
    await act(async () => {
      fireEvent.click(await screen.findByTestId('stub-add-bank'))
    })
    await waitFor(() => expect(within(modal).queryByTestId('withdraw-form-error')).toBeNull())
  })

  it('fills a saved TON address and its memo from the address book even when the address holds underscores', async () => {
    const ton = 'UQAk8NIcHHZlaHKtQd22scWEeWxy5gSGehoYro_esF8is7Gt'
    api.getAssets.mockResolvedValue([{ ...asset('TON', 'TON'), chains: [chainEntry('TON', 1)] }])
    api.getCost.mockResolvedValue(
      cost({ coin: 'TON', chain: 'TON', tagType: 1, defaultFee: '0.05', userWithdrawAddrList: [{ id: 'a1', address: `${ton}_555`, label: 'Mine', trustType: 'TON' }] }),
    )
    const modal = await openStep2('TON')
    fireEvent.change(within(modal).getByTestId('address-book-select'), { target: { value: 'a1' } })
    expect((within(modal).getByTestId('withdraw-address') as HTMLInputElement).value).toBe(ton)
    expect((within(modal).getByTestId('withdraw-memo') as HTMLInputElement).value).toBe('555')
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '0.5' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    await within(modal).findByTestId('withdraw-step-3')
    expect(api.validateWithdrawAddress).toHaveBeenCalledWith('TON', 'TON', `${ton}_555`)
  })

  it('with address verification on, refuses an unsaved address on step 2, before any code is sent', async () => {
    const saved = 'bc1qsavedsavedsavedsavedsavedsavedsaved00'
    api.getCost.mockResolvedValue(cost({ verifyAddress: true, userWithdrawAddrList: [{ id: 'a1', address: saved, label: 'Cold', trustType: 'BTC' }] }))
    const modal = await openStep2()
    fillCrypto(modal, '0.1')
    expect((await within(modal).findByTestId('withdraw-address-error')).textContent).toBe(
      'Address verification is on: choose an address from your address book.',
    )
    expect(within(modal).getByTestId('withdraw-address').getAttribute('aria-invalid')).toBe('true')
    expect(within(modal).queryByTestId('withdraw-step-3')).toBeNull()

    fireEvent.change(within(modal).getByTestId('address-book-select'), { target: { value: 'a1' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    await within(modal).findByTestId('withdraw-step-3')
  })

  it('groups the thousands of a bank withdrawal amount on the confirm step', async () => {
    const bank: BankAccount = { id: 'b1', title: 'Khan Bank', account: 'MN123456789012345678', userName: 'Bat', icon: '', payment: 'khan' }
    api.getBankAccounts.mockResolvedValue([bank])
    api.getCost.mockResolvedValue(cost({ coin: 'MONT', chain: 'Bank', defaultFee: '500', withdraw_min: '5000', withdraw_max: '50000000', can_withdraw_amount: '100000.00', precision: 2 }))
    const modal = await openStep2('MONT')
    await waitFor(() => expect((within(modal).getByTestId('withdraw-bank-select') as HTMLSelectElement).value).toBe('b1'))
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '20000' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    const summary = await within(modal).findByTestId('withdraw-summary')
    expect(summary.textContent).toContain('20,000.00 MNT')
  })

  it('refuses on step 2 a USDT amount above the 24-hour remaining limit', async () => {
    api.getAssets.mockResolvedValue([asset('USDT', 'TRC20')])
    api.getCost.mockResolvedValue(
      cost({ coin: 'USDT', chain: 'TRC20', defaultFee: '1', withdraw_min: '10', withdraw_max: '1000000', can_withdraw_amount: '200000', left_withdraw_daily_amount: '1500.00', left_withdraw_daily_coin_amount: '1500.000000', precision: 6 }),
    )
    const modal = await openStep2('USDT')
    fireEvent.change(within(modal).getByTestId('withdraw-address'), { target: { value: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' } })
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '1500.5' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    expect((await within(modal).findByTestId('withdraw-amount-error')).textContent).toBe('The amount is above your 24-hour remaining limit (1,500.00 USDT)')
    expect(within(modal).queryByTestId('withdraw-step-3')).toBeNull()
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '1500' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    await within(modal).findByTestId('withdraw-step-3')
  })

  it('refuses on step 2 an amount above what the server says is left of the 24-hour limit in the coin, and takes exactly that', async () => {
    // The rate table would value 0.05 BTC at 5,000 USDT, over the 4,900 left: the server's own valuation decides, not the table.
    api.getRates.mockResolvedValue({ en_US: { BTC: '100000', USDT: '1', lang_logo: '$' } })
    api.getCost.mockResolvedValue(cost({ left_withdraw_daily_amount: '4900.00', left_withdraw_daily_coin_amount: '0.05000000' }))
    const modal = await openStep2()
    // One unit of precision above what is left.
    fillCrypto(modal, '0.05000001')
    expect((await within(modal).findByTestId('withdraw-amount-error')).textContent).toBe('The amount is above your 24-hour remaining limit (4,900.00 USDT)')
    expect(within(modal).queryByTestId('withdraw-step-3')).toBeNull()
    // Exactly what is left (written with fewer places).
    fillCrypto(modal, '0.05')
    await within(modal).findByTestId('withdraw-step-3')
    expect(api.validateWithdrawAddress).toHaveBeenCalledTimes(1)
  })

  it('leaves the 24-hour limit of a coin without a server price to the server', async () => {
    api.getRates.mockResolvedValue({ en_US: { BTC: '98000', USDT: '1' } })
    api.getCost.mockResolvedValue(cost({ left_withdraw_daily_amount: '10.00', left_withdraw_daily_coin_amount: '' }))
    const modal = await openStep2()
    fillCrypto(modal, '0.1')
    await within(modal).findByTestId('withdraw-step-3')
    expect(api.validateWithdrawAddress).toHaveBeenCalledTimes(1)
  })

  it('shows the withdrawal lock time in the app date format', async () => {
    const until = Date.now() + 3_600_000
    api.getCost.mockResolvedValue(cost({ withdrawLockedUntil: until }))
    renderWithApp(<WithdrawModal open onClose={() => {}} coin="BTC" />)
    const notice = await screen.findByTestId('withdraw-locked')
    expect(notice.textContent).toContain(formatTime(until))
    expect(formatTime(until)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  })
  it('without the cost info (its request failed) offers a retry and no way on to a fee of 0', async () => {
    api.getCost.mockRejectedValueOnce(new Error('Error: Network error'))
    renderWithApp(<WithdrawModal open onClose={() => {}} coin="BTC" />)
    const modal = await screen.findByTestId('withdraw-modal')
    const failed = await within(modal).findByTestId('withdraw-cost-error')
    expect((within(modal).getByTestId('withdraw-continue') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }))
    await within(modal).findByTestId('withdraw-limits')
    expect((within(modal).getByTestId('withdraw-continue') as HTMLButtonElement).disabled).toBe(false)
  })

  it('adds an address with a button beside the address book, not an option that arrow keys would pick', async () => {
    api.getCost.mockResolvedValue(cost({ userWithdrawAddrList: [{ id: 'a1', address: 'bc1qsaved', label: 'Cold', trustType: 'BTC' }] }))
    const modal = await openStep2()
    const select = within(modal).getByTestId('address-book-select') as HTMLSelectElement
    await waitFor(() => expect(select.options).toHaveLength(2))
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['', 'a1'])
    // Moving through the list (what an arrow key does) only picks saved addresses.
    fireEvent.change(select, { target: { value: 'a1' } })
    expect(screen.queryByTestId('add-address-modal')).toBeNull()
    fireEvent.click(within(modal).getByRole('button', { name: 'Add an address' }))
    expect(await screen.findByTestId('add-address-modal')).toBeTruthy()
  })

  it('bank: shows what arrives, the amount less the fee, on step 2 and on the confirm step', async () => {
    const bank: BankAccount = { id: 'b1', title: 'Khan Bank', account: 'MN123456789012345678', userName: 'Bat', icon: '', payment: 'khan' }
    api.getBankAccounts.mockResolvedValue([bank])
    api.getCost.mockResolvedValue(cost({ coin: 'MONT', chain: 'Bank', defaultFee: '500', withdraw_min: '5000', withdraw_max: '50000000', can_withdraw_amount: '100000.00', precision: 2 }))
    const modal = await openStep2('MONT')
    await waitFor(() => expect((within(modal).getByTestId('withdraw-bank-select') as HTMLSelectElement).value).toBe('b1'))
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '50000' } })
    expect(within(modal).getByTestId('withdraw-receive').textContent).toContain('49,500.00 MNT')
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    const summary = await within(modal).findByTestId('withdraw-summary')
    expect(summary.textContent).toContain('You will receive49,500.00 MNT')
  })

  it('names the fiat MNT (its showName) wherever an amount is read, while the calls send its withdraw code MONT (spec §4)', async () => {
    const bank: BankAccount = { id: 'b1', title: 'Khan Bank', account: 'MN123456789012345678', userName: 'Bat', icon: '', payment: 'khan' }
    api.getBankAccounts.mockResolvedValue([bank])
    api.bankWithdraw.mockResolvedValue({ code: '10009', msg: 'wrong', data: null })
    api.getAssets.mockResolvedValue([{ ...asset('MONT', 'Bank', true), normal_balance: '990000.00', totalBalance: '990000.00', lockBalance: '0.00' }])
    api.getCost.mockResolvedValue(cost({ coin: 'MONT', chain: 'Bank', defaultFee: '500', feeMin: '500', feeMax: '500', withdraw_min: '5000', withdraw_max: '50000000', can_withdraw_amount: '990000.00', precision: 2 }))
    renderWithApp(<WithdrawModal open onClose={() => {}} coin="MONT" />)
    const modal = await screen.findByTestId('withdraw-modal')
    const step1 = await within(modal).findByTestId('withdraw-step-1')
    const limits = await within(modal).findByTestId('withdraw-limits')
    expect(step1.textContent).toContain('990,000.00 MNT')
    expect(within(limits).getByTestId('withdrawable').textContent).toContain('990,000.00000000 MNT')
    expect(limits.textContent).toContain('5,000.0000 / 50,000,000.0000 MNT')
    expect(api.getCost).toHaveBeenCalledWith('MONT', 'Bank')

    fireEvent.click(within(modal).getByTestId('withdraw-continue'))
    const step2 = await within(modal).findByTestId('withdraw-step-2')
    await waitFor(() => expect((within(modal).getByTestId('withdraw-bank-select') as HTMLSelectElement).value).toBe('b1'))
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '400' } })
    expect(within(step2).getByTestId('withdraw-fee').textContent).toContain('500.00 MNT')
    expect(step2.textContent).toContain('Available: 990,000.00000000 MNT')
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '20000' } })
    expect(within(step2).getByTestId('withdraw-receive').textContent).toContain('19,500.00 MNT')
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    const summary = await within(modal).findByTestId('withdraw-summary')
    expect(summary.textContent).toContain('20,000.00 MNT')
    expect(summary.textContent).toContain('500.00 MNT')
    expect(api.validateWithdrawAddress).toHaveBeenCalledWith('MONT', 'Bank', bank.account)
    // No MONT anywhere the user reads.
    expect(modal.textContent).not.toMatch(/\d MONT/)

    const step3 = within(modal).getByTestId('withdraw-step-3')
    fireEvent.change(step3.querySelector('input[name="emailCode"]') as HTMLInputElement, { target: { value: '123456' } })
    fireEvent.click(within(modal).getByTestId('withdraw-submit'))
    await waitFor(() => expect(api.bankWithdraw).toHaveBeenCalledTimes(1))
    expect(api.bankWithdraw.mock.calls[0][0]).toMatchObject({ code: 'MONT', amount: '20000' })
    // The refusal's answer is shown before the modal goes (no update after the test).
    await within(modal).findByTestId('withdraw-error')
  })

  it('names the coin in the at-most-fee error by its showName', async () => {
    api.getAssets.mockResolvedValue([{ ...asset('MONT', 'Bank', true), normal_balance: '990000.00' }])
    api.getBankAccounts.mockResolvedValue([{ id: 'b1', title: 'Khan Bank', account: 'MN123456789012345678', userName: 'Bat', icon: '', payment: 'khan' }])
    api.getCost.mockResolvedValue(cost({ coin: 'MONT', chain: 'Bank', defaultFee: '500', withdraw_min: '0', withdraw_max: '50000000', can_withdraw_amount: '990000.00', precision: 2 }))
    const modal = await openStep2('MONT')
    await waitFor(() => expect((within(modal).getByTestId('withdraw-bank-select') as HTMLSelectElement).value).toBe('b1'))
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '400' } })
    expect((await within(modal).findByTestId('withdraw-amount-error')).textContent).toBe('The amount must be more than the fee (500.00 MNT)')
  })

  it('Enter in a field goes on like the Confirm button, on step 2 and on the code step', async () => {
    api.confirmWithdraw.mockResolvedValue({ code: '10009', msg: 'wrong', data: null })
    const modal = await openStep2()
    fireEvent.change(within(modal).getByTestId('withdraw-address'), { target: { value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } })
    const amount = within(modal).getByTestId('withdraw-amount')
    fireEvent.change(amount, { target: { value: '0.1' } })
    fireEvent.submit(amount.closest('form')!)
    const step3 = await within(modal).findByTestId('withdraw-step-3')
    const code = step3.querySelector('input[name="emailCode"]') as HTMLInputElement
    fireEvent.change(code, { target: { value: '123456' } })
    fireEvent.submit(code.closest('form')!)
    await waitFor(() => expect(api.confirmWithdraw).toHaveBeenCalledTimes(1))
    expect((within(modal).getByTestId('withdraw-submit') as HTMLButtonElement).type).toBe('submit')
  })

  it('shows a wrong code once, inline next to the codes, without an error toast besides (spec §8 code 10009)', async () => {
    api.confirmWithdraw.mockResolvedValue({ code: '10009', msg: 'wrong', data: null })
    const modal = await openStep2()
    fillCrypto(modal, '0.1')
    const step3 = await within(modal).findByTestId('withdraw-step-3')
    fireEvent.change(step3.querySelector('input[name="emailCode"]') as HTMLInputElement, { target: { value: '123456' } })
    fireEvent.click(within(modal).getByTestId('withdraw-submit'))
    expect((await within(modal).findByTestId('withdraw-error')).textContent).toBe('The mobile or e-mail verification code is wrong')
    expect(notifyError).not.toHaveBeenCalled()
  })

  it('shows the whole mn_MN resend countdown on the send-code button, never a cut part of it', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    try {
      const modal = await openStep2()
      fillCrypto(modal, '0.1')
      const step3 = await within(modal).findByTestId('withdraw-step-3')
      fireEvent.click(within(step3).getByTestId('send-email'))
      const button = within(step3).getByTestId('send-email')
      await waitFor(() => expect(button.textContent).toMatch(/^\d+ секундын дараа дахин илгээх$/))
    } finally {
      document.cookie = 'lan=en_US; path=/'
    }
  })

  it('draws the order history link in the readable brand text colour of the theme (not the button fill)', async () => {
    renderWithApp(<WithdrawModal open onClose={() => {}} coin="BTC" />)
    const link = await screen.findByTestId('withdraw-history-link')
    expect(getComputedStyle(link).color).toBe('var(--chakra-colors-brand-fg)')
  })

  it('preselects no network for a coin on several: step 1 shows what does not depend on it, step 2 waits for the choice', async () => {
    api.getAssets.mockResolvedValue([{ ...asset('USDT', 'ERC20'), chains: [chainEntry('ERC20'), chainEntry('TRC20'), chainEntry('BEP20')] }])
    api.getCost.mockImplementation(async (_coin: string, chain: string) =>
      cost({ coin: 'USDT', chain: chain || 'ERC20', defaultFee: chain === 'TRC20' ? '1' : '4', withdraw_min: '10.0000', withdraw_max: '1000000.0000', can_withdraw_amount: '500.00000000', precision: 6 }),
    )
    renderWithApp(<WithdrawModal open onClose={() => {}} coin="USDT" />)
    const modal = await screen.findByTestId('withdraw-modal')
    const limits = await within(modal).findByTestId('withdraw-limits')
    expect(within(limits).getByTestId('withdrawable').textContent).toContain('500.00000000 USDT')
    // The bounds are the network's: not shown for one the user has not chosen.
    expect(within(limits).queryByTestId('withdraw-min-max')).toBeNull()
    fireEvent.click(within(modal).getByTestId('withdraw-continue'))
    const step2 = await within(modal).findByTestId('withdraw-step-2')
    for (const name of ['ERC20', 'TRC20', 'BEP20']) expect(within(step2).getByTestId(`chain-${name}`).getAttribute('aria-pressed')).toBe('false')
    expect(within(step2).getByTestId('withdraw-choose-network').textContent).toBe(
      'Choose the network to withdraw on. The receiving address must be on the same network.',
    )
    expect(within(step2).queryByTestId('withdraw-address')).toBeNull()
    expect(within(step2).queryByTestId('withdraw-amount')).toBeNull()
    expect((within(step2).getByTestId('withdraw-confirm-2') as HTMLButtonElement).disabled).toBe(true)

    fireEvent.click(within(step2).getByTestId('chain-TRC20'))
    expect(within(step2).getByTestId('chain-TRC20').getAttribute('aria-pressed')).toBe('true')
    await waitFor(() => expect(within(step2).getByTestId('withdraw-fee').textContent).toContain('1.00 USDT'))
    expect(api.getCost).toHaveBeenCalledWith('USDT', 'TRC20')
    expect(within(step2).queryByTestId('withdraw-choose-network')).toBeNull()
    expect((within(step2).getByTestId('withdraw-confirm-2') as HTMLButtonElement).disabled).toBe(false)
  })

  it('checks the address with the server as it is typed, once typing pauses, and marks the field', async () => {
    api.validateWithdrawAddress.mockImplementation(async (_coin: string, _chain: string, address: string) =>
      address === 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' ? ok : { code: '13005', msg: 'The address is not a valid BTC address', data: null },
    )
    const modal = await openStep2()
    const input = within(modal).getByTestId('withdraw-address')
    for (const typed of ['b', 'bc', 'bc1', 'bc1bad']) fireEvent.change(input, { target: { value: typed } })
    const error = await within(modal).findByTestId('withdraw-address-error', undefined, { timeout: 2000 })
    expect(error.textContent).toBe('The address is not a valid BTC address')
    // One call for the pause, with what was typed by then.
    expect(api.validateWithdrawAddress).toHaveBeenCalledTimes(1)
    expect(api.validateWithdrawAddress).toHaveBeenCalledWith('BTC', 'BTC', 'bc1bad')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    // The message is the field's error message (and, aria-live, read out when it comes).
    await waitFor(() => expect(input.getAttribute('aria-errormessage')).toBe(error.id))
    expect(error.getAttribute('aria-live')).toBe('polite')

    fireEvent.change(input, { target: { value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } })
    // The old message goes at once: it was about another address.
    expect(within(modal).queryByTestId('withdraw-address-error')).toBeNull()
    expect((await within(modal).findByTestId('withdraw-address-valid', undefined, { timeout: 2000 })).textContent).toBe('Valid BTC address')
    expect(input.getAttribute('aria-invalid')).toBeNull()

    // Confirm reuses the check's answer.
    fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '0.1' } })
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    await within(modal).findByTestId('withdraw-step-3')
    expect(api.validateWithdrawAddress).toHaveBeenCalledTimes(2)
  })

  it('on Confirm, checks an address typed just now and keeps the user at the field the server refused', async () => {
    api.validateWithdrawAddress.mockResolvedValue({ code: '13025', msg: 'This is your own deposit address', data: null })
    const modal = await openStep2()
    fillCrypto(modal, '0.1')
    expect((await within(modal).findByTestId('withdraw-address-error')).textContent).toBe('This is your own deposit address')
    await waitFor(() => expect(document.activeElement).toBe(within(modal).getByTestId('withdraw-address')))
    expect(within(modal).queryByTestId('withdraw-step-3')).toBeNull()
    expect(api.validateWithdrawAddress).toHaveBeenCalledTimes(1)
  })

  it('marks the memo field when the server refuses the memo', async () => {
    const xrp = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'
    api.getAssets.mockResolvedValue([{ ...asset('XRP', 'XRP'), chains: [chainEntry('XRP', 1)] }])
    api.getCost.mockResolvedValue(cost({ coin: 'XRP', chain: 'XRP', tagType: 1, defaultFee: '0.2', withdraw_min: '20.0000', precision: 6 }))
    api.validateWithdrawAddress.mockImplementation(async (_c: string, _ch: string, target: string) =>
      target === `${xrp}_abc` ? { code: '13006', msg: 'The memo (tag) is not valid for this network', data: null } : ok,
    )
    const modal = await openStep2('XRP')
    fireEvent.change(within(modal).getByTestId('withdraw-address'), { target: { value: xrp } })
    fireEvent.change(within(modal).getByTestId('withdraw-memo'), { target: { value: 'abc' } })
    const error = await within(modal).findByTestId('withdraw-memo-error', undefined, { timeout: 2000 })
    expect(error.textContent).toBe('The memo (tag) is not valid for this network')
    expect(within(modal).getByTestId('withdraw-memo').getAttribute('aria-invalid')).toBe('true')
    expect(within(modal).getByTestId('withdraw-address').getAttribute('aria-invalid')).toBeNull()
  })

  it.each([
    ['', undefined],
    ['0.00005', 'The amount is below the minimum withdrawal (0.0002 BTC)'],
    ['0.0002', 'The amount must be more than the fee (0.0002 BTC)'],
    ['11', 'The amount is above the single withdrawal maximum (10.0000 BTC)'],
    ['2', 'The amount is more than you can withdraw'],
    ['0', 'Enter an amount above 0'],
  ])('validates the amount %j as it is typed and never shows what would arrive for it', async (typed, message) => {
    // The minimum equals the fee (the catalogue allows no less), so an amount of the fee is refused for the fee.
    api.getCost.mockResolvedValue(cost({ withdraw_min: '0.0002', withdraw_max: '10.0000', can_withdraw_amount: '1.00000000' }))
    const modal = await openStep2()
    const input = within(modal).getByTestId('withdraw-amount')
    fireEvent.change(input, { target: { value: '0.5' } })
    expect(within(modal).getByTestId('withdraw-receive').textContent).toContain('0.49980000 BTC')
    fireEvent.change(input, { target: { value: typed } })
    expect(within(modal).queryByTestId('withdraw-receive')).toBeNull()
    expect(within(modal).queryByTestId('withdraw-amount-error')?.textContent).toBe(message)
    expect(input.getAttribute('aria-invalid')).toBe(message ? 'true' : null)
  })

  it('says an empty amount is required once Confirm is pressed, and goes to it', async () => {
    const modal = await openStep2()
    fireEvent.change(within(modal).getByTestId('withdraw-address'), { target: { value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } })
    expect(within(modal).queryByTestId('withdraw-amount-error')).toBeNull()
    fireEvent.click(within(modal).getByTestId('withdraw-confirm-2'))
    expect((await within(modal).findByTestId('withdraw-amount-error')).textContent).toBe('Required')
    await waitFor(() => expect(document.activeElement).toBe(within(modal).getByTestId('withdraw-amount')))
  })

  it('mn_MN: names the bounds in Mongolian as the amount is typed', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    try {
      api.getCost.mockResolvedValue(cost({ withdraw_min: '0.0010', withdraw_max: '10.0000' }))
      const modal = await openStep2()
      fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '0.0005' } })
      expect(within(modal).getByTestId('withdraw-amount-error').textContent).toBe('Зарлагын доод хязгаараас бага байна (доод хязгаар: 0.0010 BTC)')
      fireEvent.change(within(modal).getByTestId('withdraw-amount'), { target: { value: '12' } })
      expect(within(modal).getByTestId('withdraw-amount-error').textContent).toBe('Зарлагын нэг удаагийн дээд хязгаараас их байна (дээд хязгаар: 10.0000 BTC)')
    } finally {
      document.cookie = 'lan=en_US; path=/'
    }
  })

  it('links the withdrawal history', async () => {
    renderWithApp(<WithdrawModal open onClose={() => {}} coin="BTC" />)
    const link = await screen.findByTestId('withdraw-history-link')
    expect(link.textContent).toBe('Withdrawal history')
    expect(link.getAttribute('href')).toBe('/wallet/history?tab=withdraw')
  })
})
