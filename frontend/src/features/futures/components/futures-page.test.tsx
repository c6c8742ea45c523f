import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeCharts } from '@/features/trade/components/chart/lightweight-charts.mock'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import { futuresTexts } from '../lib/texts'
import { MARKET, PUBLIC_INFO } from '../test-fixtures'
import { sentTo, serve } from '../test-server'
import { FuturesPage } from './futures-page'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
vi.mock('lightweight-charts', () => import('@/features/trade/components/chart/lightweight-charts.mock'))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: null, isSignedIn: false, isLoading: false, refetch: vi.fn() }),
}))

const now = Date.now()
const market = { ...MARKET, nextFundingTime: now + 3_600_000 }

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  fakeCharts.reset()
  serve({
    '/fe-co-api/common/public_info': { ...PUBLIC_INFO, serverTime: now },
    '/fe-co-api/common/public_market_info': market,
    '/fe-co-api/common/price_list': [market, { ...market, symbol: 'ETHUSDT', lastPrice: '3000.00' }],
    '/fe-co-api/market/ticker': (b: Record<string, unknown>) =>
      b.symbol === 'btcusdtperp'
        ? { open: '49000.0', high: '51000.0', low: '48000.0', close: '50000.0', vol: '12.345', amount: '617250.5', rose: '0.0204' }
        : { open: '3100', high: '3200', low: '2900', close: '3000.00', vol: '100', amount: '300000', rose: '-0.0322' },
    '/fe-co-api/market/depth': { asks: [['50010.0', '0.250'], ['50020.0', '1.000']], buys: [['49990.0', '0.500'], ['49980.0', '2.000']] },
    '/fe-co-api/market/trades': [{ id: 't1', side: 'BUY', price: '50000.0', vol: '0.012', ts: now }],
    '/fe-co-api/market/kline': [
      { id: 1_700_000_000, open: '49900', high: '50100', low: '49800', close: '50000', vol: '1.5' },
      { id: 1_700_000_900, open: '50000', high: '50200', low: '49950', close: '50050', vol: '2' },
    ],
    '/fe-co-api/common/get_ladder_info': [],
  })
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('FuturesPage on a desktop', () => {
  beforeEach(() => screenWidth(1440))

  it("shows the contract's prices, funding countdown and open interest, and the price in the tab's title", async () => {
    renderWithApp(<FuturesPage symbol="BTCUSDT" />)
    const header = await screen.findByTestId('futures-header')
    await waitFor(() => expect(within(header).getByTestId('futures-last-price').textContent).toBe('50,000.0'))
    await waitFor(() => expect(within(header).getByTestId('futures-mark-price').textContent).toBe('50,010.0'))
    expect(within(header).getByTestId('futures-index-price').textContent).toBe('50,005.0')
    expect(within(header).getByTestId('futures-funding-rate').textContent).toBe('0.0100%')
    expect(within(header).getByTestId('funding-countdown').textContent).toMatch(/^(01:00:00|00:59:5\d)$/)
    expect(within(header).getByTestId('futures-change').textContent).toBe('+2.04%')
    expect(within(header).getByTestId('futures-open-interest').textContent).toBe('1,234 Cont')
    await waitFor(() => expect(document.title).toBe('50,000.0 | BTCUSDT | Tenger'))
    expect(screen.getByRole('heading', { level: 1, name: 'BTCUSDT perpetual futures' })).toBeTruthy()
  })

  it("reads the book, trades and candles of the contract's market symbol from the futures service, with the mark price on the chart", async () => {
    renderWithApp(<FuturesPage symbol="BTCUSDT" />)
    await screen.findAllByTestId('book-buy')
    expect(sentTo('/fe-co-api/market/depth')[0]).toMatchObject({ symbol: 'btcusdtperp', step: 0 })
    expect(sentTo('/fe-ex-api/market/depth')).toHaveLength(0)
    await screen.findByTestId('market-trade')
    expect(sentTo('/fe-co-api/market/trades')[0]).toMatchObject({ symbol: 'btcusdtperp' })
    await waitFor(() => expect(sentTo('/fe-co-api/market/kline')[0]).toMatchObject({ symbol: 'btcusdtperp', period: '15min' }))
    await waitFor(() => expect(fakeCharts.all.length).toBeGreaterThan(0))
    await waitFor(() => expect(fakeCharts.last().main().priceLines.map((l) => l.options)).toContainEqual(expect.objectContaining({ title: 'Mark', price: 50010 })))
  })

  it('lists every contract with its last price and 24 h change in the picker', async () => {
    renderWithApp(<FuturesPage symbol="BTCUSDT" />)
    fireEvent.click(await screen.findByTestId('contract-select'))
    const popover = await screen.findByTestId('contract-popover')
    await waitFor(() => expect(within(popover).getAllByTestId('contract-row')).toHaveLength(2))
    const [btc, eth] = within(popover).getAllByTestId('contract-row')
    expect(btc.getAttribute('aria-current')).toBe('true')
    expect(eth.getAttribute('href')).toBe('/futures/ETHUSDT')
    await waitFor(() => expect(eth.textContent).toBe('ETHUSDTPerp3,000.00-3.22%'))
  })

  it('fills the form with a price picked in the book, and asks visitors to log in', async () => {
    renderWithApp(<FuturesPage symbol="BTCUSDT" />)
    const [level] = await screen.findAllByTestId('book-buy')
    fireEvent.click(level)
    await waitFor(() => expect((screen.getByTestId('futures-price') as HTMLInputElement).value).toBe('49990.0'))
    expect(screen.getByTestId('futures-signin')).toBeTruthy()
    expect(screen.getByTestId('futures-panel-signin')).toBeTruthy()
  })

  it('says when the contract does not exist', async () => {
    renderWithApp(<FuturesPage symbol="XRPUSDT" />)
    const missing = await screen.findByTestId('futures-not-found')
    expect(within(missing).getByRole('link', { name: 'Go to BTCUSDT' }).getAttribute('href')).toBe('/futures/BTCUSDT')
  })
})

describe('FuturesPage on a phone', () => {
  beforeEach(() => screenWidth(390))

  it('stacks the header, the chart, book and trades tabs and the positions, with a Buy/Long and Sell/Short bar that opens the form', async () => {
    renderWithApp(<FuturesPage symbol="BTCUSDT" />)
    const page = await screen.findByTestId('futures-mobile')
    const order = ['futures-header', 'futures-mobile-tab-chart', 'futures-positions-panel', 'futures-mobile-bar'].map((id) => within(page).getByTestId(id))
    for (let i = 1; i < order.length; i++) expect(order[i - 1].compareDocumentPosition(order[i]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(screen.queryByTestId('futures-order-form')).toBeNull()
    fireEvent.click(within(screen.getByTestId('futures-mobile-bar')).getByRole('button', { name: 'Sell / Short' }))
    const sheet = await screen.findByTestId('futures-order-sheet')
    expect(within(sheet).getByTestId('futures-order-form')).toBeTruthy()
    // The sheet places the side it was opened for, and can switch to the other.
    expect(within(sheet).getByTestId('futures-side-sell').getAttribute('aria-pressed')).toBe('true')
    expect(within(sheet).queryByTestId('futures-submit-buy')).toBeNull()
    fireEvent.click(within(sheet).getByRole('button', { name: 'Buy / Long' }))
    expect(within(sheet).getByTestId('futures-side-buy').getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(screen.getByTestId('futures-mobile-tab-book'))
    expect(await screen.findByTestId('order-book')).toBeTruthy()
  })
})
