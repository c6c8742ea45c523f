import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FAVOURITES_KEY } from '@/lib/storage'
import { renderWithApp } from '@/test/render'
import { MarketOverview } from './market-overview'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))

const market = {
  coinList: { BTC: { longName: 'Bitcoin' }, TON: { longName: 'Toncoin' }, USDT: { longName: 'Tether USD' } },
  market: {
    USDT: {
      'BTC/USDT': { name: 'BTC/USDT', showName: 'BTC/USDT', sort: 1, isOpenCross: true },
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

describe('MarketOverview', () => {
  beforeEach(() => {
    localStorage.clear()
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/market/tickers') ? tickers : market))
  })

  it('shows live prices, coloured changes and a trend line per pair, each pair linking to its trade page', async () => {
    renderWithApp(<MarketOverview as="page" />)
    const btc = await screen.findByTestId('market-row-BTC_USDT')
    await waitFor(() => expect(btc.textContent).toContain('97500.5'))
    expect(btc.textContent).toContain('+0.52%')
    expect(screen.getByTestId('market-row-TON_USDT').textContent).toContain('-0.93%')
    // One hourly close plus the 24 h open still draws a line, labelled for screen readers.
    await waitFor(() => expect(within(btc).getByRole('img', { name: /BTC\/USDT/ })).toBeTruthy())
    // The pair name is a link to the trade page (the only way in on a phone, where the Trade column is hidden).
    expect(screen.getByTestId('market-link-BTC_USDT').getAttribute('href')).toBe('/trade/BTC_USDT')
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
})
