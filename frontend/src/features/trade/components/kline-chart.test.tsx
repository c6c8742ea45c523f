import { act, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { system } from '@/components/ui/theme'
import { chartColors, KlineChart } from './kline-chart'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
// The live channels the chart listens to, so the test can push a candle.
const handlers = vi.hoisted(() => new Map<string, (m: { tick?: unknown }) => void>())
vi.mock('../api/use-market-channel', () => ({
  useMarketChannel: (channel: string, onMessage: (m: { tick?: unknown }) => void) => {
    handlers.set(channel, onMessage)
  },
}))
// jsdom has no canvas: the chart library is a stub that takes the bars.
const update = vi.hoisted(() => vi.fn())
const createChart = vi.hoisted(() => vi.fn())
vi.mock('lightweight-charts', () => {
  const series = () => ({ setData: vi.fn(), update, applyOptions: vi.fn(), priceScale: () => ({ applyOptions: vi.fn() }) })
  createChart.mockImplementation(() => ({ addSeries: series, applyOptions: vi.fn(), remove: vi.fn() }))
  return {
    CandlestickSeries: 'candles',
    HistogramSeries: 'volume',
    ColorType: { Solid: 'solid' },
    createChart,
  }
})

describe('KlineChart states', () => {
  beforeEach(() => {
    apiData.mockReset()
    handlers.clear()
    update.mockReset()
  })

  // The chart's canvas fills the same box: a note under it was never seen.
  it('says a pair without candles has none, above the chart, until the first live candle is drawn', async () => {
    apiData.mockResolvedValue([])
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    const empty = await screen.findByTestId('kline-empty')
    expect(empty.textContent).toBe('No candles yet')
    expect(getComputedStyle(empty).zIndex).toBe('1')
    const push = handlers.get('market_btcusdt_kline_15min')!
    act(() => push({ tick: { id: 1_700_000_100, open: '1', high: '2', low: '1', close: '2', vol: '0.5' } }))
    expect(update).toHaveBeenCalled()
    await waitFor(() => expect(screen.queryByTestId('kline-empty')).toBeNull())
  })

  it('shows its error above the chart', async () => {
    apiData.mockRejectedValue(new Error('Error: Network error'))
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    expect(getComputedStyle(await screen.findByTestId('kline-error')).zIndex).toBe('1')
  })

  // The licence asks for TradingView named with a link to tradingview.com; the library's logo was titled in English only.
  it.each([
    ['en_US', 'Charting by TradingView', 'Charting by TradingView (opens tradingview.com in a new tab)'],
    ['mn_MN', 'TradingView-ийн график', 'TradingView-ийн график (tradingview.com шинэ цонхонд нээгдэнэ)'],
  ])('credits TradingView with a link to tradingview.com in the page language (%s)', async (lan, text, label) => {
    document.cookie = `lan=${lan}; path=/`
    apiData.mockResolvedValue([])
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    const link = await screen.findByTestId('kline-attribution')
    expect(link.textContent).toBe(text)
    expect(link.getAttribute('aria-label')).toBe(label)
    expect(link.getAttribute('href')).toBe('https://www.tradingview.com/')
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toContain('noopener')
    // The library's English-only logo is off: one attribution, not two.
    expect(createChart.mock.calls.at(-1)?.[1]).toMatchObject({ layout: { attributionLogo: false } })
  })

  // The licence also asks for the NOTICE file's attribution notice: in English as written, in translated words.
  it.each([
    ['en_US', 'Chart library: '],
    ['mn_MN', 'Графикийн сан: '],
  ])("shows the library's NOTICE under the chart and as the link's tooltip (%s)", async (lan, words) => {
    document.cookie = `lan=${lan}; path=/`
    apiData.mockResolvedValue([])
    renderWithApp(<KlineChart pair={BTC_USDT} />)
    const notice = `${words}TradingView Lightweight Charts™ Copyright (с) 2025 TradingView, Inc. https://www.tradingview.com/`
    expect((await screen.findByTestId('kline-notice')).textContent).toBe(notice)
    expect(screen.getByTestId('kline-attribution').getAttribute('title')).toBe(notice)
    // Below the chart's canvas, not over the candles.
    expect(screen.getByTestId('kline-canvas').parentElement!.contains(screen.getByTestId('kline-notice'))).toBe(false)
  })
})

describe('chartColors', () => {
  // The candles use the theme's up and down colours (the light up green is #087f5b since it became readable as text).
  it('matches the theme tokens', () => {
    type Conditional = { _light: string; _dark: string }
    const colors = (system as unknown as { _config: { theme: { semanticTokens: { colors: Record<string, { value: Conditional }> } } } })._config.theme.semanticTokens.colors
    for (const mode of ['light', 'dark'] as const) {
      expect(chartColors(mode).up).toBe(colors.up.value[`_${mode}`])
      expect(chartColors(mode).down).toBe(colors.down.value[`_${mode}`])
    }
  })
})
