import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import { MIN_DESKTOP_HEIGHT, TradePage } from './trade-page'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
// The panels themselves have their own tests; here only the page's phone tabs matter.
vi.mock('./kline-chart', () => ({ KlineChart: () => <div data-testid="kline-stub" /> }))
vi.mock('./order-book', () => ({ OrderBook: () => <div /> }))
vi.mock('./recent-trades', () => ({ RecentTrades: () => <div /> }))
vi.mock('./market-list', () => ({ MarketList: () => <div data-testid="market-list-stub" /> }))
vi.mock('./order-form', async (orig) => ({
  SIDE_COLORS: (await orig<typeof import('./order-form')>()).SIDE_COLORS,
  OrderForm: ({ best, side, onPlaced }: { best?: unknown; side?: string; onPlaced?: () => void }) => (
    <div data-testid="order-form-stub" data-best={JSON.stringify(best ?? null)} data-side={side ?? ''}>
      <button type="button" onClick={onPlaced}>
        placed
      </button>
    </div>
  ),
}))
vi.mock('./user-orders', () => ({ UserOrders: () => <div data-testid="user-orders-stub" /> }))
vi.mock('./trade-header', () => ({ TradeHeader: () => <div /> }))

const market = { market: { USDT: { 'BTC/USDT': { base: 'BTC', quote: 'USDT', symbol: 'btcusdt', showName: 'BTC/USDT' } } } }

describe('TradePage on a phone', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/common/public_info_market') ? market : {}))
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  // jsdom has no layout: what keeps "Захиалгын дэвтэр" on one line at 390 px is
  // that the tabs take the room their names need and never wrap them (checked
  // in a browser: 56 + 135 + 67 px of text and 3 × 16 px of padding fit 372 px).
  it.each([
    ['mn_MN', ['График', 'Захиалгын дэвтэр', 'Арилжаа']],
    ['en_US', ['Chart', 'Order book', 'Trades']],
  ])('keeps the chart, order book and trades tab names on one line, sized by their names (%s)', async (lan, names) => {
    document.cookie = `lan=${lan}; path=/`
    renderWithApp(<TradePage symbol="BTC_USDT" />)
    const list = await screen.findByTestId('mobile-tabs')
    const tabs = ['chart', 'book', 'trades'].map((k) => screen.getByTestId(`mobile-tab-${k}`))
    expect(tabs.map((t) => t.textContent)).toEqual(names)
    expect(list.contains(tabs[1])).toBe(true)
    for (const tab of tabs) {
      const style = getComputedStyle(tab)
      expect(style.whiteSpace).toBe('nowrap')
      // Not equal thirds (flex: 1 1 0): each tab starts from its name's width.
      expect(style.flexBasis).toBe('auto')
      expect(style.flexGrow).toBe('1')
    }
  })
})

describe('TradePage best prices', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/common/public_info_market')) return market
      if (path.endsWith('/market/depth'))
        return { buys: [['97000.00', '0.5'], ['96990.00', '1']], asks: [['97010.00', '0.2'], ['97020.00', '1']] }
      return {}
    })
  })

  // A market order by amount is valued at them; on a phone the book is not even mounted while its tab is closed.
  it("hands the order book's best bid and ask to the order form", async () => {
    renderWithApp(<TradePage symbol="BTC_USDT" />)
    fireEvent.click(await screen.findByTestId('mobile-buy'))
    const form = await screen.findByTestId('order-form-stub')
    await waitFor(() => expect(JSON.parse(form.getAttribute('data-best')!)).toEqual({ bid: '97000.00', ask: '97010.00' }))
    expect(apiData).toHaveBeenCalledWith('/fe-ex-api/market/depth', { symbol: 'btcusdt', step: 0, limit: 50 }, expect.anything())
  })
})

describe('TradePage on a phone: the Buy / Sell bar', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/common/public_info_market') ? market : {}))
  })

  it('opens the order form in a sheet on the side tapped, and closes it once the order is placed', async () => {
    renderWithApp(<TradePage symbol="BTC_USDT" />)
    const bar = await screen.findByTestId('mobile-trade-bar')
    // No form on the page itself: it lives in the sheet.
    expect(screen.queryByTestId('order-form-stub')).toBeNull()
    expect(within(bar).getByTestId('mobile-buy').textContent).toBe('Buy')
    fireEvent.click(within(bar).getByTestId('mobile-sell'))
    const sheet = await screen.findByTestId('mobile-order-sheet')
    expect(within(sheet).getByTestId('order-form-stub').getAttribute('data-side')).toBe('SELL')
    expect(within(sheet).getByRole('heading').textContent).toBe('Place an order on BTC/USDT')
    fireEvent.click(within(sheet).getByRole('button', { name: 'placed' }))
    await waitFor(() => expect(screen.queryByTestId('order-form-stub')).toBeNull())
    fireEvent.click(within(bar).getByTestId('mobile-buy'))
    expect((await screen.findByTestId('order-form-stub')).getAttribute('data-side')).toBe('BUY')
  })
})

describe('TradePage on a desktop', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/common/public_info_market') ? market : {}))
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it.each([
    [1440, true],
    [1280, false],
  ])('at %i px puts every panel in one window-high grid, the market list beside the chart only when wide (%s)', async (px, wide) => {
    screenWidth(px)
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(900)
    renderWithApp(<TradePage symbol="BTC_USDT" />)
    const page = await screen.findByTestId('trade-desktop')
    expect(screen.queryByTestId('mobile-trade-bar')).toBeNull()
    expect(screen.getByTestId('order-form-stub')).toBeTruthy()
    // The panels a trader needs no order for come after the first paint.
    await screen.findByTestId('user-orders-stub')
    expect(screen.queryByTestId('market-list-stub') !== null).toBe(wide)
    // jsdom lays nothing out (the page's top is 0): the page takes the window's height.
    await waitFor(() => expect(page.style.height || getComputedStyle(page).height).toBe('900px'))
  })

  it('never squashes the panels below the least height on a short window', async () => {
    screenWidth(1440)
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(500)
    renderWithApp(<TradePage symbol="BTC_USDT" />)
    const page = await screen.findByTestId('trade-desktop')
    await waitFor(() => expect(getComputedStyle(page).height).toBe(`${MIN_DESKTOP_HEIGHT}px`))
  })
})
