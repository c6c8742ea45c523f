import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { Holding, Project, SavingsRecord } from '../api/savings-api'
import { SavingsPage } from './savings-page'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)
const session = vi.hoisted(() => ({ signedIn: false }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () =>
    session.signedIn
      ? { user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }
      : { user: null, isSignedIn: false, isLoading: false, refetch: vi.fn() },
}))

const USDT: Project = {
  id: 'usdt',
  showName: 'USDT Flexible',
  coinSymbol: 'USDT',
  logo: '',
  period: 'yearly',
  rate: '6.5',
  yearRate: '6.50',
  tiers: [
    { upTo: '10000.000000', rate: '6.5', yearRate: '6.50' },
    { upTo: '', rate: '3', yearRate: '3.00' },
  ],
  minAmount: '1.000000',
  maxPerUser: '1000000.000000',
  precision: 6,
  open: true,
}
const BTC: Project = { ...USDT, id: 'btc', showName: 'BTC Flexible', coinSymbol: 'BTC', rate: '0.1', period: 'monthly', yearRate: '1.20', tiers: [], minAmount: '0.00010000', maxPerUser: '', precision: 8, open: false }

const HELD: Holding = {
  ...USDT,
  amount: '1500.178082',
  earning: '1000.178082',
  pending: '500.000000',
  redeemable: '1500.178082',
  redeeming: '0.000000',
  redeemArriveDate: '',
  totalInterest: '0.178082',
  interestYesterday: '0.178082',
  autoStatus: 1,
  estimatedInterestToday: '0.178114',
}
const NOT_HELD: Holding = { ...BTC, amount: '0.00000000', earning: '0', pending: '0', redeemable: '0', redeeming: '0', redeemArriveDate: '', totalInterest: '0', interestYesterday: '0', autoStatus: 0, estimatedInterestToday: '0' }

const record = (id: string, type: SavingsRecord['type'], amount: string, date: string): SavingsRecord => ({ id, type, projectId: 'usdt', coinSymbol: 'USDT', amount, date, ctime: Date.parse(`${date}T01:00:00Z`) })
const RECORDS = '/fe-increment-api/savings/records'
/** A record's row (its cells have test ids of their own). */
const ROW = /^record-(subscribe|redeem_fast|redeem_standard|interest|payout)$/

function exchange() {
  serve({
    '/fe-increment-api/noToken/savings/projectPage': { list: [USDT, BTC], count: 2 },
    '/fe-increment-api/savings/holdings': [HELD, NOT_HELD],
    '/fe-ex-api/wallet/confirm_auto_sub': null,
    [RECORDS]: (body: Record<string, unknown>) => {
      if (body.type === 'interest') return { list: [record('i1', 'interest', '0.178082', '2026-03-02')], count: 1, next: '' }
      if (body.type === 'subscribe') return { list: [record('s1', 'subscribe', '1000.000000', '2026-03-01')], count: 1, next: '' }
      if (!body.cursor) return { list: [record('r1', 'redeem_fast', '100.000000', '2026-03-03'), record('i1', 'interest', '0.178082', '2026-03-02')], count: 2, next: 'c2' }
      return { list: [record('s1', 'subscribe', '1000.000000', '2026-03-01')], count: 1, next: '' }
    },
  })
}

describe('SavingsPage', () => {
  beforeEach(() => {
    session.signedIn = false
    exchange()
  })
  afterEach(() => vi.restoreAllMocks())

  it('a visitor sees the products (APR, the rate as quoted, tiers, minimum, cap, open or closed) and signs in to subscribe', async () => {
    screenWidth(1280)
    renderWithApp(<SavingsPage />)
    const table = await screen.findByTestId('savings-products')
    expect(table.getAttribute('data-layout')).toBe('table')
    const usdt = within(table).getByTestId('product-USDT')
    expect(within(usdt).getByTestId('product-apr-USDT').textContent).toContain('6.50%')
    expect(usdt.textContent).toContain('6.5% per year')
    expect(within(usdt).getByTestId('tiers-USDT').textContent).toContain('Up to 10,000 USDT6.50%')
    expect(within(usdt).getByTestId('tiers-USDT').textContent).toContain('Above 10,000 USDT3.00%')
    expect(within(usdt).getByTestId('product-min-USDT').textContent).toBe('1 USDT')
    expect(usdt.textContent).toContain('1,000,000 USDT')
    expect(within(table).getByTestId('product-min-BTC').textContent).toBe('0.0001 BTC')
    const btc = within(table).getByTestId('product-BTC')
    expect(btc.textContent).toContain('0.1% per month')
    expect(btc.textContent).toContain('No cap')
    expect(within(btc).getByTestId('product-status-BTC').textContent).toBe('Closed')
    expect(within(usdt).getByTestId('product-signin-USDT').getAttribute('href')).toBe('/auth/login?redirect=%2Fsavings')
    expect(screen.getByTestId('savings-signin')).toBeTruthy()
    expect(screen.queryByTestId('savings-mine')).toBeNull()
    // A visitor's page asks for nothing personal.
    expect(sentTo('/fe-increment-api/savings/holdings')).toEqual([])
  })

  it('a signed-in user sees their holding, the interest chart and the records, a page at a time', async () => {
    session.signedIn = true
    screenWidth(1280)
    renderWithApp(<SavingsPage />)
    const card = await screen.findByTestId('holding-USDT')
    expect(within(card).getByTestId('holding-amount-USDT').textContent).toBe('1,500.178082 USDT')
    expect(within(card).getByTestId('holding-pending-USDT').textContent).toBe('500.000000 USDT')
    expect(within(card).getByTestId('holding-yesterday-USDT').textContent).toBe('0.178082 USDT')
    expect(within(card).getByTestId('holding-total-USDT').textContent).toBe('0.178082 USDT')
    expect(within(card).getByTestId('holding-today-USDT').textContent).toBe('≈ 0.178114 USDT')
    expect(within(card).getByRole('checkbox', { name: 'Auto-subscribe' })).toBeTruthy()
    // A product not held has no card.
    expect(screen.queryByTestId('holding-BTC')).toBeNull()
    await waitFor(() => expect(screen.getByTestId('interest-chart-sum').textContent).toBe('0.178082 USDT in the last 30 days'))
    expect(screen.getByRole('img', { name: 'Interest paid in USDT on each of the last 30 days' })).toBeTruthy()

    await waitFor(() => expect(screen.getAllByTestId(ROW)).toHaveLength(2))
    fireEvent.click(screen.getByTestId('records-more'))
    await waitFor(() => expect(screen.getAllByTestId(ROW)).toHaveLength(3))
    expect(sentTo(RECORDS).filter((b) => b.cursor === 'c2')).toHaveLength(1)
    expect(screen.queryByTestId('records-more')).toBeNull()

    // The type filter asks the server for that type only.
    fireEvent.change(screen.getByTestId('records-type'), { target: { value: 'subscribe' } })
    await waitFor(() => expect(screen.getAllByTestId(ROW).map((r) => r.getAttribute('data-testid'))).toEqual(['record-subscribe']))
  })

  it('the auto-subscribe switch turns it off at once (confirm_auto_sub type 0)', async () => {
    session.signedIn = true
    renderWithApp(<SavingsPage />)
    const toggle = await screen.findByRole('checkbox', { name: 'Auto-subscribe' })
    fireEvent.click(toggle)
    await waitFor(() => expect(sentTo('/fe-ex-api/wallet/confirm_auto_sub')).toEqual([expect.objectContaining({ projectId: 'usdt', coinSymbol: 'USDT', type: 0 })]))
  })

  it('phones (390 px): one card per product, the holding figures two to a row', async () => {
    session.signedIn = true
    screenWidth(390)
    renderWithApp(<SavingsPage />)
    const list = await screen.findByTestId('savings-products')
    expect(list.getAttribute('data-layout')).toBe('cards')
    expect(within(list).getByTestId('product-USDT').textContent).toContain('6.50%')
    expect(await screen.findByTestId('holding-USDT')).toBeTruthy()
  })

  it('says when the products could not be loaded, with a retry', async () => {
    serve({ '/fe-increment-api/noToken/savings/projectPage': refuse('500', 'down') })
    renderWithApp(<SavingsPage />)
    expect((await screen.findByTestId('savings-products-error')).textContent).toContain('The products could not be loaded.')
  })
})
