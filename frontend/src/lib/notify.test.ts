import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const toaster = vi.hoisted(() => ({ create: vi.fn(), isVisible: vi.fn(() => false) }))
vi.mock('@/components/ui/toaster', () => ({ TOAST_DURATION_MS: 5000, toaster }))

import { setCookie } from './cookies'
import {
  notifyError,
  notifyUnreachable,
  reportReachable,
  reportUnreachable,
  UNREACHABLE_GRACE_MS,
  UNREACHABLE_QUIET_MS,
  UNREACHABLE_TOAST_ID,
} from './notify'

const unreachableToasts = () => toaster.create.mock.calls.filter(([t]) => (t as { id?: string }).id === UNREACHABLE_TOAST_ID)

describe('the "exchange unreachable" notice', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    toaster.create.mockClear()
    toaster.isVisible.mockReturnValue(false)
    // Each test starts with a reachable exchange.
    reportReachable()
  })
  afterEach(() => {
    vi.runOnlyPendingTimers()
    vi.useRealTimers()
  })

  it('shows one error toast, in the catalogue text, for a burst of failed requests', () => {
    for (let i = 0; i < 6; i++) reportUnreachable()
    expect(toaster.create).not.toHaveBeenCalled()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(toaster.create).toHaveBeenCalledTimes(1)
    expect(toaster.create.mock.calls[0][0]).toMatchObject({
      id: UNREACHABLE_TOAST_ID,
      type: 'error',
      title: 'The exchange could not be reached. Check your connection and try again.',
      duration: 5000,
      closable: true,
    })
    // Polling that keeps failing does not bring it back every few seconds.
    vi.advanceTimersByTime(10_000)
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(toaster.create).toHaveBeenCalledTimes(1)
  })

  it('speaks Mongolian in mn_MN', () => {
    setCookie('lan', 'mn_MN')
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(toaster.create.mock.calls[0][0]).toMatchObject({
      title: 'Биржтэй холбогдож чадсангүй. Интернэт холболтоо шалгаад дахин оролдоно уу.',
    })
  })

  it('stays quiet when the screen toasted its own notice (trade, orders)', () => {
    reportUnreachable()
    notifyError('The exchange could not be reached. Check your open orders and try again.')
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(unreachableToasts()).toHaveLength(0)
    expect(toaster.create).toHaveBeenCalledTimes(1)
    // ... and the polls failing after it do not add the general one either.
    vi.advanceTimersByTime(5_000)
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(unreachableToasts()).toHaveLength(0)
  })

  it('tells a new outage again once a request got an answer, and a long one again after a while', () => {
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    reportReachable()
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(unreachableToasts()).toHaveLength(2)
    vi.advanceTimersByTime(UNREACHABLE_QUIET_MS)
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(unreachableToasts()).toHaveLength(3)
  })

  it('a user action shows it at once, but not twice while it is on screen', () => {
    notifyUnreachable()
    expect(unreachableToasts()).toHaveLength(1)
    toaster.isVisible.mockReturnValue(true)
    notifyUnreachable()
    reportUnreachable()
    vi.advanceTimersByTime(UNREACHABLE_GRACE_MS)
    expect(unreachableToasts()).toHaveLength(1)
  })
})
