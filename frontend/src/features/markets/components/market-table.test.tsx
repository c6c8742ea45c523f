import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { MarketSocket } from '@/lib/market-socket'
import { renderWithApp } from '@/test/render'
import { fakeMarketSocket } from '@/test/fake-market-socket'
import { MARKET_TICKERS_PATH } from '../api/get-market-tickers'
import { RATES_PATH } from '../api/get-rates'
import { MarketOverview } from './market-overview'

// The market list's figures, sorting and phone layout (market-overview.test.tsx has its tabs, search and favourites).

const apiData = vi.hoisted(() => vi.fn())
const apiPost = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({
  ...(await orig<typeof import('@/lib/request-client')>()),
  apiData,
  apiPost,
}))

const market = {
  coinList: { BTC: { longName: 'Bitcoin' }, ETH: { longName: 'Ethereum' }, TON: { longName: 'Toncoin' }, XRP: { longName: 'XRP' } },
  market: {
    USDT: {
      'BTC/USDT': { name: 'BTC/USDT', sort: 1, pricePrecision: 2 },
      'ETH/USDT': { name: 'ETH/USDT', sort: 2, pricePrecision: 2 },
      'TON/USDT': { name: 'TON/USDT', sort: 3, pricePrecision: 3 },
      'XRP/USDT': { name: 'XRP/USDT', sort: 4, pricePrecision: 4 },
    },
    MNT: { 'USDT/MNT': { name: 'USDT/MNT', sort: 1, pricePrecision: 1 } },
  },
  marketOrder: ['USDT', 'MNT'],
}

/** 24 hourly closes from `from` in steps of `step`, as the server sends them. */
const line = (from: number, step: number) => Array.from({ length: 24 }, (_, i) => String(from + i * step))

const tickers = {
  tickers: {
    btcusdt: { open: '97000.00', high: '98000.00', low: '96500.00', close: '97500.50', vol: '126.6', amount: '12345678.9', rose: '0.005165' },
    ethusdt: { open: '3500.00', high: '3550.00', low: '3390.10', close: '3410.25', vol: '7000', amount: '23876543.21', rose: '-0.025643' },
    tonusdt: { open: '5.200', high: '5.500', low: '5.150', close: '5.417', vol: '100', amount: '541.7', rose: '0.041731' },
    // Listed, never traded.
    xrpusdt: { open: '0.0000', high: '0.0000', low: '0.0000', close: '0.0000', vol: '0', amount: '0', rose: '0' },
    usdtmnt: { open: '3440.0', high: '3452.5', low: '3438.1', close: '3448.3', vol: '1000', amount: '3448300', rose: '0.002413' },
  },
  sparklines: { btcusdt: line(97010, 20), ethusdt: line(3490, -3), tonusdt: line(5.21, 0.009), xrpusdt: [], usdtmnt: line(3441, 0.3) },
}

const rates = {
  en_US: { BTC: '97250.5', USDT: '1', MNT: '0.00028986', lang_logo: '$' },
  mn_MN: { BTC: '335514225', USDT: '3450', MNT: '1', lang_logo: '₮' },
}

const visitor = async () => ({ code: '10002', msg: 'Not signed in', data: null })

function answer(path: string) {
  if (path === MARKET_TICKERS_PATH) return tickers
  if (path === RATES_PATH) return rates
  return market
}

/** The pairs in the order the table shows them. */
const shown = () => screen.getAllByTestId(/^market-row-/).map((r) => r.dataset.testid!.replace('market-row-', ''))
const header = (key: string) => screen.getByTestId(`sort-${key}`).closest('th')!
const cell = (symbol: string, id: string) => within(screen.getByTestId(`market-row-${symbol}`)).getByTestId(id).textContent

async function renderList(socket?: MarketSocket) {
  const view = renderWithApp(<MarketOverview as="page" socket={socket} />)
  await waitFor(() => expect(cell('BTC_USDT', 'market-volume')).toContain('M'))
  await waitFor(() => expect(cell('BTC_USDT', 'market-fiat')).not.toBe('—'))
  return view
}

describe('MarketOverview figures', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiPost.mockReset()
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => answer(path))
  })

  it('shows the last price, its price in dollars, the 24 h change, high, low and volume with their units and places', async () => {
    await renderList()
    const headers = within(screen.getByTestId('market-table')).getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers).toEqual(['Pair', 'Name', 'Last price', 'Price (USD)', '24h change', '24h high', '24h low', '24h volume', '24h trend', 'Action'])
    // At the pair's price places, thousands grouped; the fiat price at 2 places; the volume in its quote coin.
    expect(cell('BTC_USDT', 'market-price')).toContain('97,500.50')
    expect(cell('BTC_USDT', 'market-fiat')).toBe('$97,500.50')
    expect(cell('BTC_USDT', 'market-change')).toBe('+0.52%')
    expect(cell('BTC_USDT', 'market-high')).toBe('98,000.00')
    expect(cell('BTC_USDT', 'market-low')).toBe('96,500.00')
    expect(cell('BTC_USDT', 'market-volume')).toBe('12.35M USDT')
    expect(cell('TON_USDT', 'market-high')).toBe('5.500')
    expect(cell('TON_USDT', 'market-volume')).toBe('541.70 USDT')
    expect(cell('ETH_USDT', 'market-change')).toBe('-2.56%')
    // A pair that never traded shows no figures.
    for (const id of ['market-price', 'market-fiat', 'market-change', 'market-high', 'market-low', 'market-volume']) {
      expect(cell('XRP_USDT', id)).toBe('—')
    }
    // Another quote group: the MNT pair's price in dollars through the MNT rate, to 4 significant digits below $1.
    fireEvent.click(screen.getByTestId('market-tab-MNT'))
    await screen.findByTestId('market-row-USDT_MNT')
    expect(cell('USDT_MNT', 'market-price')).toContain('3,448.3')
    expect(cell('USDT_MNT', 'market-fiat')).toBe('$0.9995')
    expect(cell('USDT_MNT', 'market-volume')).toBe('3.45M MNT')
  })

  it('shows prices in tögrög for a user who chose MNT, and every text in Mongolian', async () => {
    document.cookie = 'user_Currency=MNT; path=/'
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<MarketOverview as="page" />)
    await waitFor(() => expect(cell('BTC_USDT', 'market-fiat')).toBe('₮336,376,725.00'))
    expect(header('fiat').textContent).toBe('Үнэ (MNT)')
    expect(header('volume').textContent).toBe('24ц арилжааны дүн')
    expect(cell('BTC_USDT', 'market-volume')).toBe('12.35 сая USDT')
    // On a phone the price in tögrög stands under the last price.
    expect(cell('BTC_USDT', 'market-price')).toBe('97,500.50₮336,376,725.00')
    expect(screen.getByRole('combobox', { name: 'Эрэмбэлэх' })).toBeTruthy()
  })

  it('draws each trend line from 25 points: the 24 h open and the 24 the server sends', async () => {
    await renderList()
    const points = within(screen.getByTestId('market-row-ETH_USDT')).getByTestId('sparkline').querySelector('polyline')!.getAttribute('points')!.split(' ')
    expect(points.length).toBeGreaterThanOrEqual(24)
    expect(points).toHaveLength(25)
    // Falling: the open at the top, the price now at the bottom, in the colour of the change.
    expect(points[0]).toMatch(/^0,0$/)
    expect(points.at(-1)).toMatch(/,26$/)
    expect(within(screen.getByTestId('market-row-ETH_USDT')).getByTestId('sparkline').getAttribute('data-trend')).toBe('down')
  })
})

describe('MarketOverview sorting', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiPost.mockReset()
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => answer(path))
  })

  const highToLow: Record<string, string[]> = {
    price: ['BTC_USDT', 'ETH_USDT', 'TON_USDT'],
    fiat: ['BTC_USDT', 'ETH_USDT', 'TON_USDT'],
    change: ['TON_USDT', 'BTC_USDT', 'ETH_USDT'],
    high: ['BTC_USDT', 'ETH_USDT', 'TON_USDT'],
    low: ['BTC_USDT', 'ETH_USDT', 'TON_USDT'],
    volume: ['ETH_USDT', 'BTC_USDT', 'TON_USDT'],
  }

  it('sorts by each numeric column from its header: high to low, low to high, then the server order', async () => {
    await renderList()
    expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT', 'XRP_USDT'])
    for (const [key, order] of Object.entries(highToLow)) {
      // The header is a button: keyboard users reach it with Tab and press it with Enter or Space.
      expect(screen.getByTestId(`sort-${key}`).tagName).toBe('BUTTON')
      fireEvent.click(screen.getByTestId(`sort-${key}`))
      expect(shown(), `${key} high to low`).toEqual([...order, 'XRP_USDT'])
      expect(header(key).getAttribute('aria-sort')).toBe('descending')
      // Only the sorted column says so.
      expect(screen.getAllByRole('columnheader').filter((h) => h.hasAttribute('aria-sort'))).toHaveLength(1)
      fireEvent.click(screen.getByTestId(`sort-${key}`))
      // The pair that never traded stays last either way.
      expect(shown(), `${key} low to high`).toEqual([...[...order].reverse(), 'XRP_USDT'])
      expect(header(key).getAttribute('aria-sort')).toBe('ascending')
      fireEvent.click(screen.getByTestId(`sort-${key}`))
      expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT', 'XRP_USDT'])
      expect(header(key).hasAttribute('aria-sort')).toBe(false)
    }
  })

  it('keeps the sort across a search, the favourites star and live prices', async () => {
    const { socket, sockets } = fakeMarketSocket()
    await renderList(socket)
    fireEvent.click(screen.getByTestId('sort-change'))
    expect(shown()).toEqual(['TON_USDT', 'BTC_USDT', 'ETH_USDT', 'XRP_USDT'])
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: 't' } })
    // "t" finds the pairs with T in them, in every group, still by change: USDT/MNT +0.24 % between BTC and ETH.
    await waitFor(() => expect(shown()).toEqual(['TON_USDT', 'BTC_USDT', 'USDT_MNT', 'ETH_USDT', 'XRP_USDT']))
    fireEvent.click(within(screen.getByTestId('market-row-ETH_USDT')).getByTestId('favourite-toggle'))
    expect(within(screen.getByTestId('market-row-ETH_USDT')).getByTestId('favourite-toggle').getAttribute('aria-pressed')).toBe('true')
    expect(header('change').getAttribute('aria-sort')).toBe('descending')
    // A push moves ETH to the top.
    await waitFor(() => expect(sockets).toHaveLength(1))
    act(() => sockets[0].open())
    act(() => sockets[0].push({ channel: 'market_ethusdt_ticker', ts: 1, tick: { open: '3500.00', high: '3900.00', low: '3390.10', close: '3850.00', amount: '25000000', rose: '0.1' } }))
    await waitFor(() => expect(shown()[0]).toBe('ETH_USDT'))
    expect(cell('ETH_USDT', 'market-high')).toBe('3,900.00')
    expect(cell('ETH_USDT', 'market-volume')).toBe('25.00M USDT')
    socket.close()
  })

  it('lets a phone pick the sort from a select and shows the figure it sorts by under the pair', async () => {
    await renderList()
    const select = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement
    expect(select.value).toBe('')
    // Every sortable column, each way, and the server order.
    expect(Array.from(select.options, (o) => o.textContent)).toEqual([
      'Default order',
      'Last price: high to low',
      'Last price: low to high',
      'Price (USD): high to low',
      'Price (USD): low to high',
      '24h change: high to low',
      '24h change: low to high',
      '24h high: high to low',
      '24h high: low to high',
      '24h low: high to low',
      '24h low: low to high',
      '24h volume: high to low',
      '24h volume: low to high',
    ])
    fireEvent.change(select, { target: { value: 'volume:desc' } })
    expect(shown()).toEqual(['ETH_USDT', 'BTC_USDT', 'TON_USDT', 'XRP_USDT'])
    expect(header('volume').getAttribute('aria-sort')).toBe('descending')
    // The volume column is hidden on a phone: the volume stands under the pair instead.
    expect(within(screen.getByTestId('market-row-ETH_USDT')).getByTestId('market-sorted-figure').textContent).toBe('23.88M')
    fireEvent.change(select, { target: { value: 'low:asc' } })
    expect(shown()).toEqual(['TON_USDT', 'ETH_USDT', 'BTC_USDT', 'XRP_USDT'])
    expect(within(screen.getByTestId('market-row-TON_USDT')).getByTestId('market-sorted-figure').textContent).toBe('5.150')
    // The header and the select show the same sort.
    fireEvent.click(screen.getByTestId('sort-change'))
    expect(select.value).toBe('change:desc')
    // The change shows on a phone anyway: no second line.
    expect(screen.queryAllByTestId('market-sorted-figure')).toHaveLength(0)
    fireEvent.change(select, { target: { value: '' } })
    expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT', 'XRP_USDT'])
  })

  it('reads the tickers again once when a pair without a line trades, so its line gets its points', async () => {
    const { socket, sockets } = fakeMarketSocket()
    await renderList(socket)
    await waitFor(() => expect(sockets).toHaveLength(1))
    act(() => sockets[0].open())
    const reads = () => apiData.mock.calls.filter(([path]) => path === MARKET_TICKERS_PATH).length
    const before = reads()
    // BTC/USDT has its line: a push reads nothing.
    act(() => sockets[0].push({ channel: 'market_btcusdt_ticker', ts: 1, tick: { open: '97000.00', close: '97600.00', rose: '0.006186' } }))
    await waitFor(() => expect(cell('BTC_USDT', 'market-change')).toBe('+0.62%'))
    expect(reads()).toBe(before)
    // XRP/USDT trades for the first time: the server now has 24 points for it.
    apiData.mockImplementation(async (path: string) =>
      path === MARKET_TICKERS_PATH
        ? { ...tickers, tickers: { ...tickers.tickers, xrpusdt: { open: '2.3000', high: '2.3200', low: '2.3000', close: '2.3200', amount: '23.2', rose: '0.008696' } }, sparklines: { ...tickers.sparklines, xrpusdt: line(2.3, 0) } }
        : answer(path),
    )
    act(() => sockets[0].push({ channel: 'market_xrpusdt_ticker', ts: 2, tick: { open: '2.3000', close: '2.3200', rose: '0.008696' } }))
    await waitFor(() => expect(reads()).toBe(before + 1))
    await waitFor(() =>
      expect(within(screen.getByTestId('market-row-XRP_USDT')).getByTestId('sparkline').querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(25),
    )
    // Once only.
    act(() => sockets[0].push({ channel: 'market_xrpusdt_ticker', ts: 3, tick: { open: '2.3000', close: '2.3300', rose: '0.013043' } }))
    await waitFor(() => expect(cell('XRP_USDT', 'market-change')).toBe('+1.30%'))
    expect(reads()).toBe(before + 1)
    socket.close()
  })
})
