import { act, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { renderWithApp } from '@/test/render'
import { BTC_USDT } from '../test-pair'
import { usePriceTitle } from './use-price-title'

let setPrice: (price: string | undefined) => void = () => {}

function Probe({ initial, pair = BTC_USDT }: { initial?: string; pair?: typeof BTC_USDT }) {
  const [price, set] = useState(initial)
  setPrice = set
  usePriceTitle(pair, price)
  return null
}

describe('usePriceTitle', () => {
  beforeEach(() => {
    document.title = 'Spot trading | Tenger Exchange'
  })
  afterEach(() => {
    document.title = ''
  })

  it('shows the live price at the pair places, grouped, and follows the ticker', async () => {
    renderWithApp(<Probe initial="64210.5" />)
    await waitFor(() => expect(document.title).toBe('64,210.50 | BTC/USDT | Tenger'))
    act(() => setPrice('64300.126'))
    expect(document.title).toBe('64,300.13 | BTC/USDT | Tenger')
    const mnt = { ...BTC_USDT, showName: 'BTC/MNT', pricePrecision: 0 }
    renderWithApp(<Probe initial="334884288.4" pair={mnt} />)
    await waitFor(() => expect(document.title).toBe('334,884,288 | BTC/MNT | Tenger'))
  })

  it("gives the page's title back when the trade page is left", async () => {
    const { unmount } = renderWithApp(<Probe initial="64210.5" />)
    await waitFor(() => expect(document.title).toBe('64,210.50 | BTC/USDT | Tenger'))
    unmount()
    expect(document.title).toBe('Spot trading | Tenger Exchange')
  })

  it('keeps the page title until a price is known', async () => {
    renderWithApp(<Probe />)
    await act(async () => {})
    expect(document.title).toBe('Spot trading | Tenger Exchange')
    act(() => setPrice('1.5'))
    expect(document.title).toBe('1.50 | BTC/USDT | Tenger')
    act(() => setPrice(undefined))
    expect(document.title).toBe('Spot trading | Tenger Exchange')
  })

  it("writes the price over a page title set after it (page-meta on a pair switch), and gives that one back", async () => {
    const { unmount } = renderWithApp(<Probe initial="64210.5" />)
    await waitFor(() => expect(document.title).toBe('64,210.50 | BTC/USDT | Tenger'))
    // The layout's page-meta effect runs after the header's on an address change.
    document.title = 'Spot trading (new) | Tenger Exchange'
    await waitFor(() => expect(document.title).toBe('64,210.50 | BTC/USDT | Tenger'))
    act(() => setPrice('65000'))
    expect(document.title).toBe('65,000.00 | BTC/USDT | Tenger')
    unmount()
    expect(document.title).toBe('Spot trading (new) | Tenger Exchange')
  })
})
