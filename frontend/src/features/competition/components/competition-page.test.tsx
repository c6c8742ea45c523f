import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
// The futures tests' stand-in for the exchange (aws-amplify's post): the competition is served by the futures service.
import { answer, refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { Competition, Condition, RankRow, UserRank } from '../api/competition-api'
import { competitionTexts } from '../lib/texts'
import { CompetitionPage } from './competition-page'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)
const session = vi.hoisted(() => ({ signedIn: false }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () =>
    session.signedIn
      ? { user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }
      : { user: null, isSignedIn: false, isLoading: false, refetch: vi.fn() },
}))

const API = '/fe-co-api'
const now = Date.now()
const HOUR = 3_600_000

const RUNNING: Competition = {
  competitionId: 'spring-2025',
  name: 'Spring futures cup',
  description: 'Trade USDT-M perpetuals for a share of the pool.',
  names: { en_US: 'Spring futures cup', mn_MN: 'Хаврын фьючерс цом' },
  descriptions: {},
  startTime: now - 24 * HOUR,
  endTime: now + 2 * 24 * HOUR + 3 * HOUR + 4 * 60_000 + 30_000,
  coin: 'USDT',
  prizes: [
    { rankFrom: 1, rankTo: 1, amount: '5000' },
    { rankFrom: 2, rankTo: 3, amount: '2000' },
    { rankFrom: 4, rankTo: 10, amount: '100' },
  ],
  prizePool: '9700',
  rules: { kycLevel: 1, mobile: true, minBalance: '100', futuresAccount: true },
  state: 'running',
  participants: 1234,
  refreshedAt: now - 30_000,
  settledAt: 0,
  serverTime: now,
  signedIn: false,
  joined: false,
}

const TOP: RankRow[] = [
  { rank: 1, nickName: 'a***e', roi: '152.35', profit: '15235.10', prize: '5000' },
  { rank: 2, nickName: 'Б***д', roi: '98.10', profit: '981.00', prize: '2000' },
  { rank: 3, nickName: 'x***', roi: '-2.5', profit: '-25.00', prize: '2000' },
]

const RANKS = { count: 45, page: 1, pageSize: 20, list: [...TOP, { rank: 4, nickName: 'z***z', roi: '', profit: '0.00', prize: '100' }], refreshedAt: now - 30_000 }

const UNMET: Condition = {
  competitionId: 'spring-2025',
  state: 'running',
  kyc: { required: true, met: false },
  mobile: { required: true, met: true },
  funds: { required: true, met: false, min: '100', balance: '40.5', coin: 'USDT' },
  futuresAccount: { required: true, met: true },
  joined: false,
  canJoin: false,
}
const MET: Condition = { ...UNMET, kyc: { required: true, met: true }, funds: { ...UNMET.funds, met: true, balance: '250' }, canJoin: true }

const JOINED: UserRank = {
  competitionId: 'spring-2025',
  joined: true,
  joinedAt: now,
  nickName: 'saraa',
  rank: 0,
  roi: '',
  profit: '0.00',
  equity: '250.00',
  initialEquity: '250.00',
  netTransferIn: '0.00',
  prize: '',
  prizePaid: false,
  refreshedAt: now - 30_000,
}

function routes(over: Record<string, unknown> = {}) {
  return {
    [`${API}/common/get_current_competition`]: RUNNING,
    [`${API}/common/competition_detail`]: RUNNING,
    [`${API}/common/competition_top`]: TOP,
    [`${API}/common/competition_rank_web`]: RANKS,
    [`${API}/get_user_condition`]: UNMET,
    [`${API}/user_rank`]: { ...JOINED, joined: false, nickName: '', equity: '', initialEquity: '' },
    ...over,
  }
}

function renderPage() {
  return renderWithApp(
    <>
      <CompetitionPage />
      <Toaster />
    </>,
    { path: '/futureBonus' },
  )
}

beforeAll(async () => {
  await competitionTexts.load('en-US')
})

beforeEach(() => {
  session.signedIn = false
  screenWidth(1440)
  serve(routes())
})

afterEach(() => {
  act(() => toaster.remove())
})

describe('CompetitionPage', () => {
  it('says when there is no competition', async () => {
    serve(routes({ [`${API}/common/get_current_competition`]: null }))
    renderPage()
    const empty = await screen.findByTestId('competition-empty')
    expect(within(empty).getByRole('heading', { level: 1, name: 'No competition right now' })).toBeTruthy()
    expect(within(empty).getByRole('link', { name: 'Trade futures' }).getAttribute('href')).toBe('/futures/BTCUSDT')
    expect(sentTo(`${API}/common/competition_detail`)).toHaveLength(0)
  })

  it('shows a running competition to a visitor: period and countdown, prizes, the top three and the ranking, and the rules with a log-in', async () => {
    renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring futures cup' })).toBeTruthy()
    expect(screen.getByTestId('competition-state').textContent).toBe('Running')
    expect(screen.getByTestId('competition-countdown').textContent).toMatch(/^2d 03:04:(2\d|30)$/)
    expect(screen.getByTestId('competition-participants').textContent).toBe('1,234')
    // The current competition's answer is its detail: not asked again.
    expect(sentTo(`${API}/common/competition_detail`)).toHaveLength(0)

    const prizes = screen.getByTestId('competition-prizes')
    expect(within(prizes).getByTestId('competition-pool').textContent).toBe('Pool: 9,700.00 USDT')
    expect(within(prizes).getAllByTestId('competition-prize-row').map((r) => r.textContent)).toEqual(['15,000.00 USDT', '2–32,000.00 USDT', '4–10100.00 USDT'])

    const top = await screen.findByTestId('competition-top')
    expect(within(top).getAllByTestId('competition-top-row')).toHaveLength(3)
    expect(sentTo(`${API}/common/competition_top`)[0]).toMatchObject({ competitionId: 'spring-2025', limit: 3 })

    const rows = await screen.findAllByTestId('competition-rank-row')
    expect(rows).toHaveLength(4)
    expect(within(rows[0]).getByTestId('rank-nick').textContent).toBe('a***e')
    expect(within(rows[0]).getByTestId('rank-roi').textContent).toBe('+152.35%')
    expect(within(rows[0]).getByTestId('rank-profit').textContent).toBe('+15,235.10 USDT')
    expect(within(rows[0]).getByTestId('rank-prize').textContent).toBe('5,000.00 USDT')
    expect(within(rows[2]).getByTestId('rank-roi').textContent).toBe('-2.50%')
    expect(within(rows[3]).getByTestId('rank-roi').textContent).toBe('—')
    expect(sentTo(`${API}/common/competition_rank_web`)[0]).toMatchObject({ competitionId: 'spring-2025', page: 1, pageSize: 20 })
    // 45 ranks: three pages of 20.
    fireEvent.click(within(screen.getByTestId('competition-ranking-pager')).getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(sentTo(`${API}/common/competition_rank_web`).at(-1)).toMatchObject({ page: 2 }))

    const join = screen.getByTestId('competition-join-card')
    const rules = within(join).getAllByRole('listitem').map((li) => li.textContent)
    expect(rules).toEqual(['A verified identity', 'A bound mobile number', 'An opened futures account', 'At least 100.00 USDT in the futures account'])
    expect(within(join).getByRole('link', { name: 'Log in to join' }).getAttribute('href')).toBe('/auth/login?redirect=%2FfutureBonus')
    expect(sentTo(`${API}/get_user_condition`)).toHaveLength(0)
  })

  it('keeps Join off while a rule is not met, and says which with where to meet it', async () => {
    session.signedIn = true
    renderPage()
    const join = await screen.findByTestId('competition-join-card')
    await waitFor(() => expect(within(join).getByTestId('competition-rule-kyc').getAttribute('data-met')).toBe('false'))
    expect(sentTo(`${API}/get_user_condition`)[0]).toMatchObject({ competitionId: 'spring-2025' })
    expect(within(join).getByTestId('competition-rule-mobile').getAttribute('data-met')).toBe('true')
    expect(within(join).getByTestId('competition-rule-funds').textContent).toContain('At least 100.00 USDT in the futures account (you have 40.50 USDT)')
    expect(within(join).getByRole('link', { name: 'Verify your identity' }).getAttribute('href')).toBe('/profile/identity')
    expect(within(join).getByRole('link', { name: 'Transfer USDT to the futures account' }).getAttribute('href')).toBe('/wallet?modal=transfer&account=futures&coin=USDT')
    expect(within(join).queryByTestId('competition-fix-mobile')).toBeNull()
    expect(within(join).getByTestId('competition-rules-summary').textContent).toBe('2 not met')
    const button = within(join).getByTestId('competition-join') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(within(join).getByTestId('competition-join-why').textContent).toBe('Meet the rules above to join: 2 not met yet.')
    expect(button.getAttribute('aria-describedby')).toBe('competition-join-why')
    fireEvent.click(button)
    expect(sentTo(`${API}/join_competition`)).toHaveLength(0)
  })

  it('joins when every rule is met, and then shows the caller\'s rank', async () => {
    session.signedIn = true
    serve(routes({ [`${API}/get_user_condition`]: MET, [`${API}/join_competition`]: JOINED }))
    renderPage()
    const join = await screen.findByTestId('competition-join-card')
    await waitFor(() => expect((within(join).getByTestId('competition-join') as HTMLButtonElement).disabled).toBe(false))
    expect(within(join).getByTestId('competition-rules-summary').textContent).toBe('All rules met')
    answer({ [`${API}/get_user_condition`]: { ...MET, joined: true, canJoin: false }, [`${API}/user_rank`]: JOINED })
    fireEvent.click(within(join).getByTestId('competition-join'))
    await waitFor(() => expect(sentTo(`${API}/join_competition`)).toEqual([expect.objectContaining({ competitionId: 'spring-2025' })]))
    expect(await screen.findByText('You have joined the competition. Good luck!')).toBeTruthy()
    const mine = await screen.findByTestId('competition-my-rank')
    expect(within(mine).getByText('s***a')).toBeTruthy()
    expect(within(mine).getByTestId('competition-my-rank-no').textContent).toBe('—')
    expect(within(mine).getByTestId('competition-my-initial').textContent).toBe('250.00 USDT')
    expect(within(join).getByTestId('competition-joined').textContent).toBe('You have joined this competition')
  })

  it("shows the server's words when it refuses the join", async () => {
    session.signedIn = true
    serve(routes({ [`${API}/get_user_condition`]: MET, [`${API}/join_competition`]: refuse('40104', 'Your futures margin balance is below 100 USDT') }))
    renderPage()
    const join = await screen.findByTestId('competition-join-card')
    await waitFor(() => expect((within(join).getByTestId('competition-join') as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(within(join).getByTestId('competition-join'))
    expect(await screen.findByText('Your futures margin balance is below 100 USDT')).toBeTruthy()
    expect(screen.queryByTestId('competition-my-rank')).toBeNull()
  })

  it('counts down to the start of an upcoming one, when joining opens; and reads the one the address names', async () => {
    session.signedIn = true
    const upcoming = { ...RUNNING, competitionId: 'summer-2025', state: 'upcoming' as const, startTime: now + 5 * HOUR, endTime: now + 100 * HOUR }
    serve(routes({ [`${API}/common/competition_detail`]: upcoming, [`${API}/get_user_condition`]: { ...MET, state: 'upcoming', canJoin: false }, [`${API}/common/competition_rank_web`]: { ...RANKS, count: 0, list: [] }, [`${API}/common/competition_top`]: [] }))
    renderWithApp(<CompetitionPage />, { path: '/futureBonus?id=summer-2025' })
    expect(await screen.findByTestId('competition-state')).toBeTruthy()
    expect(screen.getByTestId('competition-state').textContent).toBe('Upcoming')
    expect(sentTo(`${API}/common/competition_detail`)[0]).toMatchObject({ competitionId: 'summer-2025' })
    expect(sentTo(`${API}/common/get_current_competition`)).toHaveLength(0)
    expect(screen.getByText('Starts in')).toBeTruthy()
    expect(screen.getByTestId('competition-countdown').textContent).toMatch(/^0[45]:\d\d:\d\d$/)
    const join = screen.getByTestId('competition-join-card')
    await waitFor(() => expect(within(join).getByTestId('competition-join-why').textContent).toBe('Joining opens when the competition starts.'))
    expect((within(join).getByTestId('competition-join') as HTMLButtonElement).disabled).toBe(true)
    expect((await screen.findByTestId('competition-ranking-empty')).textContent).toBe('The ranking starts with the competition')
  })
})
