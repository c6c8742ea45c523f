import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MarketMessage } from '@/lib/market-socket'
import { fakeMarketSocket } from '@/test/fake-market-socket'
import { renderWithApp } from '@/test/render'
import type { TradePair } from '../api/trade-api'
import { BTC_USDT } from '../test-pair'
import { TradeHeader } from './trade-header'
import { screenWidth } from '@/test/screen-width'

const apiData = vi.hoisted(() => vi.fn())
const apiPost = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData, apiPost }))
// The header's own ticker channel: the test pushes through the handler it registers.
const channel = vi.hoisted(() => ({ handlers: {} as Record<string, (m: MarketMessage) => void> }))
vi.mock('../api/use-market-channel', () => ({
  useMarketChannel: (name: string, handler: (m: MarketMessage) => void) => {
    channel.handlers[name] = handler
  },
}))
// The market list's socket: a fake one, never a real connection.
const socket = vi.hoisted(() => ({ current: undefined as ReturnType<typeof import('@/test/fake-market-socket').fakeMarketSocket>['socket'] | undefined }))
vi.mock('@/lib/market-socket', async (orig) => ({
  ...(await orig<typeof import('@/lib/market-socket')>()),
  getMarketSocket: () => socket.current!,
}))

// The coin list's places: USDT 6, MNT 2 (a BTC/MNT price has none).
const btcUsdt: TradePair = { ...BTC_USDT, quotePlaces: 6 }
const btcMnt: TradePair = { ...BTC_USDT, symbol: 'btcmnt', routeSymbol: 'BTC_MNT', showName: 'BTC/MNT', quote: 'MNT', pricePrecision: 0, priceTick: '1', quotePlaces: 2 }

let amount = '0'

const market = {
  coinList: { BTC: { longName: 'Bitcoin' }, ETH: { longName: 'Ethereum' } },
  market: {
    USDT: {
      'BTC/USDT': { name: 'BTC/USDT', showName: 'BTC/USDT', sort: 1, pricePrecision: 2 },
      'ETH/USDT': { name: 'ETH/USDT', showName: 'ETH/USDT', sort: 2, pricePrecision: 2 },
    },
  },
}

describe('TradeHeader', () => {
  beforeEach(() => {
    socket.current = fakeMarketSocket().socket
    channel.handlers = {}
    apiData.mockReset()
    apiPost.mockReset()
    apiPost.mockImplementation(async () => ({ code: '10002', msg: 'Not signed in', data: null }))
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/market/ticker')) return { open: '96000', high: '98272.44', low: '96383.39', close: '96535.83', vol: '0.037738', amount, rose: '-0.009' }
      if (path.endsWith('/public_info_market')) return market
      if (path.endsWith('/market/tickers')) return { tickers: { btcusdt: { open: '1', close: '96535.83', rose: '0.01' }, ethusdt: { open: '1', close: '2950', rose: '-0.02' } } }
      return {}
    })
  })
  afterEach(() => {
    vi.restoreAllMocks()
    socket.current?.close()
    document.title = ''
  })

  it('switches the pair from the market list in a popover on desktop', async () => {
    screenWidth(1440)
    const { router } = renderWithApp(<TradeHeader pair={btcUsdt} />, { path: '/trade/BTC_USDT' })
    const button = await screen.findByTestId('pair-select')
    expect(button.textContent).toBe('BTC/USDT')
    expect(button.getAttribute('aria-label')).toBe('BTC/USDT: switch trading pair')
    expect(screen.queryByTestId('market-list')).toBeNull()
    fireEvent.click(button)
    const popover = await screen.findByTestId('pair-popover')
    const list = within(popover).getByTestId('market-list')
    // The popover's own search takes the focus, ready for typing.
    await waitFor(() => expect(document.activeElement).toBe(within(list).getByTestId('market-list-search')))
    await waitFor(() => expect(within(list).getAllByTestId('market-list-row')).toHaveLength(2))
    const rows = within(list).getAllByTestId('market-list-row')
    expect(rows[0].getAttribute('aria-current')).toBe('true')
    fireEvent.click(within(rows[1]).getByText('ETH'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade/ETH_USDT'))
    // Chosen: the popover closes.
    await waitFor(() => expect(screen.queryByTestId('market-list')).toBeNull())
  })

  it('opens the market list in a bottom sheet on a phone', async () => {
    const { router } = renderWithApp(<TradeHeader pair={btcUsdt} />, { path: '/trade/BTC_USDT' })
    fireEvent.click(await screen.findByTestId('pair-select'))
    const sheet = await screen.findByTestId('pair-sheet')
    expect(within(sheet).getByText('Markets')).toBeTruthy()
    await waitFor(() => expect(within(sheet).getAllByTestId('market-list-row')).toHaveLength(2))
    const eth = within(sheet).getAllByTestId('market-list-row')[1]
    eth.focus()
    fireEvent.keyDown(eth, { key: 'Enter' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade/ETH_USDT'))
    await waitFor(() => expect(screen.queryByTestId('market-list')).toBeNull())
  })

  it("shows the live price in the tab's title and gives the page's title back when left", async () => {
    document.title = 'Spot trading | Tenger Exchange'
    const { unmount } = renderWithApp(<TradeHeader pair={btcUsdt} />, { path: '/trade/BTC_USDT' })
    await waitFor(() => expect(document.title).toBe('96,535.83 | BTC/USDT | Tenger'))
    act(() => channel.handlers.market_btcusdt_ticker({ channel: 'market_btcusdt_ticker', tick: { close: '97000.1', rose: '0.01' } }))
    await waitFor(() => expect(document.title).toBe('97,000.10 | BTC/USDT | Tenger'))
    expect(screen.getByTestId('last-price').textContent).toBe('97,000.10')
    unmount()
    expect(document.title).toBe('Spot trading | Tenger Exchange')
  })

  it.each([
    ['BTC/USDT at the 6 places of USDT', btcUsdt, '3676.821234', '3,676.821234'],
    ['BTC/MNT at the 2 places of MNT, not the price\'s none', btcMnt, '3010284.187', '3,010,284.19'],
    ['a pair whose coin places are not known at its price\'s', { ...btcUsdt, quotePlaces: undefined }, '3676.821234', '3,676.82'],
  ])('shows the 24 h turnover of %s', async (_name, pair, value, shown) => {
    amount = value
    renderWithApp(<TradeHeader pair={pair} />)
    expect(await screen.findByText(shown)).toBeTruthy()
    expect(screen.getByTestId('ticker-turnover').textContent).toBe(shown)
  })
})
