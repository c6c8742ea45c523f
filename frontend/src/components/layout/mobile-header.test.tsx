import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'

vi.mock('@/lib/request-client', async (orig) => ({
  ...(await orig<typeof import('@/lib/request-client')>()),
  apiPost: vi.fn(async () => ({ code: '10002', msg: '', data: null })),
}))

import { TOP_BAR_ATTR } from '@/components/ui/toaster'
import { apiPost } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { MobileHeader } from './mobile-header'

describe('MobileHeader', () => {
  it('is a top bar: toasts sit below it, clear of the logo and the menu button', async () => {
    renderWithApp(<MobileHeader />, { path: '/' })
    expect((await screen.findByTestId('mobile-header')).hasAttribute(TOP_BAR_ATTR)).toBe(true)
  })

  it('offers a sign-up link to visitors and opens the full-screen menu with login and sign-up', async () => {
    renderWithApp(<MobileHeader />, { path: '/' })
    expect(await screen.findByTestId('mobile-signup')).toHaveProperty('textContent', 'Sign up')
    fireEvent.click(screen.getByTestId('mobile-menu-button'))
    const menu = await screen.findByTestId('mobile-menu')
    expect(within(menu).getByTestId('mobile-menu-login').getAttribute('href')).toBe('/auth/login')
    expect(within(menu).getByTestId('mobile-menu-signup').getAttribute('href')).toBe('/auth/register')
    // Title sections: the second (Trade) is a plain heading, Markets is a link.
    expect(within(menu).getByTestId('mobile-section-title-markets').tagName).toBe('A')
    expect(within(menu).getByTestId('mobile-section-title-trade').tagName).toBe('H2')
    // Futures trading links go to /maintenance; the competition does not.
    expect(within(menu).getByTestId('mobile-item-futures-usdt').getAttribute('href')).toBe('/maintenance')
    expect(within(menu).getByTestId('mobile-item-futures-competition').getAttribute('href')).toBe('/futureBonus')
    expect(within(menu).queryByTestId('mobile-logout')).toBeNull()
    expect(within(menu).getByTestId('language-picker')).toBeTruthy()
    expect(within(menu).getByTestId('currency-picker')).toBeTruthy()
  })

  it('closes the menu on route change', async () => {
    const { router } = renderWithApp(<MobileHeader />, { path: '/' })
    fireEvent.click(await screen.findByTestId('mobile-menu-button'))
    await screen.findByTestId('mobile-menu')
    await act(() => router.navigate({ to: '/maintenance' as never }))
    await waitFor(() => expect(screen.queryByTestId('mobile-menu')).toBeNull())
  })

  it('shows account links and Logout to a signed-in user, and no deposit button while the wallet is not live', async () => {
    vi.mocked(apiPost).mockImplementation(async (path: string) =>
      path.endsWith('/common/user_info')
        ? { code: '0', msg: 'ok', data: { id: 42, email: 'bat@example.mn' } }
        : { code: '0', msg: 'ok', data: null },
    )
    renderWithApp(<MobileHeader />, { path: '/' })
    await waitFor(() => expect(screen.queryByTestId('mobile-signup')).toBeNull())
    expect(screen.queryByTestId('mobile-deposit')).toBeNull()
    fireEvent.click(screen.getByTestId('mobile-menu-button'))
    const menu = await screen.findByTestId('mobile-menu')
    expect(within(menu).getByText('bat@example.mn')).toBeTruthy()
    expect(within(menu).getByTestId('mobile-menu-profile').getAttribute('href')).toBe('/profile/security')
    expect(within(menu).getByTestId('mobile-menu-wallet').getAttribute('href')).toBe('/wallet')
    expect(within(menu).getByTestId('mobile-menu-orders')).toBeTruthy()
    expect(within(menu).getByTestId('mobile-logout')).toBeTruthy()
    expect(within(menu).queryByTestId('mobile-menu-login')).toBeNull()
  })
})
