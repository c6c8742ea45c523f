import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { isRedirect, type ParsedLocation } from '@tanstack/react-router'

vi.mock('./request-client', async (orig) => ({
  ...(await orig<typeof import('./request-client')>()),
  apiPost: vi.fn(),
}))

import { loginHref, redirectIfSignedIn, requireAuth, safeRedirect } from './auth-guard'
import { apiPost } from './request-client'

const loc = (href: string) => ({ href, pathname: href.split('?')[0], search: {} }) as unknown as ParsedLocation

describe('login redirect helpers', () => {
  it('encodes the path into ?redirect=', () => {
    expect(loginHref('/p2p/profile?uid=5')).toBe('/auth/login?redirect=%2Fp2p%2Fprofile%3Fuid%3D5')
  })

  it('accepts only in-app paths', () => {
    expect(safeRedirect('/wallet')).toBe('/wallet')
    expect(safeRedirect('%2Fp2p%2Fprofile%3Fuid%3D5')).toBe('/p2p/profile?uid=5')
    expect(safeRedirect('https://evil.example')).toBe('/')
    expect(safeRedirect('//evil.example')).toBe('/')
    expect(safeRedirect(undefined)).toBe('/')
    expect(safeRedirect(42)).toBe('/')
  })
})

describe('requireAuth', () => {
  it('sends anonymous users to /auth/login with the path', async () => {
    vi.mocked(apiPost).mockResolvedValueOnce({ code: '10002', msg: '', data: null })
    const queryClient = new QueryClient()
    const err = await requireAuth({ context: { queryClient }, location: loc('/profile/security?tab=2') }).catch((e: unknown) => e)
    expect(isRedirect(err)).toBe(true)
    expect((err as { options: { href: string } }).options.href).toBe('/auth/login?redirect=%2Fprofile%2Fsecurity%3Ftab%3D2')
  })

  it('lets signed-in users through with their info', async () => {
    vi.mocked(apiPost).mockResolvedValueOnce({ code: '0', msg: 'ok', data: { id: 7, email: 'a@b.mn' } })
    const queryClient = new QueryClient()
    await expect(requireAuth({ context: { queryClient }, location: loc('/wallet') })).resolves.toEqual({
      user: { id: 7, email: 'a@b.mn' },
    })
  })

  it('redirectIfSignedIn sends a signed-in user to the redirect target', async () => {
    vi.mocked(apiPost).mockResolvedValueOnce({ code: '0', msg: 'ok', data: { id: 7 } })
    const queryClient = new QueryClient()
    const location = { href: '/auth/login', pathname: '/auth/login', search: { redirect: '/wallet' } } as unknown as ParsedLocation
    const err = await redirectIfSignedIn({ context: { queryClient }, location }).catch((e: unknown) => e)
    expect(isRedirect(err)).toBe(true)
    expect((err as { options: { href: string } }).options.href).toBe('/wallet')
  })
})

describe('safeRedirect hardening', () => {
  it('refuses paths browsers would turn into another origin', () => {
    for (const v of ['/\t/evil.example', '/\\evil.example', '/\n/evil.example', '%2F%2Fevil.example', '/ /x']) {
      expect(safeRedirect(v)).toBe('/')
    }
    expect(safeRedirect('/wallet/history?tab=deposit#top')).toBe('/wallet/history?tab=deposit#top')
  })
})
