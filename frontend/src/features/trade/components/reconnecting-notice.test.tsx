import { act, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeMarketSocket } from '@/test/fake-market-socket'
import { renderWithApp } from '@/test/render'
import { ReconnectingNotice } from './reconnecting-notice'

describe('ReconnectingNotice', () => {
  const { socket, sockets } = fakeMarketSocket({ baseDelay: 10 })
  afterEach(() => socket.close())

  it('says "Reconnecting…" while the market socket is down and goes away when it is back', async () => {
    socket.subscribe('market_btcusdt_depth_step0', () => {})
    act(() => sockets[0].open())
    renderWithApp(<ReconnectingNotice socket={socket} />)
    const region = await screen.findByRole('status')
    expect(screen.queryByTestId('market-reconnecting')).toBeNull()
    act(() => sockets[0].drop())
    expect((await screen.findByTestId('market-reconnecting')).textContent).toContain('Reconnecting…')
    expect(region.contains(screen.getByTestId('market-reconnecting'))).toBe(true)
    await waitFor(() => expect(sockets).toHaveLength(2))
    act(() => sockets[1].open())
    await waitFor(() => expect(screen.queryByTestId('market-reconnecting')).toBeNull())
  })

  it('speaks Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    socket.subscribe('market_btcusdt_ticker', () => {})
    const s = sockets.at(-1)!
    act(() => s.open())
    renderWithApp(<ReconnectingNotice socket={socket} />)
    act(() => s.drop())
    expect((await screen.findByTestId('market-reconnecting')).textContent).toContain('Дахин холбогдож байна…')
  })
})
