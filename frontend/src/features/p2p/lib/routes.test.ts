import type { ParsedLocation } from '@tanstack/react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RouterContext } from '@/lib/auth-guard'
import { keepSearch, requireSignIn } from './routes'

const guard = vi.hoisted(() => ({ requireAuth: vi.fn(async () => ({ user: { id: 1 } })) }))
vi.mock('@/lib/auth-guard', () => guard)

describe('the P2P routes', () => {
  afterEach(() => window.history.replaceState(null, '', '/'))

  it('sends a visitor to log in with the order id JSON-quoted, so the way back keeps all its digits', async () => {
    window.history.replaceState(null, '', '/p2p/order-detail?id=1796621569577037764')
    // The router's own reading of the address: the id as a number, digits lost.
    const location = { pathname: '/p2p/order-detail', href: '/p2p/order-detail?id=1796621569577037800' } as ParsedLocation
    const context = {} as RouterContext
    await requireSignIn({ context, location })
    expect(guard.requireAuth).toHaveBeenCalledWith({ context, location: { ...location, href: '/p2p/order-detail?id=%221796621569577037764%22' } })
  })

  it('keeps the router location when the address is another page, and the search values as they come', async () => {
    const location = { pathname: '/p2p/profile', href: '/p2p/profile?uid=42' } as ParsedLocation
    await requireSignIn({ context: {} as RouterContext, location })
    expect(guard.requireAuth).toHaveBeenLastCalledWith({ context: {}, location })
    expect(keepSearch({ id: 1 })).toEqual({ id: 1 })
  })
})
