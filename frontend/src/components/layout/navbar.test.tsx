import { screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'

vi.mock('@/lib/request-client', async (orig) => ({
  ...(await orig<typeof import('@/lib/request-client')>()),
  apiPost: vi.fn(async () => ({ code: '10002', msg: '', data: null })),
}))

import { TOP_BAR_ATTR } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import { Navbar } from './navbar'

describe('Navbar', () => {
  it('is a top bar: toasts sit below it, clear of the account and preference buttons', async () => {
    renderWithApp(<Navbar />, { path: '/' })
    expect((await screen.findByTestId('desktop-navbar')).hasAttribute(TOP_BAR_ATTR)).toBe(true)
  })
})
