import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import type { LaunchReport, LaunchView } from '../api/launchpad-api'
import { LaunchDetailPage } from './launch-detail-page'
import { LaunchpadPage } from './launchpad-page'

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

const HOUR = 3_600_000
const DETAIL = '/fe-ex-api/newcoinV2/newcoin_project_detailV2'
const PURCHASE = '/fe-ex-api/api/newcoin_purchase'

function sale(over: Partial<LaunchView> = {}): LaunchView {
  const now = Date.now()
  return {
    id: 'ton-launch',
    name: 'TON community sale',
    description: 'Commit USDT during the subscription phase.',
    token: 'TON',
    tokenLogo: '',
    commitCoin: 'USDT',
    price: '2.2',
    tokensOffered: '10000.000000',
    maxPerUser: '2000.000000',
    minCommit: '10.000000',
    subscribeStart: now - HOUR,
    subscribeEnd: now + 50 * HOUR + 4 * 60_000 + 5_000,
    distributeAt: now + 51 * HOUR,
    phase: 'subscription',
    totalCommitted: '220.000000',
    participants: 1,
    subscribedPercent: '1.00',
    tokenPrecision: 6,
    commitPrecision: 6,
    ...over,
  }
}

const MINE: LaunchReport = {
  committed: '220.000000',
  proRataShare: '10000.00000000000000',
  limit: '100.000000',
  allocated: '',
  cost: '',
  returned: '',
  formula: 'allocation = min(…)',
}

function spot(normal: string) {
  return { totalBalance: '0', totalBalanceSymbol: 'BTC', totalValuation: '0', currency: 'USD', lang_logo: '$', coinList: [{ coin: 'USDT', name: 'USDT', total: normal, normal, freeze: '0', showPrecision: 6, icon: '', longName: 'Tether' }] }
}

describe('LaunchpadPage', () => {
  beforeEach(() => {
    session.signedIn = false
    serve({
      '/fe-ex-api/newcoinV2/newcoin_project_listV2': [sale(), sale({ id: 'old', name: 'Old sale', phase: 'ended', subscribedPercent: '450.00', totalCommitted: '99000.000000' })],
      '/fe-ex-api/common/launchpad_footer': { projects: 2, participants: 1234, ended: 1 },
    })
  })

  it('lists the sales with their phase, price, offer, subscription and countdown, and the launchpad in figures', async () => {
    renderWithApp(<LaunchpadPage />)
    const card = await screen.findByTestId('launch-ton-launch')
    expect(within(card).getByTestId('launch-phase-ton-launch').textContent).toBe('Subscription')
    expect(card.textContent).toContain('2.2 USDT')
    expect(card.textContent).toContain('10,000 TON')
    expect(within(card).getByTestId('launch-subscribed-ton-launch').textContent).toBe('1.00%')
    expect(within(card).getByTestId('launch-countdown-ton-launch').textContent).toMatch(/^Subscription closes in 2 d 02:0[34]:\d\d$/)
    expect(within(card).getByTestId('launch-link-ton-launch').getAttribute('href')).toBe('/launchpad/ton-launch')
    const old = screen.getByTestId('launch-old')
    expect(within(old).getByTestId('launch-phase-old').textContent).toBe('Ended')
    expect(within(old).getByTestId('launch-subscribed-old').textContent).toBe('Oversubscribed 4.50×')
    expect(within(old).queryByTestId('launch-countdown-old')).toBeNull()
    await waitFor(() => expect(screen.getByTestId('launch-figure-participants').textContent).toBe('1,234'))
  })
})

describe('LaunchDetailPage', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    session.signedIn = false
    serve({ [DETAIL]: sale(), '/fe-ex-api/wallet/account_balance': spot('1500'), [PURCHASE]: { id: 'c1', kind: 'commit', amount: '220.000000' } })
  })
  afterEach(() => vi.restoreAllMocks())

  it('a visitor sees the sale, its timeline at the subscription, and signs in to commit', async () => {
    renderWithApp(<LaunchDetailPage projectId="ton-launch" />)
    expect((await screen.findByTestId('launch-price')).textContent).toBe('2.2 USDT')
    expect(screen.getByTestId('launch-offered').textContent).toBe('10,000 TON')
    expect(screen.getByTestId('launch-cap').textContent).toBe('2,000 TON')
    expect(screen.getByTestId('launch-total').textContent).toBe('220.000000 USDT')
    expect(screen.getByTestId('launch-subscribed-note').textContent).toBe('Not oversubscribed')
    const steps = ['upcoming', 'subscription', 'calculation', 'distribution', 'ended'].map((p) => screen.getByTestId(`launch-step-${p}`).getAttribute('data-state'))
    expect(steps).toEqual(['done', 'current', 'next', 'next', 'next'])
    expect(screen.getByTestId('launch-step-subscription').getAttribute('aria-current')).toBe('step')
    expect(screen.getByTestId('launch-signin').getAttribute('href')).toBe('/auth/login?redirect=%2Flaunchpad%2Fton-launch')
    expect(screen.queryByTestId('launch-report')).toBeNull()
  })

  it('commits during the subscription: checked as typed, what it buys, a request id', async () => {
    session.signedIn = true
    renderWithApp(<LaunchDetailPage projectId="ton-launch" />)
    fireEvent.click(await screen.findByTestId('launch-commit'))
    const modal = await screen.findByTestId('commit-modal')
    const amount = (await within(modal).findByTestId('commit-amount')) as HTMLInputElement
    fireEvent.change(amount, { target: { value: '5' } })
    expect(await within(modal).findByText('The minimum commitment is 10.000000 USDT')).toBeTruthy()
    fireEvent.change(amount, { target: { value: '2000' } })
    expect(await within(modal).findByText('More than your available 1,500.000000 USDT')).toBeTruthy()
    fireEvent.change(amount, { target: { value: '220' } })
    await waitFor(() => expect(within(modal).getByTestId('commit-buys').textContent).toContain('≤ 100.000000 TON'))
    expect(within(modal).getByTestId('commit-cap').textContent).toContain('2,000 TON (worth 4,400 USDT)')
    fireEvent.click(within(modal).getByTestId('commit-submit'))
    await waitFor(() => expect(sentTo(PURCHASE)).toEqual([expect.objectContaining({ projectId: 'ton-launch', amount: '220', requestId: expect.any(String) })]))
    await waitFor(() => expect(notify.notifySuccess).toHaveBeenCalledWith('Committed 220.000000 USDT to TON community sale.'))
  })

  it('the report before the distribution: the share and the limit worked out, the rest to come', async () => {
    session.signedIn = true
    serve({ [DETAIL]: sale({ mine: MINE }) })
    renderWithApp(<LaunchDetailPage projectId="ton-launch" />)
    const report = await screen.findByTestId('launch-report')
    expect(within(report).getByTestId('report-share').textContent).toBe('Your pro-rata share10,000.000000 TON220 ÷ 220 × 10,000')
    expect(within(report).getByTestId('report-limit').textContent).toContain('100.000000 TON')
    expect(within(report).getByTestId('report-limit').textContent).toContain('The lesser of the cap 2,000 TON and what your commitment buys: 220 ÷ 2.2')
    expect(within(report).getByTestId('report-first-round').textContent).toContain('Your share is above your limit')
    expect(within(report).getByTestId('report-pending')).toBeTruthy()
    expect(within(report).queryByTestId('launch-report-check')).toBeNull()
    expect(within(report).getByTestId('report-formula').textContent).toContain('Allocation = the lesser of')
  })

  it('the report after the distribution: tokens, cost and refund, checked against the formula', async () => {
    session.signedIn = true
    serve({ [DETAIL]: sale({ phase: 'ended', mine: { ...MINE, allocated: '100.000000', cost: '220.000000', returned: '0.000000' } }) })
    renderWithApp(<LaunchDetailPage projectId="ton-launch" />)
    const report = await screen.findByTestId('launch-report')
    expect(within(report).getByTestId('report-allocated').textContent).toContain('100.000000 TON')
    expect(within(report).getByTestId('report-cost').textContent).toContain('100 × 2.2 = 220, rounded up')
    expect(within(report).getByTestId('report-returned').textContent).toContain('220 − 220')
    expect(within(report).getByTestId('launch-report-check').getAttribute('data-consistent')).toBe('true')
    expect((screen.getByTestId('launch-commit') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('launch-commit-closed').textContent).toBe('This sale has ended.')
    expect(screen.queryByTestId('launch-countdown')).toBeNull()
  })

  it('an unknown sale says so, with the way back', async () => {
    serve({ [DETAIL]: refuse('19000', 'No such product: nope') })
    renderWithApp(<LaunchDetailPage projectId="nope" />)
    expect((await screen.findByTestId('launch-detail-error')).textContent).toContain('No such product: nope')
    expect(screen.getByTestId('launch-back').getAttribute('href')).toBe('/launchpad')
  })
})
