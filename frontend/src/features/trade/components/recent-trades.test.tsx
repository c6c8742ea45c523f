import { act, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { MarketTrade } from '../api/trade-api'
import { BTC_USDT } from '../test-pair'
import { mergeTrades, RecentTrades } from './recent-trades'

const apiData = vi.hoisted(() => vi.fn())
const channel = vi.hoisted(() => ({ handler: undefined as undefined | ((m: { data?: unknown; tick?: unknown }) => void) }))
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('../api/use-market-channel', () => ({
  useMarketChannel: (_topic: string, handler: (m: { data?: unknown; tick?: unknown }) => void) => {
    channel.handler = handler
  },
}))

const pair = BTC_USDT
const at = new Date(2024, 0, 2, 9, 5, 7).getTime()
const trade = (id: number, price: string, vol: string, side: 'BUY' | 'SELL' = 'BUY'): MarketTrade => ({ id: String(id), side, price, vol, ts: at + id * 1000 })

const rowsOf = () => Array.from(screen.getByTestId('trades-list').querySelectorAll('[data-row]'))

describe('RecentTrades', () => {
  beforeEach(() => {
    apiData.mockReset()
    channel.handler = undefined
  })

  it('shows price, amount and time under headers with their units', async () => {
    apiData.mockResolvedValue([trade(2, '30123.456', '0.1234567', 'SELL'), trade(1, '30000', '1.5')])
    renderWithApp(<RecentTrades pair={pair} />)
    const list = await screen.findByRole('region', { name: 'Recent trades' })
    const panel = screen.getByTestId('recent-trades')
    expect(within(panel).getByText('Price (USDT)')).toBeTruthy()
    expect(within(panel).getByText('Amount (BTC)')).toBeTruthy()
    expect(within(panel).getByText('Time')).toBeTruthy()
    const rows = within(list).getAllByTestId('market-trade')
    // Prices at the pair's price places and grouped, amounts at its volume places; the side in words too.
    expect(Array.from(rows[0].children, (c) => c.textContent)).toEqual(['Sell 30,123.46', '0.123457', '09:05:09'])
    expect(Array.from(rows[1].children, (c) => c.textContent)).toEqual(['Buy 30,000.00', '1.500000', '09:05:08'])
  })

  it('keeps a fixed number of rows as trades arrive', async () => {
    apiData.mockResolvedValue([trade(1, '100', '1')])
    renderWithApp(<RecentTrades pair={pair} rows={5} />)
    await screen.findByTestId('market-trade')
    expect(rowsOf()).toHaveLength(5)
    // The empty places are hidden from screen readers.
    expect(rowsOf().slice(1).every((r) => r.getAttribute('aria-hidden') === 'true')).toBe(true)
    act(() => channel.handler?.({ data: [trade(2, '101', '0.5'), trade(3, '102', '0.25', 'SELL')] }))
    await waitFor(() => expect(screen.getAllByTestId('market-trade')).toHaveLength(3))
    expect(rowsOf()).toHaveLength(5)
    expect(screen.getAllByTestId('market-trade')[0].textContent).toContain('102.00')
    // More trades than rows scroll inside the same window.
    act(() => channel.handler?.({ data: [4, 5, 6, 7].map((id) => trade(id, '103', '1')) }))
    await waitFor(() => expect(screen.getAllByTestId('market-trade')).toHaveLength(7))
    expect(rowsOf()).toHaveLength(7)
    expect(getComputedStyle(screen.getByTestId('trades-list')).height).toBe('100px')
    expect(getComputedStyle(screen.getByTestId('trades-list')).overflowY).toBe('auto')
  })

  it('fills its parent: as many rows as fit the measured height', async () => {
    apiData.mockResolvedValue([trade(1, '100', '1')])
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 130, width: 280 } as DOMRect)
    try {
      renderWithApp(<RecentTrades pair={pair} rows={20} fill />)
      await screen.findByTestId('market-trade')
      await waitFor(() => expect(rowsOf()).toHaveLength(6))
    } finally {
      rect.mockRestore()
    }
  })

  it('falls back to the rows asked for where nothing is measured', async () => {
    apiData.mockResolvedValue([trade(1, '100', '1')])
    renderWithApp(<RecentTrades pair={pair} rows={8} fill />)
    await screen.findByTestId('market-trade')
    expect(rowsOf()).toHaveLength(8)
  })

  it('says it in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    apiData.mockResolvedValue([trade(1, '100', '1', 'SELL')])
    renderWithApp(<RecentTrades pair={pair} />)
    const list = await screen.findByRole('region', { name: 'Сүүлийн арилжаа' })
    const panel = screen.getByTestId('recent-trades')
    expect(within(panel).getByText('Үнэ (USDT)')).toBeTruthy()
    expect(within(panel).getByText('Тоо хэмжээ (BTC)')).toBeTruthy()
    expect(within(panel).getByText('Цаг')).toBeTruthy()
    expect(within(list).getByTestId('market-trade').textContent).toMatch(/^Зарах 100\.00/)
  })
})

describe('mergeTrades', () => {
  it('puts pushed trades first, newest first, without duplicates, keeping 50', () => {
    // The list as it is kept: newest first.
    const old = Array.from({ length: 50 }, (_, i) => trade(49 - i, '1', '1'))
    const merged = mergeTrades([trade(60, '2', '1'), trade(61, '2', '1'), old[0]], old)
    expect(merged.slice(0, 4).map((t) => t.id)).toEqual(['61', '60', '49', '48'])
    expect(merged).toHaveLength(50)
  })
})
