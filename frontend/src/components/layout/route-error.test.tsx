import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { NetworkError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { isUnreachableError, RouteError } from './route-error'

describe('RouteError', () => {
  it('says the exchange cannot be reached when a page failed for want of an answer', async () => {
    document.cookie = 'lan=en_US; path=/'
    renderWithApp(<RouteError error={new NetworkError('Error: Network error')} reset={() => {}} />)
    expect((await screen.findByRole('heading')).textContent).toBe('The exchange cannot be reached')
    expect(screen.getByText('Check your connection, then try again.')).toBeTruthy()
  })

  it('says so in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<RouteError error={new NetworkError('Error: Network error')} reset={() => {}} />)
    expect((await screen.findByRole('heading')).textContent).toBe('Биржтэй холбогдох боломжгүй байна')
  })

  it('keeps the general text for other failures', async () => {
    document.cookie = 'lan=en_US; path=/'
    renderWithApp(<RouteError error={new Error('boom')} reset={() => {}} />)
    expect((await screen.findByRole('heading')).textContent).toBe('This page could not be shown')
  })

  it('counts a page whose code could not be fetched as unreachable', () => {
    expect(isUnreachableError(new TypeError('Failed to fetch dynamically imported module: /assets/wallet.js'))).toBe(true)
    expect(isUnreachableError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false)
  })
})
