import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answer, refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { LoanConfig, LoanView } from '../api/crypto-cash-api'
import { CryptoCashPage } from './crypto-cash-page'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)
const session = vi.hoisted(() => ({ signedIn: false }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () =>
    session.signedIn
      ? { user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }
      : { user: null, isSignedIn: false, isLoading: false, refetch: vi.fn() },
}))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn() }))
vi.mock('@/lib/notify', async (orig) => ({ ...(await orig<typeof import('@/lib/notify')>()), notifySuccess: notify.notifySuccess }))

const INC = '/fe-increment-api'
const QUOTE = `${INC}/calculate_inerest_mortgage`
const BORROW = `${INC}/borrow/mortgage_borrow`
const REPAY = `${INC}/borrow/repay`
const ADJUST = `${INC}/borrow/adjust_collateral`

const CONFIG: LoanConfig = {
  loanCoins: [
    { coin: 'USDT', hourlyRates: { '7': '0.0012', '14': '0.0011', '30': '0.001', '90': '0.0009' }, minAmount: '10', maxAmount: '1000000' },
    { coin: 'BTC', hourlyRates: { '7': '0.0006', '14': '0.00055', '30': '0.0005', '90': '0.00045' }, minAmount: '0.0005', maxAmount: '20' },
  ],
  collaterals: ['BTC', 'ETH', 'TRX', 'TON'],
  initialLTV: '0.65',
  marginCallLTV: '0.75',
  liquidationLTV: '0.83',
  graceHours: 72,
  overdueMultiplier: '3',
  liquidationFee: '0.02',
}

let price = '97250.5'

/** The server's quote at the current `price` (the arithmetic of internal/earn Quote). */
function quote(body: Record<string, unknown>) {
  const amount = Number(body.amount)
  const need = Math.ceil((amount / (Number(price) * 0.65)) * 1e8) / 1e8
  const hourly = { 7: 0.0012, 14: 0.0011, 30: 0.001, 90: 0.0009 }[Number(body.term)] ?? 0
  return {
    coin: body.coin,
    amount: amount.toFixed(6),
    termDays: Number(body.term),
    hourlyRate: String(hourly),
    interest: ((Math.ceil(amount * hourly * 1e4) / 1e6) * Number(body.term) * 24).toFixed(6),
    collateralCoin: body.collateralCoin,
    price,
    requiredCollateral: need.toFixed(8),
    liquidationPrice: (amount / (need * 0.83)).toFixed(8),
  }
}

function loan(over: Partial<LoanView> = {}): LoanView {
  return {
    id: 'lc11a757d6e866407a9f3a',
    coin: 'USDT',
    borrowed: '1000.000000',
    principal: '1000.000000',
    interest: '1.152000',
    debt: '1001.152000',
    repaidPrincipal: '0.000000',
    repaidInterest: '0.000000',
    collateralCoin: 'BTC',
    collateral: '0.01589164',
    termDays: 7,
    hourlyRate: '0.0012',
    yearRate: '10.51',
    ctime: Date.now() - 4 * 86_400_000,
    dueTime: Date.now() + 3 * 86_400_000,
    status: 'pending_repayment',
    ltv: '65.05',
    marginCall: false,
    liquidationPrice: '75901.99808929',
    overdue: false,
    ...over,
  }
}

function spot(rows: [string, string, number][]) {
  return {
    totalBalance: '0', totalBalanceSymbol: 'BTC', totalValuation: '0', currency: 'USD', lang_logo: '$',
    coinList: rows.map(([coin, normal, showPrecision]) => ({ coin, name: coin, total: normal, normal, freeze: '0', showPrecision, icon: '', longName: coin })),
  }
}

function exchange(loans: LoanView[] = []) {
  price = '97250.5'
  serve({
    [`${INC}/noToken/borrow/get_base_config`]: CONFIG,
    [`${INC}/getMortgageSymbolList`]: [{ coin: 'BTC', icon: '', prices: { USDT: price } }],
    [QUOTE]: quote,
    [`${INC}/borrow/get_borrow_order_list`]: loans,
    '/fe-ex-api/wallet/account_balance': spot([['USDT', '1500.000000', 6], ['BTC', '0.05000000', 8]]),
    [BORROW]: (body: Record<string, unknown>) => loan({ interest: '0.000000', debt: '1000.000000', collateral: String(body.collateralAmount), ltv: '65.00' }),
    [REPAY]: (body: Record<string, unknown>) => (Number(body.amount) >= 1001.152 ? loan({ status: 'repaid', principal: '0.000000', interest: '0.000000', debt: '0.000000', ltv: '' }) : loan()),
    [ADJUST]: loan({ ltv: '61.18' }),
    [`${INC}/borrow/get_return_record_list`]: { list: [], count: 0, next: '' },
  })
}

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } })

async function form() {
  const f = await screen.findByTestId('borrow-form')
  return { f, amount: within(f).getByTestId('borrow-amount') as HTMLInputElement, collateral: within(f).getByTestId('borrow-collateral') as HTMLInputElement }
}

describe('the borrow form', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    session.signedIn = true
    exchange()
  })
  afterEach(() => vi.restoreAllMocks())

  it('quotes as it is typed: the term’s interest, the required collateral, the liquidation price; the collateral follows the quote', async () => {
    renderWithApp(<CryptoCashPage />)
    const { f, amount, collateral } = await form()
    expect(within(f).getByTestId('borrow-term-7').getAttribute('data-checked')).toBe('true')
    expect(within(f).getByTestId('borrow-term-30').textContent).toBe('30 days8.76% a year')
    type(amount, '1000')
    await waitFor(() => expect(within(f).getByTestId('borrow-quote').getAttribute('data-ready')).toBe('true'))
    // 0.012 USDT an hour × 168 hours.
    expect(within(f).getByTestId('borrow-interest').textContent).toContain('2.016000 USDT')
    expect(within(f).getByTestId('borrow-total').textContent).toContain('1,002.016000 USDT')
    expect(within(f).getByTestId('borrow-required').textContent).toContain('0.01581958 BTC')
    expect(within(f).getByTestId('borrow-liquidation').textContent).toContain('76,160.00 USDT')
    expect(collateral.value).toBe('0.01581958')
    // 1,000 ÷ (0.01581958 × 97,250.5): at the initial LTV.
    const ltv = within(f).getByTestId('borrow-ltv')
    expect(ltv.getAttribute('data-ltv')).toBe('65.00')
    expect(ltv.getAttribute('data-zone')).toBe('safe')
    expect(within(ltv).getByRole('meter').getAttribute('aria-valuetext')).toBe('LTV 65.00%: within the initial LTV')
    expect(within(ltv).getByTestId('borrow-ltv-marginCall').textContent).toBe('Margin call 75%')
    // Another term asks again.
    fireEvent.click(within(f).getByTestId('borrow-term-input-30'))
    await waitFor(() => expect(within(f).getByTestId('borrow-interest').textContent).toContain('7.200000 USDT'))
  })

  it('more collateral lowers the LTV and the liquidation price; Required puts the quote back', async () => {
    renderWithApp(<CryptoCashPage />)
    const { f, amount, collateral } = await form()
    type(amount, '1000')
    await waitFor(() => expect(collateral.value).toBe('0.01581958'))
    type(collateral, '0.02')
    await waitFor(() => expect(within(f).getByTestId('borrow-ltv').getAttribute('data-ltv')).toBe('51.41'))
    expect(within(f).getByTestId('borrow-liquidation').textContent).toContain('60,240.96 USDT')
    fireEvent.click(within(f).getByTestId('borrow-collateral-required'))
    expect(collateral.value).toBe('0.01581958')
  })

  it.each([
    ['amount', '5', 'The least you can borrow is 10.000000 USDT'],
    ['amount', '1000001', 'The most you can borrow is 1,000,000.000000 USDT'],
    ['amount', '10.1234567', 'At most 6 decimals'],
  ])('the %s %s: "%s"', async (_field, typed, message) => {
    renderWithApp(<CryptoCashPage />)
    const { f, amount } = await form()
    type(amount, typed)
    expect(await within(f).findByText(message)).toBeTruthy()
    expect(amount.getAttribute('aria-invalid')).toBe('true')
    expect((within(f).getByTestId('borrow-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('collateral below the required amount, or above the spot balance, is marked', async () => {
    renderWithApp(<CryptoCashPage />)
    const { f, amount, collateral } = await form()
    type(amount, '1000')
    await waitFor(() => expect(collateral.value).toBe('0.01581958'))
    type(collateral, '0.015')
    expect(await within(f).findByText('At least 0.01581958 BTC is needed at the current price')).toBeTruthy()
    type(collateral, '0.06')
    expect(await within(f).findByText('More than your available 0.05000000 BTC')).toBeTruthy()
    expect((within(f).getByTestId('borrow-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('Borrow asks for a fresh quote and sends its required collateral with a request id', async () => {
    renderWithApp(<CryptoCashPage />)
    const { f, amount, collateral } = await form()
    type(amount, '1000')
    await waitFor(() => expect(collateral.value).toBe('0.01581958'))
    // The price falls before Borrow: more collateral is needed.
    price = '97000'
    answer({ [QUOTE]: quote })
    fireEvent.click(within(f).getByTestId('borrow-submit'))
    await waitFor(() => expect(sentTo(BORROW)).toHaveLength(1))
    expect(sentTo(BORROW)[0]).toMatchObject({ coin: 'USDT', amount: '1000', collateralCoin: 'BTC', collateralAmount: '0.01586043', term: 7, requestId: expect.any(String) })
    await waitFor(() => expect(notify.notifySuccess).toHaveBeenCalledWith('Borrowed 1,000.000000 USDT at an LTV of 65.00%. It is in your spot account.'))
    await waitFor(() => expect(amount.value).toBe(''))
  })

  it('a refused loan (its toast has the server’s words) leaves the form as it was', async () => {
    answer({ [BORROW]: refuse('19302', 'Not enough collateral: the loan may be at most 65% of the collateral’s value') })
    renderWithApp(<CryptoCashPage />)
    const { f, amount, collateral } = await form()
    type(amount, '1000')
    await waitFor(() => expect(collateral.value).toBe('0.01581958'))
    fireEvent.click(within(f).getByTestId('borrow-submit'))
    await waitFor(() => expect(sentTo(BORROW)).toHaveLength(1))
    await waitFor(() => expect((within(f).getByTestId('borrow-submit') as HTMLButtonElement).disabled).toBe(false))
    expect(amount.value).toBe('1000')
    expect(notify.notifySuccess).not.toHaveBeenCalled()
  })

  it('a visitor can work a loan out, and signs in to borrow', async () => {
    session.signedIn = false
    renderWithApp(<CryptoCashPage />)
    const { f, amount } = await form()
    type(amount, '1000')
    await waitFor(() => expect(within(f).getByTestId('borrow-required').textContent).toContain('0.01581958 BTC'))
    expect(within(f).getByTestId('borrow-signin').getAttribute('href')).toBe('/auth/login?redirect=%2FcryptoCash')
    expect(screen.getByTestId('crypto-cash-signin')).toBeTruthy()
    expect(sentTo(`${INC}/borrow/get_borrow_order_list`)).toEqual([])
  })
})

describe('my loans', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    session.signedIn = true
  })
  afterEach(() => vi.restoreAllMocks())

  it('debt, interest, collateral, the LTV against the thresholds, the liquidation price, the due date', async () => {
    exchange([loan(), loan({ id: 'l2', status: 'repaid', principal: '0', interest: '0', debt: '0', repaidPrincipal: '500.000000', repaidInterest: '0.500000', ltv: '', liquidationPrice: '' })])
    renderWithApp(<CryptoCashPage />)
    const card = await screen.findByTestId('loan-lc11a757d6e866407a9f3a')
    expect(within(card).getByTestId('loan-status').textContent).toBe('Pending repayment')
    expect(within(card).getByTestId('loan-debt').textContent).toBe('1,001.152000 USDT')
    expect(within(card).getByTestId('loan-interest').textContent).toBe('1.152000 USDT')
    expect(within(card).getByTestId('loan-collateral').textContent).toBe('0.01589164 BTC')
    expect(within(card).getByTestId('loan-liquidation-price').textContent).toBe('75,902.00 USDT')
    expect(within(card).getByTestId('loan-ltv').getAttribute('data-zone')).toBe('warning')
    expect(within(card).queryByTestId('loan-margin-call')).toBeNull()
    const closed = screen.getByTestId('loan-l2')
    expect(within(closed).getByTestId('loan-status').textContent).toBe('Closed position')
    expect(within(closed).getByTestId('loan-repaid').textContent).toBe('500.500000 USDT')
    expect(within(closed).queryByTestId('loan-repay')).toBeNull()
  })

  it('a margin call and an overdue loan are said plainly', async () => {
    exchange([loan({ ltv: '76.10', marginCall: true, overdue: true, dueTime: Date.now() - 3_600_000 })])
    renderWithApp(<CryptoCashPage />)
    const card = await screen.findByTestId('loan-lc11a757d6e866407a9f3a')
    expect(within(card).getByTestId('loan-margin-call').textContent).toContain('Margin call: the LTV has reached 75%')
    expect(within(card).getByTestId('loan-overdue').textContent).toContain('interest is now 3× the rate')
    expect(within(card).getByTestId('loan-ltv').getAttribute('data-zone')).toBe('marginCall')
  })

  it('Repay all fills the debt and an hour of interest; the split; in full the collateral returns', async () => {
    exchange([loan()])
    renderWithApp(<CryptoCashPage />)
    fireEvent.click(within(await screen.findByTestId('loan-lc11a757d6e866407a9f3a')).getByTestId('loan-repay'))
    const modal = await screen.findByTestId('repay-modal')
    const amount = (await within(modal).findByTestId('repay-amount')) as HTMLInputElement
    type(amount, '500')
    await waitFor(() => expect(within(modal).getByTestId('repay-interest').textContent).toContain('1.152000 USDT'))
    expect(within(modal).getByTestId('repay-principal').textContent).toContain('498.848000 USDT')
    expect(within(modal).getByTestId('repay-left').textContent).toContain('501.152000 USDT')
    fireEvent.click(within(modal).getByTestId('repay-all'))
    expect(amount.value).toBe('1001.164000')
    await waitFor(() => expect(within(modal).getByTestId('repay-left').textContent).toContain('0.000000 USDT'))
    expect(within(modal).getByTestId('repay-note').textContent).toContain('0.01589164 BTC returns to your spot account')
    fireEvent.click(within(modal).getByTestId('repay-submit'))
    await waitFor(() => expect(sentTo(REPAY)).toEqual([expect.objectContaining({ id: 'lc11a757d6e866407a9f3a', amount: '1001.164000', requestId: expect.any(String) })]))
    await waitFor(() => expect(notify.notifySuccess).toHaveBeenCalledWith('The loan is repaid. 0.01589164 BTC is back in your spot account.'))
  })

  it('Adjust collateral: take back at most what keeps the initial LTV; the LTV after is shown', async () => {
    exchange([loan({ collateral: '0.02000000', ltv: '51.47' })])
    renderWithApp(<CryptoCashPage />)
    fireEvent.click(within(await screen.findByTestId('loan-lc11a757d6e866407a9f3a')).getByTestId('loan-adjust'))
    const modal = await screen.findByTestId('collateral-modal')
    fireEvent.click(await within(modal).findByTestId('collateral-type-remove'))
    // 0.02 − 1,001.152 ÷ (97,250.5 × 0.65) rounded up = 0.02 − 0.01583780.
    await waitFor(() => expect(within(modal).getByTestId('collateral-most').textContent).toContain('0.00416220 BTC'))
    const amount = within(modal).getByTestId('collateral-amount') as HTMLInputElement
    type(amount, '0.005')
    expect(await within(modal).findByText('At most 0.00416220 BTC can be taken back')).toBeTruthy()
    fireEvent.click(within(modal).getByTestId('collateral-max'))
    await waitFor(() => expect(within(modal).getByTestId('collateral-ltv').getAttribute('data-ltv')).toBe('65.00'))
    fireEvent.click(within(modal).getByTestId('collateral-submit'))
    await waitFor(() => expect(sentTo(ADJUST)).toEqual([expect.objectContaining({ amount: '0.00416220', type: 2 })]))
  })

  it('phones (390 px): the loans and their records render', async () => {
    screenWidth(390)
    exchange([loan()])
    renderWithApp(<CryptoCashPage />)
    expect(await screen.findByTestId('loan-lc11a757d6e866407a9f3a')).toBeTruthy()
    expect(screen.getByTestId('loan-records-tab-repay')).toBeTruthy()
  })
})
