import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { TradePair } from '../api/trade-api'
import { BTC_USDT } from '../test-pair'
import { TradeHeader } from './trade-header'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('../api/use-market-channel', () => ({ useMarketChannel: () => {} }))

// The coin list's places: USDT 6, MNT 2 (a BTC/MNT price has none).
const btcUsdt: TradePair = { ...BTC_USDT, quotePlaces: 6 }
const btcMnt: TradePair = { ...BTC_USDT, symbol: 'btcmnt', routeSymbol: 'BTC_MNT', showName: 'BTC/MNT', quote: 'MNT', pricePrecision: 0, priceTick: '1', quotePlaces: 2 }

let amount = '0'

describe('TradeHeader', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) =>
      path.endsWith('/market/ticker') ? { open: '96000', high: '98272.44', low: '96383.39', close: '96535.83', vol: '0.037738', amount, rose: '-0.009' } : {},
    )
  })

  it.each([
    ['BTC/USDT at the 6 places of USDT', btcUsdt, '3676.821234', '3,676.821234'],
    ['BTC/MNT at the 2 places of MNT, not the price\'s none', btcMnt, '3010284.187', '3,010,284.19'],
    ['a pair whose coin places are not known at its price\'s', { ...btcUsdt, quotePlaces: undefined }, '3676.821234', '3,676.82'],
  ])('shows the 24 h turnover of %s', async (_name, pair, value, shown) => {
    amount = value
    renderWithApp(<TradeHeader pair={pair} pairs={[pair]} />)
    expect(await screen.findByText(shown)).toBeTruthy()
    expect(screen.getByTestId('ticker-turnover').textContent).toBe(shown)
  })
})
