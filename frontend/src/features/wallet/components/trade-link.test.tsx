import { ChakraProvider } from '@chakra-ui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router'
import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { system } from '@/components/ui/theme'
import type { SpotRow } from '../api/wallet-api'

const row = (coin: string): SpotRow => ({
  coin,
  name: coin,
  total: '1',
  normal: '1',
  freeze: '0',
  overcharge_balance: '0',
  valuation: '1',
  btcValuation: '1',
  icon: '',
  longName: coin,
  showName: coin,
  showPrecision: 8,
  mainChainName: coin,
  depositOpen: false,
  withdrawOpen: false,
  isFiat: false,
})

vi.mock('../api/wallet-api', async (orig) => ({
  ...(await orig<typeof import('../api/wallet-api')>()),
  getRates: vi.fn(async () => ({})),
  getSpotBalances: vi.fn(async () => ({
    totalBalance: '2',
    totalBalanceSymbol: 'BTC',
    totalValuation: '2',
    currency: 'USD',
    lang_logo: '',
    coinList: [row('ETH'), row('USDT')],
  })),
}))

import { SpotView } from './wallet-views'

function renderSpot(withTradeRoute: boolean) {
  document.cookie = 'lan=en_US; path=/'
  const root = createRootRoute()
  const index = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: () => <SpotView hidden={false} openModal={() => {}} />,
  })
  const trade = createRoute({ getParentRoute: () => root, path: '/trade/$symbol', component: () => null })
  const router = createRouter({
    routeTree: root.addChildren(withTradeRoute ? [index, trade] : [index]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ChakraProvider value={system}>
        <RouterProvider router={router} />
      </ChakraProvider>
    </QueryClientProvider>,
  )
}

async function tradeHrefs(): Promise<string[]> {
  const links = await screen.findAllByRole('link', { name: 'Trade' })
  return [...new Set(links.map((a) => a.getAttribute('href') ?? ''))].sort()
}

describe('wallet Trade action', () => {
  it('goes to the spot maintenance page while the trade page has no route', async () => {
    renderSpot(false)
    expect(await tradeHrefs()).toEqual(['/maintenance?area=spot'])
  })

  it('goes to the coin USDT pair (BTC_USDT for USDT) once the trade route exists', async () => {
    renderSpot(true)
    expect(await tradeHrefs()).toEqual(['/trade/BTC_USDT', '/trade/ETH_USDT'])
  })
})
