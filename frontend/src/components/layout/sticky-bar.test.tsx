import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { TOP_BAR_ATTR } from '@/components/ui/toaster'
import { getCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { StickyBar } from './sticky-bar'

describe('StickyBar', () => {
  it('closes and remembers it in the stickyBar cookie', async () => {
    const { unmount } = renderWithApp(<StickyBar />)
    fireEvent.click(await screen.findByTestId('sticky-bar-close'))
    expect(screen.queryByTestId('sticky-bar')).toBeNull()
    expect(getCookie('stickyBar')).toBe('1')
    unmount()
    renderWithApp(
      <>
        <span data-testid="rendered" />
        <StickyBar />
      </>,
    )
    await screen.findByTestId('rendered')
    expect(screen.queryByTestId('sticky-bar')).toBeNull()
  })

  it('links to the announcements page with the language prefix', async () => {
    renderWithApp(<StickyBar />)
    const bar = await screen.findByTestId('sticky-bar')
    expect(bar.querySelector('a')?.getAttribute('href')).toBe('/mn_MN/announcements')
  })

  it('is a top bar: toasts sit below it, clear of its close button', async () => {
    renderWithApp(<StickyBar />)
    expect((await screen.findByTestId('sticky-bar')).hasAttribute(TOP_BAR_ATTR)).toBe(true)
  })
})
