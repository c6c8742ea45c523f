import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { COOKIE, getCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { Ad, PayMethod, Stats } from '../api/types'
import { p2pTexts } from '../lib/texts'
import { AgreementModal } from './agreement-modal'
import { ApplyMerchantPage } from './apply-merchant-page'
import { ExpressPage } from './express-page'
import { orderFixture } from '../fixtures'
import { MyAdsPage } from './my-ads-page'
import { OtcOrdersPage } from './otc-orders-page'
import { P2PSubNav } from './p2p-subnav'
import { PaymentMethodsPage } from './payment-methods-page'
import { PublishAdPage } from './publish-ad-page'
import { TradingPage } from './trading-page'

const api = vi.hoisted(() => ({
  fetchPublicInfo: vi.fn(),
  searchAds: vi.fn(),
  fetchSellBalance: vi.fn(),
  fetchMethods: vi.fn(),
  fetchPayKinds: vi.fn(),
  fetchStats: vi.fn(),
  fetchRate: vi.fn(),
  fetchAd: vi.fn(),
  fetchPersonAds: vi.fn(),
  fetchOrders: vi.fn(),
  fetchQuote: vi.fn(),
  openOrder: vi.fn(),
  saveAd: vi.fn(),
  closeAd: vi.fn(),
  applyMerchant: vi.fn(),
  releaseMerchant: vi.fn(),
  addMethod: vi.fn(),
  updateMethod: vi.fn(),
  setMethodOpen: vi.fn(),
  deleteMethod: vi.fn(),
}))
vi.mock('../api/p2p-api', () => api)
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), markUnreachableTold: vi.fn() }))
vi.mock('@/lib/notify', () => notify)
const session = vi.hoisted(() => ({ user: null as Record<string, unknown> | null }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: session.user, isSignedIn: !!session.user, isLoading: false, refetch: vi.fn() }),
}))

const INFO = {
  coins: [
    { coinSymbol: 'USDT', volumePrecision: 2 },
    { coinSymbol: 'BTC', volumePrecision: 6 },
  ],
  fiats: ['MNT'],
  limitTimes: [15, 30],
  appealReasons: ['other'],
  payments: [
    { code: 'bank', name: 'Bank transfer', nameMn: 'Банкны шилжүүлэг', fields: [], fiat: 'MNT', banks: [{ code: 'KHAN', name: 'Khan Bank', nameMn: 'Хаан банк' }] },
    { code: 'qpay', name: 'QPay', nameMn: 'QPay', fields: [], fiat: 'MNT' },
  ],
  maxOpenAds: 20,
  maxOpenOrders: 5,
  priceRateMin: 70,
  priceRateMax: 130,
}

const stats = (over: Partial<Stats> = {}): Stats => ({
  uid: 'm1',
  nickName: 'Merchant',
  merchant: 'approved',
  kycVerified: true,
  completeOrders: 12,
  buyOrders: 2,
  sellOrders: 10,
  cancelOrders: 1,
  completionRate: '92.31',
  avgReleaseTime: 125,
  avgPayTime: 300,
  firstTradeTime: 1,
  openAds: 0,
  ...over,
})

const ad = (over: Partial<Ad> = {}): Ad => ({
  id: 'ad1',
  uid: 'm1',
  nickName: 'Merchant',
  side: 'SELL',
  coinSymbol: 'USDT',
  paySymbol: 'MNT',
  priceType: 'fixed',
  price: '3500',
  priceRate: '0',
  volume: '100',
  minTrade: '1000',
  maxTrade: '200000',
  payments: [{ id: 'p1', kind: 'bank', title: 'Khan Bank', userName: 'M', account: 'MN1', bank: 'KHAN' }],
  limitTime: 15,
  description: 'Own account only.',
  kycRequired: false,
  status: 'open',
  ctime: 1,
  mtime: 2,
  merchant: stats(),
  ...over,
})

const method = (over: Partial<PayMethod> = {}): PayMethod => ({
  id: 'pm1',
  kind: 'bank',
  bank: 'KHAN',
  title: 'Khan Bank',
  titleMn: 'Хаан банк',
  account: 'MN123456789012345678',
  userName: 'Bat Saraa',
  open: true,
  ...over,
})

const order = orderFixture

describe('P2P pages', () => {
  beforeAll(() => p2pTexts.loadFor('en_US'))
  beforeEach(() => {
    vi.clearAllMocks()
    screenWidth(1280)
    session.user = { id: 'b1', kycStatus: 2, realName: 'Bat Saraa' }
    api.fetchPublicInfo.mockResolvedValue(INFO)
    api.fetchPayKinds.mockResolvedValue(INFO.payments)
    api.fetchMethods.mockResolvedValue([])
    api.fetchSellBalance.mockResolvedValue('25.5')
    api.fetchRate.mockResolvedValue('3450')
  })
  afterEach(() => vi.restoreAllMocks())

  it('lists the ads for a taker with the merchant record, and pages and filters through the URL', async () => {
    api.searchAds.mockResolvedValue({ count: 25, list: [ad(), ad({ id: 'ad2', price: '3510', payments: [{ id: 'q', kind: 'qpay', title: 'QPay', userName: 'M', account: '9911', bank: '' }] })] })
    const onSearch = vi.fn()
    renderWithApp(<TradingPage search={{}} onSearch={onSearch} />)
    const table = await screen.findByRole('table', { name: 'Ads to Buy USDT' })
    const rows = within(table).getAllByTestId('ad-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByTestId('ad-price').textContent).toBe('3,500.00 MNT')
    expect(within(rows[0]).getByTestId('ad-available').textContent).toBe('100.00 USDT')
    expect(within(rows[0]).getByTestId('ad-limits').textContent).toBe('1,000.00 – 200,000.00 MNT')
    expect(rows[0].textContent).toContain('12 orders · 92.31% completion')
    expect(within(rows[1]).getByTestId('ad-kinds').textContent).toBe('QPay')
    expect(api.searchAds).toHaveBeenCalledWith({ side: 'BUY', coinSymbol: 'USDT', amount: '', payment: '', page: 1, pageSize: 10 }, expect.anything())
    fireEvent.click(screen.getByTestId('ad-pager-next'))
    expect(onSearch).toHaveBeenLastCalledWith({ page: 2 })
    fireEvent.change(screen.getByTestId('filter-amount'), { target: { value: '50,000' } })
    fireEvent.click(screen.getByTestId('filter-apply'))
    expect(onSearch).toHaveBeenLastCalledWith({ amount: '50000', page: undefined })
    fireEvent.change(screen.getByTestId('filter-payment'), { target: { value: 'qpay' } })
    expect(onSearch).toHaveBeenLastCalledWith({ payment: 'qpay', amount: '50000', page: undefined })
  })

  it('says when no ad matches, and when the ads could not be read', async () => {
    api.searchAds.mockResolvedValue({ count: 0, list: [] })
    const { unmount } = renderWithApp(<TradingPage search={{ side: 'sell', amount: '5000' }} onSearch={vi.fn()} />)
    expect((await screen.findByTestId('ad-list-empty')).textContent).toContain('No ads match these filters')
    expect(api.searchAds).toHaveBeenCalledWith(expect.objectContaining({ side: 'SELL', amount: '5000' }), expect.anything())
    unmount()
    api.searchAds.mockRejectedValue(new Error('Error: down'))
    renderWithApp(<TradingPage search={{}} onSearch={vi.fn()} />)
    expect(await screen.findByText('The ads could not be loaded.')).toBeTruthy()
  })

  it('sends a visitor who trades to log in and back', async () => {
    session.user = null
    api.searchAds.mockResolvedValue({ count: 1, list: [ad()] })
    const { router } = renderWithApp(<TradingPage search={{}} onSearch={vi.fn()} />, { path: '/p2p/trading?coin=USDT' })
    fireEvent.click(await screen.findByTestId('ad-trade'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'))
    expect(router.state.location.href).toContain(`redirect=${encodeURIComponent('/p2p/trading?coin=USDT')}`)
  })

  it('buys: the amount fills the coins at the price, the limits are checked, the order opens by MNT amount', async () => {
    api.searchAds.mockResolvedValue({ count: 1, list: [ad()] })
    api.openOrder.mockResolvedValue(order())
    const { router } = renderWithApp(<TradingPage search={{}} onSearch={vi.fn()} />, { path: '/p2p/trading' })
    fireEvent.click(await screen.findByTestId('ad-trade'))
    const dialog = await screen.findByTestId('trade-dialog')
    expect(within(dialog).getByTestId('trade-time-limit').textContent).toBe('15 min')
    fireEvent.change(within(dialog).getByTestId('trade-amount'), { target: { value: '10000' } })
    expect((within(dialog).getByTestId('trade-volume') as HTMLInputElement).value).toBe('2.85')
    expect(within(dialog).getByTestId('trade-summary').textContent).toBe('You pay 9,975.00 MNT and receive 2.85 USDT.')
    fireEvent.change(within(dialog).getByTestId('trade-volume'), { target: { value: '0.1' } })
    expect((within(dialog).getByTestId('trade-amount') as HTMLInputElement).value).toBe('350')
    fireEvent.click(within(dialog).getByTestId('trade-submit'))
    expect((await within(dialog).findByTestId('trade-error')).textContent).toBe('The order must be at least 1,000.00 MNT.')
    expect(api.openOrder).not.toHaveBeenCalled()
    fireEvent.change(within(dialog).getByTestId('trade-amount'), { target: { value: '35000' } })
    fireEvent.click(within(dialog).getByTestId('trade-submit'))
    await waitFor(() => expect(api.openOrder).toHaveBeenCalledWith({ side: 'BUY', advertId: 'ad1', totalPrice: '35000', payments: undefined }))
    // The history keeps the 19-digit id as written (the router's own parse would read it as a number).
    await waitFor(() => expect(router.history.location.href).toBe('/p2p/order-detail?id=1796621569577037764'))
  })

  it('sells: the OTC balance caps the amount and a payment method of the accepted kinds is required', async () => {
    api.searchAds.mockResolvedValue({ count: 1, list: [ad({ side: 'BUY' })] })
    api.fetchMethods.mockResolvedValue([method(), method({ id: 'pm2', kind: 'qpay', title: 'QPay', account: '99112233' }), method({ id: 'pm3', open: false })])
    api.openOrder.mockResolvedValue(order({ side: 'SELL' }))
    renderWithApp(<TradingPage search={{ side: 'sell' }} onSearch={vi.fn()} />, { path: '/p2p/trading?side=sell' })
    fireEvent.click(await screen.findByTestId('ad-trade'))
    const dialog = await screen.findByTestId('trade-dialog')
    expect((await within(dialog).findByTestId('trade-balance')).textContent).toBe('Available in your P2P account: 25.50 USDT')
    // Only the open bank method: the ad accepts bank transfers.
    expect(await within(dialog).findByTestId('trade-method-pm1')).toBeTruthy()
    expect(within(dialog).queryByTestId('trade-method-pm2')).toBeNull()
    expect(within(dialog).queryByTestId('trade-method-pm3')).toBeNull()
    fireEvent.click(within(dialog).getByTestId('trade-all'))
    expect((within(dialog).getByTestId('trade-volume') as HTMLInputElement).value).toBe('25.50')
    fireEvent.click(within(dialog).getByTestId('trade-submit'))
    expect(await within(dialog).findByText('Choose at least one payment method.')).toBeTruthy()
    fireEvent.click(within(within(dialog).getByTestId('trade-method-pm1')).getByRole('checkbox'))
    await waitFor(() => expect(within(dialog).queryByText('Choose at least one payment method.')).toBeNull())
    fireEvent.click(within(dialog).getByTestId('trade-submit'))
    await waitFor(() => expect(api.openOrder).toHaveBeenCalledWith({ side: 'SELL', advertId: 'ad1', volume: '25.50', payments: ['pm1'] }))
  })

  it('shows the processing orders with a red dot, and the More menu with the blacklist disabled', async () => {
    api.fetchOrders.mockResolvedValue({ count: 1, orderList: [order({ status: 'BUYER_PAID' })] })
    renderWithApp(<SubNavHarness />, { path: '/p2p/trading' })
    expect((await screen.findByTestId('p2p-orders-dot')).getAttribute('aria-label')).toBe('1 processing orders')
    expect(api.fetchOrders).toHaveBeenCalledWith('processing', 1, 20, expect.anything())
    fireEvent.click(screen.getByTestId('p2p-nav-orders'))
    const row = await screen.findByTestId('p2p-processing-row')
    expect(row.getAttribute('href')).toBe('/p2p/order-detail?id=1796621569577037764')
    expect(row.textContent).toContain('Buy USDT')
    expect(row.textContent).toContain('Paid')
    expect(row.textContent).toContain('35,000.00 MNT')
    // Read again when it opens.
    await waitFor(() => expect(api.fetchOrders).toHaveBeenCalledTimes(2))
    fireEvent.keyDown(row, { key: 'Escape' })
    fireEvent.click(screen.getByTestId('p2p-nav-more'))
    const menu = await screen.findByTestId('p2p-more-menu')
    expect(within(menu).getByTestId('p2p-more-blacklist').getAttribute('data-disabled')).not.toBeNull()
    expect(within(menu).getByTestId('p2p-more-fund-password').getAttribute('href')).toBe('/wallet?modal=tradePassword')
    expect(within(menu).getByTestId('p2p-more-payment-method').getAttribute('href')).toBe('/p2p/payment-method')
  })

  it('opens the agreement notice for a signed-in user without the cookie; confirm needs the tick and stores it', async () => {
    renderWithApp(<AgreementHarness />)
    const notice = await screen.findByTestId('p2p-agreement')
    const confirm = within(notice).getByTestId('p2p-agreement-confirm') as HTMLButtonElement
    expect(confirm.disabled).toBe(true)
    fireEvent.click(within(notice).getByRole('checkbox'))
    await waitFor(() => expect(confirm.disabled).toBe(false))
    fireEvent.click(confirm)
    await waitFor(() => expect(screen.queryByTestId('p2p-agreement')).toBeNull())
    expect(getCookie(COOKIE.p2pAgreement)).toBe('true')
  })

  it('adds a bank account with the IBAN rules, turns a method off and deletes one after asking', async () => {
    api.fetchMethods.mockResolvedValue([method({ id: 'q1', kind: 'qpay', title: 'QPay', account: '99112233' })])
    api.addMethod.mockResolvedValue(method())
    api.setMethodOpen.mockResolvedValue(method({ open: false }))
    api.deleteMethod.mockResolvedValue({ ok: true })
    renderWithApp(<PaymentMethodsPage />)
    expect((await screen.findByTestId('method-account')).textContent).toBe('99112233')
    fireEvent.click(screen.getByTestId('method-add'))
    const dialog = await screen.findByTestId('method-dialog')
    fireEvent.change(within(dialog).getByTestId('method-kind'), { target: { value: 'bank' } })
    expect((within(dialog).getByTestId('method-holder') as HTMLInputElement).value).toBe('Bat Saraa')
    fireEvent.change(within(dialog).getByTestId('method-account'), { target: { value: '12ab34' } })
    expect((within(dialog).getByTestId('method-account') as HTMLInputElement).value).toBe('1234')
    fireEvent.click(within(dialog).getByTestId('method-submit'))
    expect((await within(dialog).findByTestId('method-account-error')).textContent).toBe('Wrong IBAN format. It must have 18 digits.')
    expect(within(dialog).getAllByText('Required').length).toBe(1)
    fireEvent.change(within(dialog).getByTestId('method-bank'), { target: { value: 'KHAN' } })
    fireEvent.change(within(dialog).getByTestId('method-account'), { target: { value: '123456789012345678' } })
    fireEvent.click(within(dialog).getByTestId('method-submit'))
    await waitFor(() => expect(api.addMethod).toHaveBeenCalledWith({ payment: 'bank', bank: 'KHAN', account: 'MN123456789012345678' }))

    fireEvent.click(screen.getByLabelText('Offer QPay in ads'))
    await waitFor(() => expect(api.setMethodOpen).toHaveBeenCalledWith('q1', false))
    fireEvent.click(screen.getByTestId('method-delete'))
    fireEvent.click(await screen.findByTestId('method-delete-confirm'))
    await waitFor(() => expect(api.deleteMethod).toHaveBeenCalledWith('q1'))
  })

  it('asks an unverified user to verify before adding a method, and shows the empty state', async () => {
    session.user = { id: 'b1', kycStatus: 0 }
    renderWithApp(<PaymentMethodsPage />)
    expect(await screen.findByTestId('methods-unverified')).toBeTruthy()
    expect(await screen.findByTestId('methods-empty')).toBeTruthy()
    expect((screen.getByTestId('method-add') as HTMLButtonElement).disabled).toBe(true)
  })

  it('tells a non-merchant how to apply instead of the ad form', async () => {
    api.fetchStats.mockResolvedValue(stats({ merchant: 'none' }))
    renderWithApp(<PublishAdPage />)
    const prompt = await screen.findByTestId('publish-not-merchant')
    expect(prompt.textContent).toContain('Only merchants publish ads')
    expect(within(prompt).getByRole('link').getAttribute('href')).toBe('/p2p/apply-merchant')
  })

  it('publishes a SELL ad with a floating price, checked before it is sent', async () => {
    api.fetchStats.mockResolvedValue(stats())
    api.fetchMethods.mockResolvedValue([method(), method({ id: 'pm2', open: false, title: 'Off' })])
    api.fetchSellBalance.mockResolvedValue('500')
    api.saveAd.mockResolvedValue(ad())
    renderWithApp(<PublishAdPage />, { path: '/p2p/publish-ad' })
    const form = await screen.findByTestId('ad-form')
    expect((await within(form).findByTestId('ad-reference-rate')).textContent).toBe('Reference rate: 3,450.00 MNT per USDT')
    expect(within(form).queryByTestId('ad-method-pm2')).toBeNull()
    fireEvent.click(within(form).getByTestId('ad-submit'))
    expect(await within(form).findByTestId('ad-form-errors')).toBeTruthy()
    expect(api.saveAd).not.toHaveBeenCalled()
    fireEvent.click(within(within(form).getByTestId('ad-price-type')).getByText('Floating'))
    fireEvent.change(await within(form).findByTestId('ad-price-rate'), { target: { value: '98.5' } })
    expect((await within(form).findByTestId('ad-floating-price')).textContent).toBe('Your price now: 3,398.25 MNT')
    fireEvent.change(within(form).getByTestId('ad-volume'), { target: { value: '600' } })
    fireEvent.change(within(form).getByTestId('ad-min'), { target: { value: '1000' } })
    fireEvent.change(within(form).getByTestId('ad-max'), { target: { value: '50000' } })
    fireEvent.click(within(within(form).getByTestId('ad-method-pm1')).getByRole('checkbox'))
    fireEvent.click(within(form).getByTestId('ad-submit'))
    expect(await within(form).findByText('More than you have in your P2P account')).toBeTruthy()
    fireEvent.change(within(form).getByTestId('ad-volume'), { target: { value: '100' } })
    fireEvent.click(within(form).getByTestId('ad-submit'))
    await waitFor(() =>
      expect(api.saveAd).toHaveBeenCalledWith({
        side: 'SELL',
        coinSymbol: 'USDT',
        paySymbol: 'MNT',
        priceType: 'floating',
        priceRate: '98.5',
        volume: '100',
        minTrade: '1000',
        maxTrade: '50000',
        payments: ['pm1'],
        limitTime: 15,
        description: '',
        kycRequired: false,
      }),
    )
  })

  it('lists my ads with Edit and Close, and closes one after asking', async () => {
    api.fetchPersonAds.mockResolvedValue({ count: 2, list: [ad(), ad({ id: 'ad2', status: 'closed', priceType: 'floating', priceRate: '98.5' })] })
    api.closeAd.mockResolvedValue({ ok: true })
    renderWithApp(<MyAdsPage />)
    const rows = await screen.findAllByTestId('my-ad-row')
    expect(rows.map((r) => within(r).getByTestId('my-ad-status').textContent)).toEqual(['Open', 'Closed'])
    expect(rows[1].textContent).toContain('98.5% of the reference rate')
    expect(within(rows[0]).getByTestId('my-ad-edit').getAttribute('href')).toBe('/p2p/publish-ad?id=ad1')
    expect(within(rows[1]).queryByTestId('my-ad-close')).toBeNull()
    expect(api.fetchPersonAds).toHaveBeenCalledWith('', 1, 10, expect.anything())
    fireEvent.click(within(rows[0]).getByTestId('my-ad-close'))
    expect((await screen.findByTestId('close-ad-dialog')).textContent).toContain('remaining coins return to your P2P account')
    fireEvent.click(screen.getByTestId('close-ad-confirm'))
    await waitFor(() => expect(api.closeAd).toHaveBeenCalledWith('ad1'))
  })

  it('shows an empty list of ads with the way to publish', async () => {
    api.fetchPersonAds.mockResolvedValue({ count: 0, list: [] })
    renderWithApp(<MyAdsPage />)
    const empty = await screen.findByTestId('my-ads-empty')
    expect(within(empty).getByRole('link').getAttribute('href')).toBe('/p2p/publish-ad')
  })

  it('applies to become a merchant once verified; a merchant with open ads cannot stop', async () => {
    api.fetchStats.mockResolvedValueOnce(stats({ merchant: 'none' })).mockResolvedValue(stats({ merchant: 'pending' }))
    api.applyMerchant.mockResolvedValue(stats({ merchant: 'pending' }))
    const { unmount } = renderWithApp(<ApplyMerchantPage />)
    fireEvent.click(await screen.findByTestId('merchant-apply'))
    await waitFor(() => expect(api.applyMerchant).toHaveBeenCalled())
    expect(await screen.findByTestId('merchant-pending')).toBeTruthy()
    unmount()
    api.fetchStats.mockReset()
    api.fetchStats.mockResolvedValue(stats({ merchant: 'none', kycVerified: false }))
    const second = renderWithApp(<ApplyMerchantPage />)
    expect(((await screen.findByTestId('merchant-apply')) as HTMLButtonElement).disabled).toBe(true)
    second.unmount()
    api.fetchStats.mockResolvedValue(stats({ openAds: 2 }))
    renderWithApp(<ApplyMerchantPage />)
    expect(((await screen.findByTestId('merchant-stop')) as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByText('Close your 2 open ads first.')).toBeTruthy()
  })

  it('lists the P2P orders in two tabs with their status labels', async () => {
    api.fetchOrders.mockResolvedValue({ count: 2, orderList: [order(), order({ id: 'o2', sequence: 'o2', side: 'SELL', status: 'CANCELLED_BY_SYSTEM' })] })
    const onSearch = vi.fn()
    renderWithApp(<OtcOrdersPage search={{}} onSearch={onSearch} />)
    const rows = await screen.findAllByTestId('otc-order-row')
    expect(rows.map((r) => within(r).getByTestId('otc-order-status').textContent)).toEqual(['Unpaid', 'Failed order'])
    expect(within(rows[0]).getByTestId('otc-order-view').getAttribute('href')).toBe('/p2p/order-detail?id=1796621569577037764')
    expect(api.fetchOrders).toHaveBeenCalledWith('processing', 1, 10, expect.anything())
    fireEvent.click(screen.getByTestId('otc-tab-finished'))
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ tab: 'finished', page: undefined }))
  })

  it('quotes an express buy and opens the order on the quoted ad', async () => {
    api.fetchQuote.mockResolvedValue({ advertId: 'ad9', price: '3500', volume: '2.85', totalPrice: '9975', limitTime: 15, payments: ['bank'], merchant: { nickName: 'Merchant', completeOrders: 3, completionRate: '100.00' } })
    api.openOrder.mockResolvedValue(order())
    renderWithApp(<ExpressPage />, { path: '/p2p/express' })
    fireEvent.change(await screen.findByTestId('express-value'), { target: { value: '10000' } })
    const quote = await screen.findByTestId('express-quote', {}, { timeout: 5000 })
    expect(api.fetchQuote).toHaveBeenCalledWith({ side: 'BUY', coinSymbol: 'USDT', amount: '10000' }, expect.anything())
    expect(within(quote).getByTestId('express-volume').textContent).toBe('2.85 USDT')
    expect(within(quote).getByTestId('express-total').textContent).toBe('9,975.00 MNT')
    fireEvent.click(within(quote).getByTestId('express-submit'))
    await waitFor(() => expect(api.openOrder).toHaveBeenCalledWith({ side: 'BUY', advertId: 'ad9', volume: '2.85', payments: undefined }))
  })
})

function SubNavHarness() {
  const { t } = p2pTexts.useTexts()
  return <P2PSubNav t={t} />
}

function AgreementHarness() {
  const { t } = p2pTexts.useTexts()
  return <AgreementModal t={t} />
}
