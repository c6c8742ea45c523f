import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithApp } from '@/test/render'
import { Footer } from './footer'

describe('Footer', () => {
  it('shows language-prefixed links (mn_MN by default) on ordinary pages', async () => {
    renderWithApp(<Footer />, { path: '/market' })
    const about = await screen.findByTestId('footer-link-about')
    expect(about.getAttribute('href')).toBe('/mn_MN/about')
    expect(screen.getByTestId('footer-link-help').getAttribute('href')).toBe('/mn_MN/support')
  })

  it('uses the lan cookie for the prefix and English texts for en_US', async () => {
    document.cookie = 'lan=en_US; path=/'
    renderWithApp(<Footer />, { path: '/' })
    const terms = await screen.findByTestId('footer-link-terms')
    expect(terms.getAttribute('href')).toBe('/en_US/terms')
    expect(terms.textContent).toBe('Terms of use')
  })

  it('hides itself on login and after navigating to a p2p path', async () => {
    const { router } = renderWithApp(<Footer />, { path: '/' })
    await screen.findByTestId('site-footer')
    await act(() => router.navigate({ to: '/p2p/trading' as never }))
    await waitFor(() => expect(screen.queryByTestId('site-footer')).toBeNull())
    await act(() => router.navigate({ to: '/auth/login' as never }))
    expect(screen.queryByTestId('site-footer')).toBeNull()
    await act(() => router.navigate({ to: '/staking' as never }))
    await screen.findByTestId('site-footer')
  })
})
