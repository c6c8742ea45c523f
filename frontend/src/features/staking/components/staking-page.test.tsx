import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import { ETH_60, stake, USDT_90 } from '../test/fixtures'
import { StakingPage } from './staking-page'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)
const session = vi.hoisted(() => ({ signedIn: false }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () =>
    session.signedIn
      ? { user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }
      : { user: null, isSignedIn: false, isLoading: false, refetch: vi.fn() },
}))

const MY_POS = '/fe-increment-api/increment/my_pos'
const REDEEM = '/fe-increment-api/increment/redeem'

function exchange() {
  serve({
    '/fe-increment-api/noToken/increment/project_list': [USDT_90, ETH_60],
    [MY_POS]: [
      stake({ id: 'k2', status: 'pending', rewardsPaid: '0.000000', redeemNow: '100.000000', ctime: 2 }),
      stake({ id: 'k1', projectId: 'usdt-30', showName: 'USDT 30-day staking', payout: 'maturity', termDays: 30, apr: '8.00', rewardsPaid: '0.000000', rewardsAccrued: '0.065752', rewardsExpected: '0.657510', redeemNow: '100.000000' }),
      stake({ id: 'k0', projectId: 'trx-14', showName: 'TRX 14-day staking', coinSymbol: 'TRX', status: 'completed', redeemNow: '0.000000' }),
    ],
    [REDEEM]: { id: 'k1', kind: 'redeem', projectId: 'usdt-30', coinSymbol: 'USDT', amount: '100.000000', status: 'success', ctime: 3 },
  })
}

describe('StakingPage', () => {
  beforeEach(() => {
    session.signedIn = false
    exchange()
  })
  afterEach(() => vi.restoreAllMocks())

  it('a visitor sees the products (APR, term, payout, minimum, caps, how full the pool is) and signs in to stake', async () => {
    renderWithApp(<StakingPage />)
    const card = await screen.findByTestId('staking-product-usdt-90')
    expect(within(card).getByTestId('staking-apr-usdt-90').textContent).toBe('10.00%')
    expect(within(card).getByTestId('staking-term-usdt-90').textContent).toBe('90 days')
    expect(within(card).getByTestId('staking-payout-usdt-90').textContent).toBe('Every day')
    expect(within(card).getByTestId('staking-min-usdt-90').textContent).toBe('10 USDT')
    expect(within(card).getByTestId('staking-cap-usdt-90').textContent).toBe('100,000 USDT')
    expect(within(card).getByTestId('staking-remaining-usdt-90').textContent).toBe('7,500,000 USDT')
    // 2.5 of 10 million staked: a quarter of the pool.
    const pool = within(card).getByTestId('staking-pool-usdt-90')
    expect(pool.textContent).toContain('25.00%')
    expect(pool.textContent).toContain('2,500,000 of 10,000,000 USDT staked')
    expect(within(pool).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25')
    const eth = screen.getByTestId('staking-product-eth-60')
    expect(eth.textContent).toContain('Closed')
    expect(within(eth).getByTestId('staking-cap-eth-60').textContent).toBe('No cap')
    expect(within(card).getByTestId('staking-signin-usdt-90').getAttribute('href')).toBe('/auth/login?redirect=%2Fstaking')
    expect(screen.getByTestId('staking-signin')).toBeTruthy()
    expect(sentTo(MY_POS)).toEqual([])
  })

  it('a signed-in user sees their stakes with spec §4 labels, dates and rewards', async () => {
    session.signedIn = true
    screenWidth(1280)
    renderWithApp(<StakingPage />)
    const table = await screen.findByTestId('my-stakes')
    expect(table.getAttribute('data-layout')).toBe('table')
    const rows = within(table).getAllByTestId(/^stake-(usdt|trx)/)
    expect(rows.map((r) => within(r).getByTestId('stake-status').textContent)).toEqual(['Pending', 'Locked', 'Completed'])
    const maturity = rows[1]
    expect(within(maturity).getByTestId('stake-days').textContent).toBe('2026-12-08 → 2027-03-07')
    expect(within(maturity).getByTestId('stake-earned').textContent).toBe('0.065752 USDTkept for maturity')
    expect(within(rows[0]).getByTestId('stake-earned').textContent).toBe('0.000000 USDTpaid into spot')
    // Only what still earns can be redeemed early.
    expect(within(rows[2]).queryByTestId('stake-redeem')).toBeNull()
    expect(within(rows[0]).getByTestId('stake-redeem')).toBeTruthy()
  })

  it('Redeem early asks first, saying what returns and what is forfeited, then redeems', async () => {
    session.signedIn = true
    screenWidth(1280)
    renderWithApp(<StakingPage />)
    const table = await screen.findByTestId('my-stakes')
    const row = within(table).getAllByTestId(/^stake-usdt-30/)[0]
    fireEvent.click(within(row).getByTestId('stake-redeem'))
    const ask = await screen.findByTestId('stake-redeem-modal')
    expect(within(ask).getByTestId('stake-redeem-returned').textContent).toContain('100.000000 USDT')
    expect(within(ask).getByTestId('stake-redeem-kept').textContent).toContain('0.065752 USDT')
    // 0.657510 expected − 0.065752 kept: never earned.
    expect(within(ask).getByTestId('stake-redeem-unearned').textContent).toContain('0.591758 USDT')
    fireEvent.click(within(ask).getByTestId('stake-redeem-confirm'))
    await waitFor(() => expect(sentTo(REDEEM)).toEqual([expect.objectContaining({ id: 'k1' })]))
    await waitFor(() => expect(screen.queryByTestId('stake-redeem-modal')).toBeNull())
  })

  it('the confirmation for a daily stake: the rewards paid come off the principal', async () => {
    serve({
      '/fe-increment-api/noToken/increment/project_list': [USDT_90],
      [MY_POS]: [stake()],
      [REDEEM]: refuse('19101', 'This stake has ended'),
    })
    session.signedIn = true
    renderWithApp(<StakingPage />)
    fireEvent.click(await screen.findByTestId('stake-redeem'))
    const ask = await screen.findByTestId('stake-redeem-modal')
    expect(within(ask).getByTestId('stake-redeem-returned').textContent).toContain('99.917809 USDT')
    expect(within(ask).getByTestId('stake-redeem-paid').textContent).toContain('0.082191 USDT')
    expect(within(ask).getByTestId('stake-redeem-unearned').textContent).toContain('2.383539 USDT')
    // A refusal keeps the question open (its toast has the server's words).
    fireEvent.click(within(ask).getByTestId('stake-redeem-confirm'))
    await waitFor(() => expect(sentTo(REDEEM)).toHaveLength(1))
    expect(screen.getByTestId('stake-redeem-modal')).toBeTruthy()
  })

  it('phones (390 px): one card per stake', async () => {
    session.signedIn = true
    screenWidth(390)
    renderWithApp(<StakingPage />)
    const list = await screen.findByTestId('my-stakes')
    expect(list.getAttribute('data-layout')).toBe('cards')
  })

  it('says when the products could not be loaded, with a retry; and when there are no stakes', async () => {
    serve({ '/fe-increment-api/noToken/increment/project_list': refuse('500', 'down'), [MY_POS]: [] })
    session.signedIn = true
    renderWithApp(<StakingPage />)
    expect((await screen.findByTestId('staking-products-error')).textContent).toContain('The products could not be loaded.')
    expect((await screen.findByTestId('my-stakes-empty')).textContent).toContain('You have no stakes yet')
  })
})
