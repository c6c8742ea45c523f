import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { USER_INFO_PATH } from '@/lib/session'
import { FAVOURITES_KEY, FAVOURITES_OWNER_KEY } from '@/lib/storage'
import { renderWithApp } from '@/test/render'
import { fakeMarketSocket } from '@/test/fake-market-socket'
import { UPDATE_FAVOURITES_PATH } from '../api/favourites-api'
import { MARKET_TAB_KEY } from '../lib/market-tab'
import { PUBLIC_INFO_MARKET_PATH } from '../api/get-market-overview'
import { MarketOverview } from './market-overview'

const apiData = vi.hoisted(() => vi.fn())
const apiPost = vi.hoisted(() => vi.fn())
const notifyError = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({
  ...(await orig<typeof import('@/lib/request-client')>()),
  apiData,
  apiPost,
}))
vi.mock('@/lib/notify', () => ({ notifyError, notifySuccess: vi.fn() }))

const market = {
  coinList: { BTC: { longName: 'Bitcoin' }, TON: { longName: 'Toncoin' }, USDT: { longName: 'Tether USD' } },
  market: {
    USDT: {
      'BTC/USDT': { name: 'BTC/USDT', showName: 'BTC/USDT', sort: 1, isOpenCross: true, pricePrecision: 2 },
      'TON/USDT': { name: 'TON/USDT', showName: 'TON/USDT', sort: 2 },
    },
    MNT: { 'USDT/MNT': { name: 'USDT/MNT', showName: 'USDT/MNT', sort: 1 } },
  },
  marketOrder: ['USDT', 'MNT'],
}

// A server up for less than an hour: one hourly close per pair.
const tickers = {
  tickers: {
    btcusdt: { open: '97000', close: '97500.5', rose: '0.005165' },
    tonusdt: { open: '5.4', close: '5.35', rose: '-0.009259' },
  },
  sparklines: { btcusdt: ['97500.5'], tonusdt: ['5.35'] },
}

// user_info answers 10002: a visitor.
const visitor = async () => ({ code: '10002', msg: 'Not signed in', data: null })
const signedIn = async (path: string) =>
  path === USER_INFO_PATH ? { code: '0', msg: '', data: { id: 7, email: 'a@example.com' } } : visitor()

describe('MarketOverview', () => {
  beforeEach(() => {
    localStorage.clear()
    apiData.mockReset()
    apiPost.mockReset()
    notifyError.mockReset()
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
  })

  it('shows live prices, coloured changes and a trend line per pair, each pair linking to its trade page', async () => {
    renderWithApp(<MarketOverview as="page" />)
    const btc = await screen.findByTestId('market-row-BTC_USDT')
    // At the pair's price places, thousands grouped.
    await waitFor(() => expect(btc.textContent).toContain('97,500.50'))
    expect(btc.textContent).toContain('+0.52%')
    expect(screen.getByTestId('market-row-TON_USDT').textContent).toContain('-0.93%')
    // One hourly close plus the 24 h open still draws a line, labelled for screen readers.
    await waitFor(() => expect(within(btc).getByRole('img', { name: /BTC\/USDT/ })).toBeTruthy())
    // The pair name is a link to the trade page (the only way in on a phone, where the Trade column is hidden).
    expect(screen.getByTestId('market-link-BTC_USDT').getAttribute('href')).toBe('/trade/BTC_USDT')
    // BTC/USDT is open for cross margin in the catalogue, but margin is not live: no badge sells it.
    expect(btc.textContent).not.toContain('Margin')
  })

  it('opens the pair when its row is tapped anywhere, but not when its favourite star is', async () => {
    const { router } = renderWithApp(<MarketOverview as="page" />, { path: '/market' })
    const ton = await screen.findByTestId('market-row-TON_USDT')
    fireEvent.click(within(ton).getByTestId('favourite-toggle'))
    expect(router.state.location.pathname).toBe('/market')
    fireEvent.click(within(ton).getByText('-0.93%'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/trade/TON_USDT'))
  })

  it('searches every quote group once something is typed', async () => {
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    // "mnt" on the USDT tab finds USDT/MNT of the MNT group.
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: 'mnt' } })
    await screen.findByTestId('market-row-USDT_MNT')
    expect(screen.queryByTestId('market-row-BTC_USDT')).toBeNull()
    // "btc" on the MNT tab finds BTC/USDT; clearing the search shows the tab's own pairs again.
    fireEvent.click(screen.getByTestId('market-tab-MNT'))
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: 'btc' } })
    await screen.findByTestId('market-row-BTC_USDT')
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: '' } })
    await waitFor(() => expect(screen.queryByTestId('market-row-BTC_USDT')).toBeNull())
    expect(screen.getByTestId('market-row-USDT_MNT')).toBeTruthy()
  })

  it('matches coin names only at the start of a word', async () => {
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    fireEvent.click(screen.getByTestId('market-tab-MNT'))
    await screen.findByTestId('market-row-USDT_MNT')
    // "eth" is inside "Tether USD" but names no coin here: nothing matches.
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: 'eth' } })
    await screen.findByTestId('market-empty')
    expect(screen.queryByTestId('market-row-USDT_MNT')).toBeNull()
    // The start of the name still finds it.
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: 'teth' } })
    await screen.findByTestId('market-row-USDT_MNT')
  })

  it("subscribes the shown pairs' tickers over the market socket and shows what it pushes", async () => {
    const { socket, sockets } = fakeMarketSocket()
    renderWithApp(<MarketOverview as="page" socket={socket} />)
    const btc = await screen.findByTestId('market-row-BTC_USDT')
    await waitFor(() => expect(btc.textContent).toContain('97,500.50'))
    await waitFor(() => expect(sockets).toHaveLength(1))
    act(() => sockets[0].open())
    expect(sockets[0].sent).toEqual(
      expect.arrayContaining([
        { event: 'sub', params: { channel: 'market_btcusdt_ticker' } },
        { event: 'sub', params: { channel: 'market_tonusdt_ticker' } },
      ]),
    )
    act(() => sockets[0].push({ channel: 'market_btcusdt_ticker', ts: 1, tick: { symbol: 'btcusdt', close: '98765.432', rose: '0.0123' } }))
    await waitFor(() => expect(btc.textContent).toContain('98,765.43'))
    expect(btc.textContent).toContain('+1.23%')
    // Another tab's pairs are subscribed instead.
    fireEvent.click(screen.getByTestId('market-tab-MNT'))
    await waitFor(() => expect(sockets[0].sent).toContainEqual({ event: 'sub', params: { channel: 'market_usdtmnt_ticker' } }))
    expect(sockets[0].sent).toContainEqual({ event: 'unsub', params: { channel: 'market_btcusdt_ticker' } })
    socket.close()
  })

  it('draws the trend line the way of the 24 h change beside it, ending at the pushed price', async () => {
    const { socket, sockets } = fakeMarketSocket()
    renderWithApp(<MarketOverview as="page" socket={socket} />)
    const btc = await screen.findByTestId('market-row-BTC_USDT')
    // From the 24 h open 97,000 up to 97,500.50: +0.52 %, a rising green line.
    await waitFor(() => expect(within(btc).getByTestId('sparkline').getAttribute('data-trend')).toBe('up'))
    await waitFor(() => expect(sockets).toHaveLength(1))
    act(() => sockets[0].open())
    // The price falls below the open: the change turns red, and so does the line, which now ends at the new price
    // (its lowest point, at the bottom of the box) instead of the last hourly close.
    act(() => sockets[0].push({ channel: 'market_btcusdt_ticker', ts: 1, tick: { symbol: 'btcusdt', close: '96922.4', rose: '-0.0008' } }))
    await waitFor(() => expect(btc.textContent).toContain('-0.08%'))
    const line = within(btc).getByTestId('sparkline')
    expect(line.getAttribute('data-trend')).toBe('down')
    const points = line.querySelector('polyline')!.getAttribute('points')!.split(' ')
    expect(points.at(-1)).toMatch(/,26$/)
    socket.close()
  })

  it('keeps favourites in local storage and lists them under the Favourites tab', async () => {
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    fireEvent.click(screen.getByRole('button', { name: 'Add TON/USDT to favourites' }))
    expect(JSON.parse(localStorage.getItem(FAVOURITES_KEY)!)).toEqual(['TON_USDT'])
    expect(screen.getByRole('button', { name: 'Remove TON/USDT from favourites' }).getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(screen.getByRole('tab', { name: /Favourites/ }))
    await waitFor(() => expect(screen.queryByTestId('market-row-BTC_USDT')).toBeNull())
    expect(screen.getByTestId('market-row-TON_USDT')).toBeTruthy()
    // Search narrows by pair or coin name.
    fireEvent.click(screen.getByTestId('market-tab-USDT'))
    fireEvent.change(screen.getByRole('textbox', { name: 'Search coin' }), { target: { value: 'bitc' } })
    await waitFor(() => expect(screen.queryByTestId('market-row-TON_USDT')).toBeNull())
    expect(screen.getByTestId('market-row-BTC_USDT')).toBeTruthy()
  })

  it('leaves a visitor\'s stars to local storage without calling the server', async () => {
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    fireEvent.click(screen.getByRole('button', { name: 'Add BTC/USDT to favourites' }))
    expect(JSON.parse(localStorage.getItem(FAVOURITES_KEY)!)).toEqual(['BTC_USDT'])
    expect(apiData.mock.calls.some(([path]) => path === UPDATE_FAVOURITES_PATH)).toBe(false)
  })
})

describe('MarketOverview opening tab', () => {
  beforeEach(() => {
    localStorage.clear()
    apiData.mockReset()
    apiPost.mockReset()
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
  })
  const selected = () => screen.getAllByRole('tab').find((t) => t.getAttribute('aria-selected') === 'true')?.textContent

  it('opens on the first quote group without favourites', async () => {
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    expect(selected()).toBe('USDT')
  })

  it('opens on Favourites on a first visit with favourites, and stays there when the last one is unstarred', async () => {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['TON_USDT']))
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    expect(selected()).toBe('Favourites')
    expect(screen.queryByTestId('market-row-BTC_USDT')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Remove TON/USDT from favourites' }))
    await screen.findByTestId('market-empty')
    expect(selected()).toBe('Favourites')
  })

  it('remembers the tab the user chose, across a reload, in local storage', async () => {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['TON_USDT']))
    const first = renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    fireEvent.click(screen.getByTestId('market-tab-MNT'))
    await screen.findByTestId('market-row-USDT_MNT')
    expect(localStorage.getItem(MARKET_TAB_KEY)).toBe('MNT')
    first.unmount()

    // The reload opens on MNT, not on Favourites nor USDT.
    const second = renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-USDT_MNT')
    expect(selected()).toBe('MNT')
    fireEvent.click(screen.getByTestId('market-tab-favourites'))
    await waitFor(() => expect(selected()).toBe('Favourites'))
    expect(localStorage.getItem(MARKET_TAB_KEY)).toBe('__favourites__')
    second.unmount()
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    expect(selected()).toBe('Favourites')
  })

  it('falls back when the remembered group is gone, and lets the address ask for Favourites', async () => {
    localStorage.setItem(MARKET_TAB_KEY, 'EUR')
    const first = renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    expect(selected()).toBe('USDT')
    first.unmount()
    localStorage.setItem(MARKET_TAB_KEY, 'MNT')
    renderWithApp(<MarketOverview as="page" initialTab="favourites" />)
    await screen.findByTestId('market-empty')
    expect(selected()).toBe('Favourites')
  })
})

/** A fake favourites server behind the mocked api layer. */
function fakeServer(initial: string[]) {
  const state = { list: [...initial], fail: undefined as Error | undefined, overviews: 0 }
  apiPost.mockImplementation(signedIn)
  apiData.mockImplementation(async (path: string, body: { symbols?: string; operationType?: number }) => {
    if (path.endsWith('/market/tickers')) return tickers
    if (path === PUBLIC_INFO_MARKET_PATH) {
      state.overviews++
      return { ...market, followCoinList: [...state.list] }
    }
    if (path === UPDATE_FAVOURITES_PATH) {
      if (state.fail) {
        const error = state.fail
        state.fail = undefined
        throw error
      }
      const symbols = String(body.symbols).split(',')
      state.list =
        body.operationType === 2
          ? state.list.filter((s) => !symbols.includes(s))
          : [...state.list, ...symbols.filter((s) => !state.list.includes(s))]
      return { symbols: [...state.list] }
    }
    throw new Error(`unexpected ${path}`)
  })
  return state
}

const updates = () => apiData.mock.calls.filter(([path]) => path === UPDATE_FAVOURITES_PATH).map(([, body]) => body)
const stored = () => JSON.parse(localStorage.getItem(FAVOURITES_KEY) ?? '[]') as string[]
const star = (pair: string) => screen.getByRole('button', { name: new RegExp(`(Add|Remove) ${pair} (to|from) favourites`) })

describe('MarketOverview favourites of a signed-in user', () => {
  beforeEach(() => {
    localStorage.clear()
    // These follow the stars on the USDT tab, chosen last time (with favourites the list would open on them).
    localStorage.setItem(MARKET_TAB_KEY, 'USDT')
    apiData.mockReset()
    apiPost.mockReset()
    notifyError.mockReset()
  })

  it('merges a visitor\'s stars into the account once, then follows the server list', async () => {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['TON_USDT', 'BTC_USDT']))
    const server = fakeServer(['btcusdt'])
    const first = renderWithApp(<MarketOverview as="page" />)
    await waitFor(() => expect(updates()).toEqual([{ symbols: 'tonusdt', operationType: 0 }]))
    await waitFor(() => expect(stored()).toEqual(['BTC_USDT', 'TON_USDT']))
    expect(localStorage.getItem(FAVOURITES_OWNER_KEY)).toBe('7')
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('true')
    expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(screen.getByRole('tab', { name: /Favourites/ }))
    await waitFor(() => expect(screen.queryByTestId('market-row-USDT_MNT')).toBeNull())
    expect(screen.getByTestId('market-row-TON_USDT')).toBeTruthy()
    // Back to USDT, where the next load opens.
    fireEvent.click(screen.getByTestId('market-tab-USDT'))
        await waitFor(() => expect(localStorage.getItem(MARKET_TAB_KEY)).toBe('USDT'))
    first.unmount()

    // Removed in another browser: the next load takes the server's list and adds nothing back.
    server.list = ['btcusdt']
    renderWithApp(<MarketOverview as="page" />)
    await waitFor(() => expect(stored()).toEqual(['BTC_USDT']))
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('false')
    expect(updates()).toHaveLength(1)
  })

  it('takes followCoinList as it is when the visitor starred nothing the server lacks', async () => {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['TON_USDT']))
    fakeServer(['usdtmnt', 'tonusdt'])
    renderWithApp(<MarketOverview as="page" />)
    await waitFor(() => expect(stored()).toEqual(['USDT_MNT', 'TON_USDT']))
    await waitFor(() => expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('true'))
    fireEvent.click(screen.getByRole('tab', { name: /Favourites/ }))
    expect((await screen.findByTestId('market-row-USDT_MNT')).textContent).toContain('USDT/MNT')
    expect(star('USDT/MNT').getAttribute('aria-pressed')).toBe('true')
    expect(screen.queryByTestId('market-row-BTC_USDT')).toBeNull()
    expect(localStorage.getItem(FAVOURITES_OWNER_KEY)).toBe('7')
    expect(updates()).toEqual([])
  })

  it('saves a star on the server and takes back a refused one with the server message', async () => {
    localStorage.setItem(FAVOURITES_OWNER_KEY, '7')
    const server = fakeServer([])
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    await waitFor(() => expect(localStorage.getItem(FAVOURITES_KEY)).toBe('[]'))

    fireEvent.click(star('TON/USDT'))
    // Shown at once, before the answer.
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('true')
    await waitFor(() => expect(stored()).toEqual(['TON_USDT']))
    expect(updates()).toEqual([{ symbols: 'tonusdt', operationType: 1 }])

    server.fail = new ApiError({ code: '14504', msg: 'At most 100 favourite pairs', data: null })
    fireEvent.click(star('BTC/USDT'))
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('At most 100 favourite pairs'))
    expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('false')
    expect(stored()).toEqual(['TON_USDT'])

    // A transport failure has no server message: the favourites text says it.
    server.fail = new Error('Error: Network error')
    fireEvent.click(star('TON/USDT'))
    await waitFor(() => expect(notifyError).toHaveBeenLastCalledWith('Your favourites could not be saved. Please try again.'))
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('true')

    fireEvent.click(star('TON/USDT'))
    await waitFor(() => expect(stored()).toEqual([]))
    expect(updates().at(-1)).toEqual({ symbols: 'tonusdt', operationType: 2 })
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('false')
  })

  it('fetches the list again when the cached one predates the sign-in', async () => {
    const server = fakeServer(['btcusdt'])
    const fetchOverview = apiData.getMockImplementation()!
    apiData.mockImplementation(async (path: string, body: unknown) => {
      const answer = await fetchOverview(path, body)
      // The first overview was asked for before the token cookie existed.
      if (path === PUBLIC_INFO_MARKET_PATH && server.overviews === 1) {
        document.cookie = 'token=session-1; path=/'
        return { ...answer, followCoinList: [] }
      }
      return answer
    })
    renderWithApp(<MarketOverview as="page" />)
    await waitFor(() => expect(server.overviews).toBe(2))
    await waitFor(() => expect(stored()).toEqual(['BTC_USDT']))
    expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('true')
  })

  it('keeps a star clicked before the user is known, and saves it where the user turns out to belong', async () => {
    // Signed in: the star goes to the server once user_info answers.
    localStorage.setItem(FAVOURITES_OWNER_KEY, '7')
    const server = fakeServer([])
    let answer: (v: unknown) => void = () => {}
    apiPost.mockImplementation((path: string) => (path === USER_INFO_PATH ? new Promise((r) => (answer = r)) : visitor()))
    const first = renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    fireEvent.click(star('TON/USDT'))
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('true')
    expect(updates()).toEqual([])
    answer(await signedIn(USER_INFO_PATH))
    await waitFor(() => expect(updates()).toEqual([{ symbols: 'tonusdt', operationType: 1 }]))
    await waitFor(() => expect(stored()).toEqual(['TON_USDT']))
    expect(server.list).toEqual(['tonusdt'])
    expect(star('TON/USDT').getAttribute('aria-pressed')).toBe('true')
    first.unmount()

    // A visitor: the star stays in local storage, and nothing is sent.
    localStorage.clear()
    apiData.mockClear()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
    apiPost.mockImplementation((path: string) => (path === USER_INFO_PATH ? new Promise((r) => (answer = r)) : visitor()))
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    fireEvent.click(star('BTC/USDT'))
    answer(await visitor())
    await waitFor(() => expect(stored()).toEqual(['BTC_USDT']))
    expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('true')
    expect(updates()).toEqual([])
  })

  it('drops the cached account list when the market list is shown signed out', async () => {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['BTC_USDT']))
    localStorage.setItem(FAVOURITES_OWNER_KEY, '7')
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-BTC_USDT')
    await waitFor(() => expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('false'))
    expect(stored()).toEqual([])
    expect(localStorage.getItem(FAVOURITES_OWNER_KEY)).toBeNull()
  })
})

describe('MarketOverview for keyboard and live users', () => {
  beforeEach(() => {
    localStorage.clear()
    apiData.mockReset()
    apiPost.mockReset()
    apiPost.mockImplementation(visitor)
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
  })

  // Unstarring on the Favourites tab removes the row under the focus; the keyboard user stays in the list.
  it('keeps the focus in the list when a pair is unstarred on the Favourites tab', async () => {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['BTC_USDT', 'TON_USDT']))
    renderWithApp(<MarketOverview as="page" />)
    await screen.findByTestId('market-row-TON_USDT')
    const btc = screen.getByRole('button', { name: 'Remove BTC/USDT from favourites' })
    act(() => btc.focus())
    fireEvent.click(btc)
    await waitFor(() => expect(screen.queryByTestId('market-row-BTC_USDT')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove TON/USDT from favourites' })))
    // The last one: focus goes to the Favourites tab, not to the start of the page.
    fireEvent.click(document.activeElement!)
    await screen.findByTestId('market-empty')
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: /Favourites/ })))
  })

  it('says "Reconnecting…" while the live prices are down', async () => {
    const { socket, sockets } = fakeMarketSocket({ baseDelay: 10 })
    renderWithApp(<MarketOverview as="page" socket={socket} />)
    await screen.findByTestId('market-row-BTC_USDT')
    await waitFor(() => expect(sockets).toHaveLength(1))
    act(() => sockets[0].open())
    expect(screen.queryByTestId('market-reconnecting')).toBeNull()
    act(() => sockets[0].drop())
    expect((await screen.findByTestId('market-reconnecting')).textContent).toContain('Reconnecting…')
    await waitFor(() => expect(sockets).toHaveLength(2))
    act(() => sockets[1].open())
    await waitFor(() => expect(screen.queryByTestId('market-reconnecting')).toBeNull())
    socket.close()
  })
})
