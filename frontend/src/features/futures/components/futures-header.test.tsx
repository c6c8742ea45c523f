import { act, screen, waitFor, within } from '@testing-library/react'
import type { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MarketSocket } from '@/lib/market-socket'
import { fakeMarketSocket } from '@/test/fake-market-socket'
import type { FakeSocket } from '@/test/fake-socket'
import { renderWithApp } from '@/test/render'
import { futuresKeys } from '../api/futures-api'
import { LIVE_MARK_POLL_MS, MARK_POLL_MS } from '../api/live'
import { contractPair } from '../lib/contract'
import { futuresTexts } from '../lib/texts'
import { BTCUSDT, MARKET, PUBLIC_INFO } from '../test-fixtures'
import { refuse, serve } from '../test-server'
import { FuturesHeader } from './futures-header'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
// The app's one socket: a fake one the test opens, drops and pushes on.
const line = vi.hoisted(() => ({ socket: undefined as MarketSocket | undefined }))
vi.mock('@/lib/market-socket', async (orig) => ({
  ...(await orig<typeof import('@/lib/market-socket')>()),
  getMarketSocket: () => line.socket!,
}))

const now = Date.now()
const market = {
  ...MARKET,
  nextFundingTime: now + 3_600_000,
  time: now,
  open24h: '50632.9',
  high24h: '51000.0',
  low24h: '49500.0',
  change24h: '-1.25',
  volume24h: '163',
  turnover24h: '8150000.5',
}
const TICKER = { open: '49000.0', high: '51200.0', low: '48000.0', close: '50000.0', vol: '12.345', amount: '617250.5', rose: '0.0204' }

let sockets: FakeSocket[] = []

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  const fake = fakeMarketSocket({ baseDelay: 60_000 })
  line.socket = fake.socket
  sockets = fake.sockets
  serve({
    '/fe-co-api/common/public_info': { ...PUBLIC_INFO, serverTime: now },
    '/fe-co-api/common/public_market_info': market,
    '/fe-co-api/common/price_list': [market],
    '/fe-co-api/market/ticker': TICKER,
  })
})

afterEach(() => {
  line.socket?.close()
  vi.restoreAllMocks()
  document.title = ''
})

/** The refetch interval of the header's public_market_info. */
function pollOf(queryClient: QueryClient): unknown {
  const query = queryClient.getQueryCache().find({ queryKey: futuresKeys.market('BTCUSDT') })
  return query?.observers[0]?.options.refetchInterval
}

const mark = (tick: Record<string, unknown>) => ({ channel: 'market_btcusdtperp_mark', ts: now, tick })

describe('FuturesHeader', () => {
  it('shows the mark, index and funding the mark channel pushes at once, and reads public_market_info less often while marks arrive', async () => {
    const { queryClient } = renderWithApp(<FuturesHeader contract={BTCUSDT} pair={contractPair(BTCUSDT)} />)
    const header = await screen.findByTestId('futures-header')
    await waitFor(() => expect(within(header).getByTestId('futures-mark-price').textContent).toBe('50,010.0'))
    expect(pollOf(queryClient)).toBe(MARK_POLL_MS)

    act(() => sockets[0].open())
    expect(sockets[0].sent).toContainEqual({ event: 'sub', params: { channel: 'market_btcusdtperp_mark' } })
    // The socket is open but nothing came yet: the poll stays.
    expect(pollOf(queryClient)).toBe(MARK_POLL_MS)

    act(() =>
      sockets[0].push(
        mark({ symbol: 'BTCUSDT', markPrice: '50123.4', indexPrice: '50100.0', fundingRate: '-0.0002', lastFundingRate: '0.0001', nextFundingTime: now + 7_200_000, time: now + 1000 }),
      ),
    )
    expect(within(header).getByTestId('futures-mark-price').textContent).toBe('50,123.4')
    expect(within(header).getByTestId('futures-index-price').textContent).toBe('50,100.0')
    expect(within(header).getByTestId('futures-funding-rate').textContent).toBe('-0.0200%')
    expect(within(header).getByTestId('funding-countdown').textContent).toMatch(/^(02:00:00|01:59:5\d)$/)
    // What the push does not carry stays.
    expect(within(header).getByTestId('futures-open-interest').textContent).toBe('1,234 Cont')
    await waitFor(() => expect(pollOf(queryClient)).toBe(LIVE_MARK_POLL_MS))

    // Another contract's mark, an older one and a malformed one change nothing.
    act(() => {
      sockets[0].push(mark({ symbol: 'ETHUSDT', markPrice: '3000.00', indexPrice: '3000.00', fundingRate: '0', lastFundingRate: '0', nextFundingTime: now, time: now + 2000 }))
      sockets[0].push(mark({ symbol: 'BTCUSDT', markPrice: '49000.0', indexPrice: '49000.0', fundingRate: '0', lastFundingRate: '0', nextFundingTime: now, time: now + 500 }))
      sockets[0].push(mark({ symbol: 'BTCUSDT', markPrice: 49000 }))
    })
    expect(within(header).getByTestId('futures-mark-price').textContent).toBe('50,123.4')

    // The socket drops: public_market_info is the source again, read as often as before.
    act(() => sockets[0].drop())
    await waitFor(() => expect(pollOf(queryClient)).toBe(MARK_POLL_MS))
  })

  it("shows the 24 h change, high, low and volume in contracts from the contract's live ticker", async () => {
    renderWithApp(<FuturesHeader contract={BTCUSDT} pair={contractPair(BTCUSDT)} />)
    const header = await screen.findByTestId('futures-header')
    await waitFor(() => expect(within(header).getByTestId('futures-change').textContent).toBe('+2.04%'))
    expect(within(header).getByTestId('futures-high').textContent).toBe('51,200.0')
    expect(within(header).getByTestId('futures-low').textContent).toBe('48,000.0')
    // 12.345 BTC at 0.001 BTC a contract.
    const volume = within(header).getByTestId('futures-volume-24h')
    expect(volume.textContent).toBe('12,345')
    expect(volume.parentElement?.getAttribute('title')).toBe('≈ 12.345 BTC')
    expect(within(header).getByText('24h volume (Cont)')).toBeTruthy()
  })

  it("shows public_market_info's 24 h figures while the ticker cannot be read", async () => {
    serve({
      '/fe-co-api/common/public_info': { ...PUBLIC_INFO, serverTime: now },
      '/fe-co-api/common/public_market_info': market,
      '/fe-co-api/common/price_list': [market],
      '/fe-co-api/market/ticker': refuse('10001', 'Busy'),
    })
    renderWithApp(<FuturesHeader contract={BTCUSDT} pair={contractPair(BTCUSDT)} />)
    const header = await screen.findByTestId('futures-header')
    await waitFor(() => expect(within(header).getByTestId('futures-change').textContent).toBe('-1.25%'))
    expect(within(header).getByTestId('futures-high').textContent).toBe('51,000.0')
    expect(within(header).getByTestId('futures-low').textContent).toBe('49,500.0')
    expect(within(header).getByTestId('futures-volume-24h').textContent).toBe('163')
  })
})
