import { act, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { KlineChart } from './kline-chart'

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
vi.mock('lightweight-charts', () => {
  const series = () => ({ setData: vi.fn(), update, applyOptions: vi.fn(), priceScale: () => ({ applyOptions: vi.fn() }) })
  return {
    CandlestickSeries: 'candles',
    HistogramSeries: 'volume',
    ColorType: { Solid: 'solid' },
    createChart: () => ({ addSeries: series, applyOptions: vi.fn(), remove: vi.fn() }),
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
})
