import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { CrossBalance, IsolatedPair, SpotRow } from '../api/wallet-api'
import { EarnView } from './earn-view'
import { CrossView, isolatedSides, SpotView } from './wallet-views'

const api = vi.hoisted(() => ({
  getRates: vi.fn(),
  getSpotBalances: vi.fn(),
  getCrossBalance: vi.fn(),
  getEarnBalance: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))

const row = (coin: string, over: Partial<SpotRow> = {}): SpotRow => ({
  coin,
  name: coin,
  total: '1',
  normal: '1',
  freeze: '0',
  overcharge_balance: '0',
  valuation: '1',
  btcValuation: '1',
  icon: '',
  longName: coin,
  showName: coin,
  showPrecision: 8,
  mainChainName: coin,
  depositOpen: true,
  withdrawOpen: true,
  isFiat: false,
  ...over,
})

const cross: CrossBalance = {
  coinList: [],
  totalBalance: '0.00000000',
  totalBalanceSymbol: 'BTC',
  netAssetBalance: '0.00000000',
  totalBorrowBalance: '0.00000000',
  totalBalanceFiat: '0.00',
  riskRate: '0',
  remindRiskRate: '1.5',
  lang_logo: '$',
}

/** Every media query matches: Chakra picks its widest breakpoint, so tables show as on a desktop. */
function wideScreen() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: true,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  )
}

describe('wallet views', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getRates.mockResolvedValue({})
    api.getCrossBalance.mockResolvedValue(cross)
    api.getSpotBalances.mockResolvedValue({
      totalBalance: '2',
      totalBalanceSymbol: 'BTC',
      totalValuation: '2',
      currency: 'USD',
      lang_logo: '$',
      coinList: [
        row('BTC'),
        row('ETH', { withdrawOpen: false }),
        row('XRP', { depositOpen: false }),
        row('MNT', { longName: 'Mongolian Tögrög', isFiat: true }),
      ],
    })
  })
  afterEach(() => vi.restoreAllMocks())

  it('cross margin summary: every figure has its unit and never breaks inside a number', async () => {
    renderWithApp(<CrossView hidden={false} openModal={() => {}} />)
    const net = await screen.findByTestId('cross-net')
    expect(net.textContent).toContain('0.00000000 BTC')
    expect(screen.getByTestId('cross-borrowed').textContent).toContain('0.00000000 BTC')
    for (const value of screen.getByTestId('cross-summary').querySelectorAll('[data-figure-value]')) {
      const style = getComputedStyle(value)
      expect(style.overflowWrap).toBe('normal')
      expect(style.wordBreak).toBe('keep-all')
    }
  })

  it('spot actions keep fixed slots when Deposit or Withdraw is not offered, and Trade has the same colour', async () => {
    wideScreen()
    renderWithApp(<SpotView hidden={false} openModal={() => {}} />)
    await screen.findByTestId('spot-table')
    const actions = (coin: string) => {
      const cells = within(screen.getByTestId(`spot-row-${coin}`)).getAllByRole('cell')
      return Array.from(cells.at(-1)!.querySelectorAll('button, a'))
    }
    // Three slots in every row, in the same order.
    for (const coin of ['BTC', 'ETH', 'XRP', 'MNT']) expect(actions(coin)).toHaveLength(3)
    const eth = actions('ETH')
    expect(eth[1].getAttribute('data-testid')).toBe('slot-withdraw-ETH')
    expect(eth[1].getAttribute('aria-hidden')).toBe('true')
    expect(getComputedStyle(eth[1]).visibility).toBe('hidden')
    expect(actions('XRP')[0].getAttribute('data-testid')).toBe('slot-deposit-XRP')
    expect(actions('MNT')[2].getAttribute('data-testid')).toBe('slot-trade-MNT')
    // Placeholders are not reachable.
    expect(within(screen.getByTestId('spot-row-ETH')).queryByRole('button', { name: 'Withdraw' })).toBeNull()

    const [deposit, , trade] = actions('BTC')
    // jsdom resolves no CSS variables: compare the colour palette each one draws with.
    const palette = (el: Element) => getComputedStyle(el).getPropertyValue('--chakra-colors-color-palette-fg')
    expect(palette(deposit)).toBe('var(--chakra-colors-brand-fg)')
    expect(palette(trade)).toBe(palette(deposit))
  })

  it('values each holding through its own coin rate: MNT in MNT is its amount exactly', async () => {
    document.cookie = 'user_Currency=MNT; path=/'
    wideScreen()
    // 1 BTC = 337,771,903 MNT; 1,480,000 MNT valued through BTC would round to 1,479,999.xx.
    api.getRates.mockResolvedValue({ mn_MN: { BTC: '337771903', MNT: '1', lang_logo: '₮' }, en_US: { BTC: '97000', MNT: '0.000287', lang_logo: '$' } })
    api.getSpotBalances.mockResolvedValue({
      totalBalance: '0.00438167',
      totalBalanceSymbol: 'BTC',
      totalValuation: '1480000',
      currency: 'MNT',
      lang_logo: '₮',
      coinList: [row('MNT', { total: '1480000', normal: '1480000', btcValuation: '0.00438166', isFiat: true, showPrecision: 2 })],
    })
    renderWithApp(<SpotView hidden={false} openModal={() => {}} />)
    const mnt = await screen.findByTestId('spot-row-MNT')
    await vi.waitFor(() => expect(mnt.textContent).toContain('≈ ₮1,480,000.00'))
    document.cookie = 'user_Currency=; path=/; max-age=0'
  })

  it('names MNT in the page language (mn_MN: Монгол төгрөг) instead of the server English name', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    wideScreen()
    renderWithApp(<SpotView hidden={false} openModal={() => {}} />)
    const mnt = await screen.findByTestId('spot-row-MNT')
    expect(mnt.textContent).toContain('Монгол төгрөг')
    expect(mnt.textContent).not.toContain('Tögrög')
  })
  it('earn: each coin at its showPrecision (spec §9), cut not rounded; the totals at 8', async () => {
    wideScreen()
    api.getSpotBalances.mockResolvedValue({
      totalBalance: '0', totalBalanceSymbol: 'BTC', totalValuation: '0', currency: 'USD', lang_logo: '$',
      coinList: [row('BTC'), row('USDT', { showPrecision: 6 })],
    })
    api.getEarnBalance.mockResolvedValue({
      totalBalance: '0.01234567', totalBalanceSymbol: 'BTC', totalBalanceFiat: '1000.00', interestSymbol: 'USDT',
      interestYesterday: '0.00000000', interest30days: '0.00000000', lang_logo: '$',
      coinList: [
        { coinSymbol: 'USDT', icon: '', autoStatus: 1, balance: '1000.1234569', yearRate: '5', totalInterest: '0.000000' },
        { coinSymbol: 'BTC', icon: '', autoStatus: 0, balance: '0.01000000', yearRate: '2', totalInterest: '0.00000000' },
      ],
    })
    renderWithApp(<EarnView hidden={false} openModal={() => {}} />)
    const usdt = await screen.findByTestId('earn-balance-USDT')
    expect(usdt.textContent).toBe('1,000.123456')
    expect(screen.getByTestId('earn-interest-USDT').textContent).toBe('0.000000')
    expect(screen.getByTestId('earn-balance-BTC').textContent).toBe('0.01000000')
    expect(screen.getByTestId('earn-view').textContent).toContain('0.01234567 BTC')
    // Savings are live (capabilities.ts): each coin's yearly rate is shown.
    expect(screen.getByTestId('earn-row-USDT').textContent).toContain('5.00%')
    expect(screen.getByTestId('earn-row-BTC').textContent).toContain('2.00%')
  })

  it('earn: each coin offers Subscribe and Redeem (the savings dialogs), and links the savings page', async () => {
    wideScreen()
    api.getSpotBalances.mockResolvedValue({
      totalBalance: '0', totalBalanceSymbol: 'BTC', totalValuation: '0', currency: 'USD', lang_logo: '$',
      coinList: [row('USDT', { showPrecision: 6 })],
    })
    api.getEarnBalance.mockResolvedValue({
      totalBalance: '0', totalBalanceSymbol: 'BTC', totalBalanceFiat: '0', interestSymbol: 'USDT',
      interestYesterday: '0', interest30days: '0', lang_logo: '$',
      coinList: [
        { coinSymbol: 'USDT', icon: '', autoStatus: 1, balance: '10.000000', yearRate: '6.50', totalInterest: '0.000000' },
        { coinSymbol: 'BTC', icon: '', autoStatus: 0, balance: '0.00000000', yearRate: '1.20', totalInterest: '0.00000000' },
      ],
    })
    renderWithApp(<EarnView hidden={false} openModal={() => {}} />)
    const usdt = await screen.findByTestId('earn-subscribe-USDT')
    expect(usdt.textContent).toBe('Subscribe')
    expect((screen.getByTestId('earn-redeem-USDT') as HTMLButtonElement).disabled).toBe(false)
    // Nothing in savings: nothing to redeem.
    expect((screen.getByTestId('earn-redeem-BTC') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('earn-row-USDT').textContent).toContain('On')
    expect(screen.getByTestId('earn-savings-link').getAttribute('href')).toBe('/savings')
    usdt.click()
    expect(await screen.findByTestId('subscribe-modal')).toBeTruthy()
  })

  it('phones: cross margin, OTC, futures and earn list one card per coin (a table hid columns behind a sideways scroll)', async () => {
    api.getCrossBalance.mockResolvedValue({
      ...cross,
      coinList: [
        { coinSymbol: 'USDT', icon: '', totalBalance: '150', normalBalance: '150', lockBalance: '0', borrowBalance: '0', interest: '0', netAssetBalance: '150', u_netAssetBalanceValue: '150', returnPrecision: 4 },
      ],
    })
    renderWithApp(<CrossView hidden={false} openModal={() => {}} />)
    const list = await screen.findByTestId('cross-table')
    expect(list.getAttribute('data-layout')).toBe('cards')
    const card = within(list).getByTestId('cross-row-USDT')
    // Every column is on the card, the net assets too (the last column, off screen in the table).
    expect(card.textContent).toContain('USDT')
    expect(card.textContent).toContain('Net assets150.0000')
    expect(card.textContent).toContain('Interest0.0000')
  })
})

describe('isolatedSides', () => {
  it('gives each side of an isolated pair its interest and net asset besides its balances (spec §3)', () => {
    const pair: IsolatedPair = {
      symbol: 'btcusdt', name: 'BTC/USDT', baseCoin: 'BTC', quoteCoin: 'USDT', riskRate: '0', multiple: 5,
      baseTotalBalance: '1', baseNormalBalance: '0.9', baseBorrowBalance: '0.2', baseInterest: '0.001', baseNetAssetBalance: '0.799',
      quoteTotalBalance: '100', quoteNormalBalance: '90', quoteBorrowBalance: '50', quoteInterest: '0.5', quoteNetAssetBalance: '49.5',
      netAssetBalance: '0', canLiquidate: false,
    }
    const [base, quote] = isolatedSides(pair)
    expect(base).toMatchObject({ side: 'base', coin: 'BTC', borrowed: '0.2', interest: '0.001', net: '0.799' })
    expect(quote).toMatchObject({ side: 'quote', coin: 'USDT', borrowed: '50', interest: '0.5', net: '49.5' })
  })
})
