import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createUserUpdateInvalidator } from '@/features/live-updates/use-live-user-updates'
import { renderWithApp } from '@/test/render'
import type { AssetEntry, ChainEntry, DepositRecord } from '../api/wallet-api'
import { DepositModal } from './deposit-modal'

const api = vi.hoisted(() => ({
  getAssets: vi.fn(),
  getChargeAddress: vi.fn(),
  getBankBlock: vi.fn(),
  getDepositHistory: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))

/** Each network's deposit terms as the server's asset list gives them (coins_default.json). */
const TERMS: Record<string, Pick<ChainEntry, 'depositMin' | 'confirmations' | 'arrivalSeconds'>> = {
  ETH: { depositMin: '0.001', confirmations: 12, arrivalSeconds: 144 },
  XRP: { depositMin: '1', confirmations: 1, arrivalSeconds: 4 },
  ERC20: { depositMin: '1', confirmations: 12, arrivalSeconds: 144 },
  TRC20: { depositMin: '1', confirmations: 19, arrivalSeconds: 57 },
  BEP20: { depositMin: '1', confirmations: 15, arrivalSeconds: 45 },
  Bank: { depositMin: '0', confirmations: 0, arrivalSeconds: 0 },
}

const asset = (value: string, chains: string[]): AssetEntry => ({
  value,
  label: value,
  img: '',
  code: value,
  fix: 8,
  normal_balance: '1.00000000',
  totalBalance: '1.50000000',
  lockBalance: '0.50000000',
  chains: chains.map((name) => ({ name, mainChainName: name, tagType: name === 'XRP' ? 1 : 0, ...TERMS[name] })),
  trustType: chains[0],
  isFiat: value === 'MNT',
  depositOpen: true,
  withdrawOpen: true,
})

describe('DepositModal', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getDepositHistory.mockResolvedValue({ list: [], count: 0, page: 1, pageSize: 3 })
    api.getAssets.mockResolvedValue([asset('ETH', ['ETH']), asset('XRP', ['XRP']), asset('MNT', ['Bank']), asset('USDT', ['ERC20', 'TRC20', 'BEP20'])])
  })

  it('shows the balances and a long address shortened to 28 … 6', async () => {
    const long = '0x593814d3309e2dF31D112824F0f4B6b1c1d0D7d47'
    api.getChargeAddress.mockResolvedValue({
      code: '0',
      msg: '',
      data: { addressStr: long, addressLong: long, memo: '', addressQRCode: 'data:image/png;base64,AA==', tagType: 0 },
    })
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    const address = await within(modal).findByTestId('deposit-address')
    expect(address.textContent).toBe(`${long.slice(0, 28)}…${long.slice(-6)}`)
    expect(address.getAttribute('data-address')).toBe(long)
    const balances = within(modal).getByTestId('deposit-balances')
    expect(balances.textContent).toContain('1.50000000 ETH')
    expect(balances.textContent).toContain('0.50000000 ETH')
    expect(api.getChargeAddress).toHaveBeenCalledWith('ETH', 'ETH')
  })

  it('splits address_memo into the address and the memo', async () => {
    api.getChargeAddress.mockResolvedValue({
      code: '0',
      msg: '',
      data: { addressStr: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh_4242', addressLong: '', memo: '', addressQRCode: '', tagType: 1 },
    })
    renderWithApp(<DepositModal open onClose={() => {}} coin="XRP" />)
    const modal = await screen.findByTestId('deposit-modal')
    expect((await within(modal).findByTestId('deposit-address')).textContent).toBe('rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh')
    expect(within(modal).getByTestId('deposit-memo').textContent).toBe('4242')
  })

  it('memo coins: shows and copies the address alone (addressLong) and the memo apart, not address_memo', async () => {
    const xrp = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3'
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    api.getChargeAddress.mockResolvedValue({
      code: '0',
      msg: '',
      data: { addressLong: xrp, addressStr: `${xrp}_100000`, memo: '100000', addressQRCode: '', tagType: 1 },
    })
    renderWithApp(<DepositModal open onClose={() => {}} coin="XRP" />)
    const modal = await screen.findByTestId('deposit-modal')
    const shown = await within(modal).findByTestId('deposit-address')
    expect(shown.textContent).toBe(xrp)
    expect(shown.getAttribute('data-address')).toBe(xrp)
    expect(within(modal).getByTestId('deposit-memo').textContent).toBe('100000')
    // Each copy button is named after what it copies (screen readers).
    expect(within(modal).getByRole('button', { name: 'Copy: Deposit address' })).toBe(within(modal).getByTestId('copy-address'))
    expect(within(modal).getByRole('button', { name: 'Copy: Memo (tag)' })).toBe(within(modal).getByTestId('copy-memo'))
    fireEvent.click(within(modal).getByTestId('copy-address'))
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(xrp))
    fireEvent.click(within(modal).getByTestId('copy-memo'))
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('100000'))
  })

  it('asks for the deposit address once per opening, also when earlier deposits were credited', async () => {
    api.getChargeAddress.mockResolvedValue({
      code: '0',
      msg: '',
      data: { addressStr: 'bc1qexample', addressLong: 'bc1qexample', memo: '', addressQRCode: '', tagType: 0 },
    })
    const credited: DepositRecord = {
      id: 'd0',
      coin: 'ETH',
      chain: 'ETH',
      txid: '0xabc',
      address: 'bc1qexample',
      amount: '0.25',
      confirmations: 12,
      requiredConfirmations: 12,
      status: 'credited',
      createTime: 1_700_000_000_000,
    }
    api.getDepositHistory.mockResolvedValue({ list: [credited], count: 1, page: 1, pageSize: 3 })
    const { queryClient } = renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    await within(modal).findByTestId('recent-deposits')
    await within(modal).findByTestId('deposit-address')
    await new Promise((r) => setTimeout(r, 300))
    expect(api.getChargeAddress).toHaveBeenCalledTimes(1)
    // A balance refresh (a credited deposit, the private socket) does not fetch the address again.
    await queryClient.invalidateQueries({ queryKey: ['wallet'] })
    expect(api.getChargeAddress).toHaveBeenCalledTimes(1)
  })

  it('shows the server message in place of the address on a non-zero code (spec §8)', async () => {
    api.getChargeAddress.mockResolvedValue({ code: '13001', msg: 'Deposits of ETH are paused', data: null })
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    expect((await within(modal).findByTestId('deposit-address-error')).textContent).toContain('Deposits of ETH are paused')
    expect(within(modal).queryByTestId('deposit-address')).toBeNull()
  })

  it('shows the bank transfer block for MNT with the user id as the transaction value', async () => {
    api.getBankBlock.mockResolvedValue({
      bankName: 'Хаан банк',
      bankNameEn: 'Khan Bank',
      accountNo: '5000123456',
      recipient: 'Тэнгэр ХХК',
      recipientEn: 'Tenger LLC',
      transactionValue: '12345678',
    })
    renderWithApp(<DepositModal open onClose={() => {}} coin="MNT" />)
    const block = await screen.findByTestId('bank-block')
    await waitFor(() => expect(within(block).getByTestId('bank-reference').textContent).toBe('12345678'))
    expect(block.textContent).toContain('Khan Bank')
    expect(within(block).getByTestId('bank-account-no').textContent).toBe('5000123456')
    expect(api.getChargeAddress).not.toHaveBeenCalled()
  })

  it('shows a deposit and its confirmations as the private socket reports them, without a reload', async () => {
    api.getChargeAddress.mockResolvedValue({
      code: '0',
      msg: '',
      data: { addressStr: 'bc1qexample', addressLong: 'bc1qexample', memo: '', addressQRCode: '', tagType: 0 },
    })
    const record = (confirmations: number): DepositRecord => ({
      id: 'd1',
      coin: 'ETH',
      chain: 'ETH',
      txid: '0xabc',
      address: 'bc1qexample',
      amount: '0.25',
      confirmations,
      requiredConfirmations: 12,
      status: 'confirming',
      createTime: 1_700_000_000_000,
    })
    let served: DepositRecord[] = []
    api.getDepositHistory.mockImplementation(async () => ({ list: served, count: served.length, page: 1, pageSize: 3 }))
    const { queryClient } = renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    await within(modal).findByTestId('deposit-address')
    await waitFor(() => expect(api.getDepositHistory).toHaveBeenCalled())
    expect(within(modal).queryByTestId('recent-deposits')).toBeNull()

    // The modal's own idle poll is 10 s; the socket's message brings the deposit at once.
    const invalidator = createUserUpdateInvalidator(queryClient, 0)
    served = [record(1)]
    invalidator.onMessage({ channel: 'deposit', ts: 1, data: served[0] })
    const status = await within(modal).findByTestId('deposit-status', undefined, { timeout: 2500 })
    expect(status.textContent).toBe('Confirming 1/12')

    served = [record(2)]
    invalidator.onMessage({ channel: 'deposit', ts: 2, data: served[0] })
    await waitFor(() => expect(within(modal).getByTestId('deposit-status').textContent).toBe('Confirming 2/12'), { timeout: 2500 })
  })
  it('announces the address while it loads, and offers a retry when it does not arrive', async () => {
    // The pending answer fails by rejecting the promise the modal waits on: a separate rejected promise
    // handed to resolve() is adopted a tick later and can be reported as an unhandled rejection.
    let fail!: (e: unknown) => void
    api.getChargeAddress.mockReturnValueOnce(new Promise((_resolve, reject) => (fail = reject)))
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    const loading = await within(modal).findByTestId('deposit-block-loading')
    expect(loading.getAttribute('role')).toBe('status')
    expect(loading.getAttribute('aria-label')).toBe('Loading…')
    fail(new Error('Error: Network error'))
    const failed = await within(modal).findByTestId('deposit-block-error')
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: '0xabc', addressLong: '0xabc', memo: '', addressQRCode: '', tagType: 0 } })
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }))
    expect((await within(modal).findByTestId('deposit-address')).textContent).toBe('0xabc')
  })

  it('draws the order history link in the readable brand text colour of the theme (not the button fill)', async () => {
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: '0xabc', addressLong: '0xabc', memo: '', addressQRCode: '', tagType: 0 } })
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const link = await screen.findByTestId('deposit-history-link')
    expect(getComputedStyle(link).color).toBe('var(--chakra-colors-brand-fg)')
  })

  it('preselects no network for a coin on several until one is picked, then shows its address', async () => {
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', addressLong: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', memo: '', addressQRCode: '', tagType: 0 } })
    renderWithApp(<DepositModal open onClose={() => {}} coin="USDT" />)
    const modal = await screen.findByTestId('deposit-modal')
    expect((await within(modal).findByTestId('deposit-choose-network')).textContent).toBe(
      'Choose the network you will send on. Coins sent on another network can be lost.',
    )
    for (const name of ['ERC20', 'TRC20', 'BEP20']) expect(within(modal).getByTestId(`chain-${name}`).getAttribute('aria-pressed')).toBe('false')
    expect(within(modal).queryByTestId('deposit-address')).toBeNull()
    expect(within(modal).queryByTestId('deposit-terms')).toBeNull()
    expect(api.getChargeAddress).not.toHaveBeenCalled()

    fireEvent.click(within(modal).getByTestId('chain-TRC20'))
    expect(within(modal).getByTestId('chain-TRC20').getAttribute('aria-pressed')).toBe('true')
    expect((await within(modal).findByTestId('deposit-address')).textContent).toBe('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8')
    expect(api.getChargeAddress).toHaveBeenCalledWith('USDT', 'TRC20')
    expect(within(modal).queryByTestId('deposit-choose-network')).toBeNull()
  })

  it('keeps the only network of a coin on one chain selected', async () => {
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: '0xabc', addressLong: '0xabc', memo: '', addressQRCode: '', tagType: 0 } })
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    await within(modal).findByTestId('deposit-address')
    expect(within(modal).getByTestId('chain-ETH').getAttribute('aria-pressed')).toBe('true')
    expect(within(modal).queryByTestId('deposit-choose-network')).toBeNull()
  })

  it.each([
    ['en_US', 'TRC20', ['Minimum deposit1 USDT', 'Confirmations needed19', 'Expected arrivalUnder a minute'], 'A deposit below the minimum is not credited.'],
    ['en_US', 'ERC20', ['Minimum deposit1 USDT', 'Confirmations needed12', 'Expected arrivalAbout 2 min'], 'A deposit below the minimum is not credited.'],
    ['mn_MN', 'BEP20', ['Орлогын доод хэмжээ1 USDT', 'Шаардлагатай баталгаажуулалт15', 'Дансанд орох хугацааНэг минут хүрэхгүй'], 'Доод хэмжээнээс бага орлого дансанд орохгүй.'],
  ])('%s: shows the minimum deposit, the confirmations and the expected arrival of the chosen network (%s)', async (lan, chain, rows, note) => {
    document.cookie = `lan=${lan}; path=/`
    try {
      api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: '0xabc', addressLong: '0xabc', memo: '', addressQRCode: '', tagType: 0 } })
      renderWithApp(<DepositModal open onClose={() => {}} coin="USDT" />)
      const modal = await screen.findByTestId('deposit-modal')
      fireEvent.click(await within(modal).findByTestId(`chain-${chain}`))
      const terms = await within(modal).findByTestId('deposit-terms')
      expect([
        within(terms).getByTestId('deposit-min').textContent,
        within(terms).getByTestId('deposit-confirmations').textContent,
        within(terms).getByTestId('deposit-arrival').textContent,
      ]).toEqual(rows)
      expect(terms.textContent).toContain(note)
    } finally {
      document.cookie = 'lan=en_US; path=/'
    }
  })

  it('shows no deposit terms for the bank transfer', async () => {
    api.getBankBlock.mockResolvedValue({ bankName: 'Х', bankNameEn: 'K', accountNo: '1', recipient: 'Т', recipientEn: 'T', transactionValue: '2' })
    renderWithApp(<DepositModal open onClose={() => {}} coin="MNT" />)
    await screen.findByTestId('bank-block')
    expect(screen.queryByTestId('deposit-terms')).toBeNull()
  })

  it('shows the whole address on request and back, while copy always takes it whole', async () => {
    const long = '0x593814d3309e2dF31D112824F0f4B6b1c1d0D7d47'
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: long, addressLong: long, memo: '', addressQRCode: '', tagType: 0 } })
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    const shown = await within(modal).findByTestId('deposit-address')
    const toggle = within(modal).getByRole('button', { name: 'Show the whole address' })
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    expect(toggle.getAttribute('aria-controls')).toBe(shown.id)
    expect(shown.textContent).toBe(`${long.slice(0, 28)}…${long.slice(-6)}`)
    fireEvent.click(toggle)
    expect(shown.textContent).toBe(long)
    expect(toggle.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(within(modal).getByTestId('copy-address'))
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(long))
    fireEvent.click(toggle)
    expect(shown.textContent).toBe(`${long.slice(0, 28)}…${long.slice(-6)}`)
  })

  it('offers no whole-address control for an address short enough to show whole', async () => {
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', addressLong: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', memo: '7', addressQRCode: '', tagType: 1 } })
    renderWithApp(<DepositModal open onClose={() => {}} coin="XRP" />)
    const modal = await screen.findByTestId('deposit-modal')
    await within(modal).findByTestId('deposit-address')
    expect(within(modal).queryByTestId('toggle-whole-address')).toBeNull()
  })

  it('names a deposit below the minimum as not credited, and links the deposit history', async () => {
    api.getChargeAddress.mockResolvedValue({ code: '0', msg: '', data: { addressStr: '0xabc', addressLong: '0xabc', memo: '', addressQRCode: '', tagType: 0 } })
    api.getDepositHistory.mockResolvedValue({
      list: [{ id: 'd9', coin: 'ETH', chain: 'ETH', txid: '0x1', address: '0xabc', amount: '0.0001', confirmations: 1, requiredConfirmations: 12, status: 'below_min', createTime: 1 }],
      count: 1,
      page: 1,
      pageSize: 3,
    })
    renderWithApp(<DepositModal open onClose={() => {}} coin="ETH" />)
    const modal = await screen.findByTestId('deposit-modal')
    expect((await within(modal).findByTestId('deposit-status')).textContent).toBe('Below minimum, not credited')
    const link = within(modal).getByTestId('deposit-history-link')
    expect(link.textContent).toBe('Deposit history')
    expect(link.getAttribute('href')).toBe('/wallet/history?tab=deposit')
  })
})
