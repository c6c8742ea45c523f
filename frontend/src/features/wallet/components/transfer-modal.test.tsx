import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { setCookie } from '@/lib/cookies'
import { NetworkError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import type { TransferCoin } from '../api/wallet-api'
import { TransferModal } from './transfer-modal'

const api = vi.hoisted(() => ({
  getTransferCoins: vi.fn(),
  getMarginCoinList: vi.fn(),
  transfer: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), notifyUnreachable: vi.fn(), markUnreachableTold: vi.fn() }))
vi.mock('@/lib/notify', () => notify)

const usdt: TransferCoin = { coin: 'USDT', showName: 'USDT', icon: '', normal: '120.5', targetNormal: '30', precision: 6 }

async function open(account?: 'otc' | 'margin_isolated' | 'margin_cross' | 'futures') {
  renderWithApp(<TransferModal open onClose={() => {}} account={account} />)
  return screen.findByTestId('transfer-modal')
}

describe('TransferModal', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getTransferCoins.mockResolvedValue({ account: 'otc', list: [usdt] })
    api.getMarginCoinList.mockResolvedValue({
      coinLists: [{ name: 'BTC/USDT', symbol: 'BTCUSDT', showBaseCoin: 'BTC', showQuoteCoin: 'USDT', symbolName: 'BTC/USDT', coinSymbol: 'BTC', icon: '' }],
    })
    api.transfer.mockResolvedValue({ code: '0', msg: '', data: null })
  })

  it('names the account picker by its side, From or To, and follows the swap', async () => {
    const modal = await open()
    expect(within(modal).getByRole('combobox', { name: 'To' })).toBe(within(modal).getByTestId('transfer-account'))
    fireEvent.click(within(modal).getByTestId('transfer-swap'))
    expect(within(modal).getByRole('combobox', { name: 'From' })).toBe(within(modal).getByTestId('transfer-account'))
  })

  it('names the isolated base/quote choice with its Coin label', async () => {
    api.getTransferCoins.mockResolvedValue({ account: 'margin_isolated', list: [{ ...usdt, coin: 'BTC', showName: 'BTC' }, usdt] })
    const modal = await open('margin_isolated')
    await within(modal).findByRole('radio', { name: 'BTC' })
    expect(within(modal).getByRole('radiogroup', { name: 'Coin' })).toBe(within(modal).getByTestId('transfer-base-quote'))
  })

  it('Enter in the amount confirms the transfer, like the button', async () => {
    const modal = await open()
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    const amount = within(modal).getByTestId('transfer-amount')
    fireEvent.change(amount, { target: { value: '5' } })
    fireEvent.submit(amount.closest('form')!)
    await waitFor(() => expect(api.transfer).toHaveBeenCalledTimes(1))
    expect(api.transfer.mock.calls[0][0]).toMatchObject({ account: 'otc', direction: 1, coin: 'USDT', amount: '5' })
  })

  it('says when the balances did not load (not an empty coin list and a zero balance), and retries', async () => {
    api.getTransferCoins.mockRejectedValueOnce(new Error('Error: Network error'))
    const modal = await open()
    const failed = await within(modal).findByTestId('transfer-load-error')
    expect(within(modal).getByTestId('transfer-available').textContent).toContain('--')
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    expect(within(modal).queryByTestId('transfer-load-error')).toBeNull()
  })

  it('says at once when the amount is more than the from-account holds, and keeps Confirm off', async () => {
    const modal = await open()
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    const amount = within(modal).getByTestId('transfer-amount')
    const confirm = within(modal).getByTestId('transfer-submit') as HTMLButtonElement
    fireEvent.change(amount, { target: { value: '120.6' } })
    const error = await within(modal).findByTestId('transfer-amount-error')
    expect(error.textContent).toBe('The amount is more than the 120.500000 USDT available')
    expect(amount.getAttribute('aria-invalid')).toBe('true')
    expect(amount.getAttribute('aria-describedby')).toContain(error.id)
    expect(confirm.disabled).toBe(true)
    // Enter does not send it either.
    fireEvent.submit(amount.closest('form')!)
    expect(api.transfer).not.toHaveBeenCalled()
    // All of it is fine.
    fireEvent.change(amount, { target: { value: '120.5' } })
    await waitFor(() => expect(within(modal).queryByTestId('transfer-amount-error')).toBeNull())
    expect(confirm.disabled).toBe(false)
  })

  it('checks against the other account after a swap (from it to spot)', async () => {
    const modal = await open()
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    fireEvent.click(within(modal).getByTestId('transfer-swap'))
    fireEvent.change(within(modal).getByTestId('transfer-amount'), { target: { value: '31' } })
    // The OTC account's balance at its 2 decimals (spec §9).
    expect((await within(modal).findByTestId('transfer-amount-error')).textContent).toContain('30.00 USDT')
  })

  it('shows the OTC account available at 2 decimals (spec §9), cut not rounded, and All still moves all of it', async () => {
    api.getTransferCoins.mockResolvedValue({ account: 'otc', list: [{ ...usdt, normal: '1234.5678', targetNormal: '1234.569999' }] })
    const modal = await open('otc')
    // The spot side keeps the coin's precision.
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('1,234.567800 USDT'))
    fireEvent.click(within(modal).getByTestId('transfer-swap'))
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('1,234.56 USDT'))
    fireEvent.click(within(modal).getByTestId('transfer-all'))
    const amount = within(modal).getByTestId('transfer-amount') as HTMLInputElement
    expect(amount.value).toBe('1234.569999')
    expect(within(modal).queryByTestId('transfer-amount-error')).toBeNull()
    fireEvent.click(within(modal).getByTestId('transfer-submit'))
    await waitFor(() => expect(api.transfer).toHaveBeenCalledTimes(1))
    expect(api.transfer.mock.calls[0][0]).toMatchObject({ account: 'otc', direction: 2, coin: 'USDT', amount: '1234.569999' })
  })

  it('shows a margin account available at 4 decimals (spec §9), isolated and cross, and All still moves all of it', async () => {
    const btc: TransferCoin = { coin: 'BTC', showName: 'BTC', icon: '', normal: '2.00000000', targetNormal: '0.12349999', precision: 8 }
    api.getTransferCoins.mockResolvedValue({ account: 'margin_isolated', list: [btc, usdt] })
    const { unmount } = renderWithApp(<TransferModal open onClose={() => {}} account="margin_isolated" />)
    let modal = await screen.findByTestId('transfer-modal')
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('2.00000000 BTC'))
    fireEvent.click(within(modal).getByTestId('transfer-swap'))
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('0.1234 BTC'))
    fireEvent.click(within(modal).getByTestId('transfer-all'))
    expect((within(modal).getByTestId('transfer-amount') as HTMLInputElement).value).toBe('0.12349999')
    unmount()

    api.getTransferCoins.mockResolvedValue({ account: 'margin_cross', list: [btc] })
    modal = await open('margin_cross')
    fireEvent.click(within(modal).getByTestId('transfer-swap'))
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('0.1234 BTC'))
    fireEvent.click(within(modal).getByTestId('transfer-all'))
    expect((within(modal).getByTestId('transfer-amount') as HTMLInputElement).value).toBe('0.12349999')
  })

  it('keeps futures at the 3 decimals its transfer keeps, both ways', async () => {
    api.getTransferCoins.mockResolvedValue({ account: 'futures', list: [{ ...usdt, normal: '10.987654', targetNormal: '5.555', precision: 3 }] })
    const modal = await open('futures')
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('10.987 USDT'))
    fireEvent.click(within(modal).getByTestId('transfer-all'))
    expect((within(modal).getByTestId('transfer-amount') as HTMLInputElement).value).toBe('10.987')
    fireEvent.click(within(modal).getByTestId('transfer-swap'))
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('5.555 USDT'))
  })

  it('says it in Mongolian in mn_MN', async () => {
    setCookie('lan', 'mn_MN')
    const modal = await open()
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    fireEvent.change(within(modal).getByTestId('transfer-amount'), { target: { value: '500' } })
    expect((await within(modal).findByTestId('transfer-amount-error')).textContent).toBe('Дүн боломжит үлдэгдлээс (120.500000 USDT) их байна')
  })

  it('still leaves a refusal to the server (the modal stays open for a new attempt)', async () => {
    api.transfer.mockResolvedValue({ code: '13003', msg: 'Insufficient balance', data: null })
    const onClose = vi.fn()
    renderWithApp(<TransferModal open onClose={onClose} />)
    const modal = await screen.findByTestId('transfer-modal')
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    fireEvent.change(within(modal).getByTestId('transfer-amount'), { target: { value: '100' } })
    fireEvent.click(within(modal).getByTestId('transfer-submit'))
    await waitFor(() => expect(api.transfer).toHaveBeenCalledTimes(1))
    expect(onClose).not.toHaveBeenCalled()
    expect(within(modal).getByTestId('transfer-submit')).toBeTruthy()
  })

  it('says the shared "could not be reached" notice (not a raw English error) when the transfer got no answer', async () => {
    api.transfer.mockRejectedValue(new NetworkError('Error: A network error has occurred.'))
    const modal = await open()
    await waitFor(() => expect(within(modal).getByTestId('transfer-available').textContent).toContain('120.500000 USDT'))
    fireEvent.change(within(modal).getByTestId('transfer-amount'), { target: { value: '5' } })
    fireEvent.click(within(modal).getByTestId('transfer-submit'))
    await waitFor(() => expect(notify.notifyUnreachable).toHaveBeenCalledTimes(1))
    expect(notify.notifyError).not.toHaveBeenCalled()
  })
})
