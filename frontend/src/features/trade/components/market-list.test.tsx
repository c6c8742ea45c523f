import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { PUBLIC_INFO_MARKET_PATH } from '@/features/markets/api/get-market-overview'
import { FAVOURITES_KEY } from '@/lib/storage'
import { fakeMarketSocket } from '@/test/fake-market-socket'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { MarketList } from './market-list'

const apiData = vi.hoisted(() => vi.fn())
const apiPost = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData, apiPost }))
vi.mock('@/lib/notify', () => ({ notifyError: vi.fn(), notifySuccess: vi.fn() }))

const market = {
  coinList: { BTC: { longName: 'Bitcoin' }, ETH: { longName: 'Ethereum' }, TON: { longName: 'Toncoin' }, USDT: { longName: 'Tether USD' } },
  market: {
    USDT: {
      'BTC/USDT': { name: 'BTC/USDT', showName: 'BTC/USDT', sort: 1, pricePrecision: 2 },
      'ETH/USDT': { name: 'ETH/USDT', showName: 'ETH/USDT', sort: 2, pricePrecision: 2 },
      'TON/USDT': { name: 'TON/USDT', showName: 'TON/USDT', sort: 3, pricePrecision: 4 },
    },
    MNT: { 'USDT/MNT': { name: 'USDT/MNT', showName: 'USDT/MNT', sort: 1, pricePrecision: 2 } },
  },
  marketOrder: ['USDT', 'MNT'],
}

const tickers = {
  tickers: {
    btcusdt: { open: '97000', close: '97500.5', rose: '0.005165' },
    ethusdt: { open: '3000', close: '2950', rose: '-0.016667' },
    tonusdt: { open: '5.4', close: '5.35', rose: '-0.009259' },
    usdtmnt: { open: '3450', close: '3455', rose: '0.00145' },
  },
  sparklines: {},
}

const visitor = async () => ({ code: '10002', msg: 'Not signed in', data: null })

/** The shown rows' symbols, top to bottom. */
const shown = () => screen.queryAllByTestId('market-list-row').map((r) => r.getAttribute('data-symbol'))
const row = (symbol: string) => screen.getAllByTestId('market-list-row').find((r) => r.getAttribute('data-symbol') === symbol)!

function renderList(props: { onChosen?: (s: string) => void } = {}) {
  const { socket, sockets } = fakeMarketSocket()
  const result = renderWithApp(<MarketList pair={BTC_USDT} socket={socket} {...props} />, { path: '/trade/BTC_USDT' })
  return { ...result, socket, sockets }
}

describe('MarketList', () => {
  beforeEach(() => {
    localStorage.clear()
    apiData.mockReset()
    apiPost.mockReset()
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
  })

  it("opens on the shown pair's quote coin, marks its row and shows live prices and coloured changes", async () => {
    renderList()
    await waitFor(() => expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT']))
    expect(row('BTC_USDT').getAttribute('aria-current')).toBe('true')
    expect(row('ETH_USDT').hasAttribute('aria-current')).toBe(false)
    expect(screen.getByTestId('market-list-tab-USDT').getAttribute('aria-selected')).toBe('true')
    await waitFor(() => expect(row('BTC_USDT').textContent).toContain('97,500.50'))
    expect(within(row('BTC_USDT')).getByTestId('market-list-change').textContent).toBe('+0.52%')
    expect(within(row('ETH_USDT')).getByTestId('market-list-change').textContent).toBe('-1.67%')
    expect(within(row('TON_USDT')).getByTestId('market-list-price').textContent).toBe('5.3500')
  })

  it('follows the pushed tickers of the shown pairs', async () => {
    const { sockets, socket } = renderList()
    await waitFor(() => expect(row('BTC_USDT').textContent).toContain('97,500.50'))
    await waitFor(() => expect(sockets).toHaveLength(1))
    act(() => sockets[0].open())
    expect(sockets[0].sent).toContainEqual({ event: 'sub', params: { channel: 'market_ethusdt_ticker' } })
    act(() => sockets[0].push({ channel: 'market_btcusdt_ticker', ts: 1, tick: { close: '98765.432', rose: '-0.0123' } }))
    await waitFor(() => expect(row('BTC_USDT').textContent).toContain('98,765.43'))
    expect(within(row('BTC_USDT')).getByTestId('market-list-change').textContent).toBe('-1.23%')
    socket.close()
  })

  it('searches by coin, through every quote group, and says when nothing matches', async () => {
    renderList()
    await waitFor(() => expect(shown()).toHaveLength(3))
    const search = screen.getByTestId('market-list-search')
    fireEvent.change(search, { target: { value: 'ton' } })
    expect(shown()).toEqual(['TON_USDT'])
    // A coin's name from the start of a word, as the markets page: "teth" finds Tether's USDT/MNT of the MNT group.
    fireEvent.change(search, { target: { value: 'teth' } })
    expect(shown()).toEqual(['USDT_MNT'])
    fireEvent.change(search, { target: { value: 'doge' } })
    expect(shown()).toEqual([])
    expect(screen.getByTestId('market-list-empty').textContent).toBe('No pairs match “doge”.')
    fireEvent.change(search, { target: { value: '' } })
    expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT'])
  })

  it('has a Favourites tab, then the quote coins', async () => {
    renderList()
    await waitFor(() => expect(shown()).toHaveLength(3))
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent)
    expect(tabs).toEqual(['Favourites', 'USDT', 'MNT'])
    fireEvent.click(screen.getByTestId('market-list-tab-MNT'))
    await waitFor(() => expect(shown()).toEqual(['USDT_MNT']))
    fireEvent.click(screen.getByTestId('market-list-tab-favourites'))
    await waitFor(() => expect(screen.getByTestId('market-list-empty').textContent).toContain('No favourites yet'))
  })

  it("stars a pair in the markets page's favourites, without opening it", async () => {
    const { router } = renderList()
    await waitFor(() => expect(shown()).toHaveLength(3))
    const star = within(row('ETH_USDT')).getByTestId('market-list-star')
    expect(star.getAttribute('aria-pressed')).toBe('false')
    expect(star.getAttribute('aria-label')).toBe('Add ETH/USDT to favourites')
    fireEvent.click(star)
    await waitFor(() => expect(within(row('ETH_USDT')).getByTestId('market-list-star').getAttribute('aria-pressed')).toBe('true'))
    expect(within(row('ETH_USDT')).getByTestId('market-list-star').getAttribute('aria-label')).toBe('Remove ETH/USDT from favourites')
    // The same storage the markets page reads.
    expect(JSON.parse(localStorage.getItem(FAVOURITES_KEY) ?? '[]')).toEqual(['ETH_USDT'])
    expect(router.state.location.pathname).toBe('/trade/BTC_USDT')
    fireEvent.click(screen.getByTestId('market-list-tab-favourites'))
    await waitFor(() => expect(shown()).toEqual(['ETH_USDT']))
    // Unstarred there, it leaves the tab.
    fireEvent.click(within(row('ETH_USDT')).getByTestId('market-list-star'))
    await waitFor(() => expect(shown()).toEqual([]))
    expect(JSON.parse(localStorage.getItem(FAVOURITES_KEY) ?? '[]')).toEqual([])
  })

  it('sorts by pair, price and change from the column headers', async () => {
    renderList()
    await waitFor(() => expect(row('BTC_USDT').textContent).toContain('97,500.50'))
    const header = (id: string) => screen.getByTestId(id).closest('th')!
    fireEvent.click(screen.getByTestId('market-list-sort-price'))
    expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT'])
    expect(header('market-list-sort-price').getAttribute('aria-sort')).toBe('descending')
    fireEvent.click(screen.getByTestId('market-list-sort-price'))
    expect(shown()).toEqual(['TON_USDT', 'ETH_USDT', 'BTC_USDT'])
    expect(header('market-list-sort-price').getAttribute('aria-sort')).toBe('ascending')
    fireEvent.click(screen.getByTestId('market-list-sort-change'))
    expect(shown()).toEqual(['BTC_USDT', 'TON_USDT', 'ETH_USDT'])
    expect(header('market-list-sort-change').getAttribute('aria-sort')).toBe('descending')
    expect(header('market-list-sort-price').hasAttribute('aria-sort')).toBe(false)
    fireEvent.click(screen.getByTestId('market-list-sort-pair'))
    expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT'])
    expect(header('market-list-sort-pair').getAttribute('aria-sort')).toBe('ascending')
    fireEvent.click(screen.getByTestId('market-list-sort-pair'))
    expect(shown()).toEqual(['TON_USDT', 'ETH_USDT', 'BTC_USDT'])
    expect(header('market-list-sort-pair').getAttribute('aria-sort')).toBe('descending')
  })

  it('switches the pair when a row is clicked, or on Enter, without a page load', async () => {
    const onChosen = vi.fn()
    const { router } = renderList({ onChosen })
    await waitFor(() => expect(shown()).toHaveLength(3))
    fireEvent.click(within(row('TON_USDT')).getByText('TON'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade/TON_USDT'))
    expect(onChosen).toHaveBeenCalledWith('TON_USDT')
    // The rows are in the tab order and operable from the keyboard.
    const eth = row('ETH_USDT')
    expect(eth.tabIndex).toBe(0)
    eth.focus()
    fireEvent.keyDown(eth, { key: 'Enter' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade/ETH_USDT'))
    expect(onChosen).toHaveBeenCalledWith('ETH_USDT')
    // Enter on the star toggles it (its own button) and does not open the pair.
    const star = within(row('BTC_USDT')).getByTestId('market-list-star')
    fireEvent.keyDown(star, { key: 'Enter' })
    expect(router.state.location.pathname).toBe('/trade/ETH_USDT')
  })

  it('moves between the rows with the arrow keys', async () => {
    renderList()
    await waitFor(() => expect(shown()).toHaveLength(3))
    row('BTC_USDT').focus()
    fireEvent.keyDown(row('BTC_USDT'), { key: 'ArrowDown' })
    expect(document.activeElement).toBe(row('ETH_USDT'))
    fireEvent.keyDown(row('ETH_USDT'), { key: 'ArrowUp' })
    expect(document.activeElement).toBe(row('BTC_USDT'))
  })

  it('shows a skeleton while loading and a retry when the market cannot be read', async () => {
    let fail = true
    apiData.mockImplementation(async (path: string) => {
      if (path === PUBLIC_INFO_MARKET_PATH && fail) throw new Error('down')
      return path.endsWith('/market/tickers') ? tickers : market
    })
    renderList()
    expect(await screen.findByTestId('market-list-loading')).toBeTruthy()
    // The overview retries once before it gives up.
    await screen.findByTestId('market-list-error', {}, { timeout: 5000 })
    fail = false
    fireEvent.click(screen.getByTestId('market-list-retry'))
    await waitFor(() => expect(shown()).toEqual(['BTC_USDT', 'ETH_USDT', 'TON_USDT']))
  })
})
