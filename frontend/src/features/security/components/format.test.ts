import { describe, expect, it } from 'vitest'
import { formatDateTime as appDateTime } from '@/features/orders/lib/order-format'
import { formatDateTime } from './format'

describe('security formatDateTime', () => {
  const ms = new Date(2026, 10, 28, 21, 57, 16).getTime()

  it("shows the app's common 'YYYY-MM-DD HH:mm:ss' in mn_MN as in en_US (not the 11/28/2026, 21:57:16 of Intl)", () => {
    expect(formatDateTime(ms, 'mn_MN')).toBe('2026-11-28 21:57:16')
    expect(formatDateTime(ms, 'en_US')).toBe('2026-11-28 21:57:16')
    expect(formatDateTime(ms, 'mn_MN')).toBe(appDateTime(ms))
  })

  it('shows a dash without a time', () => {
    expect(formatDateTime(undefined, 'mn_MN')).toBe('—')
    expect(formatDateTime(0, 'en_US')).toBe('—')
    expect(formatDateTime(Number.NaN, 'en_US')).toBe('—')
  })
})
