import { describe, expect, it } from 'vitest'
import { translate } from '@/lib/i18n'
import { formatPrice, formatVolume } from './market-format'

describe('market figures', () => {
  it('shows prices at the pair\'s places, or as sent', () => {
    expect(formatPrice('97500.5', 2)).toBe('97,500.50')
    expect(formatPrice('0.2475', undefined)).toBe('0.2475')
    expect(formatPrice(undefined, 2)).toBe('—')
  })

  it('shows volumes with 2 decimals, in millions and billions from a million on, in each language', () => {
    const en = (key: string, vars?: Record<string, string | number>) => translate('home', 'en_US', undefined, key, vars)
    const mn = (key: string, vars?: Record<string, string | number>) => translate('home', 'mn_MN', undefined, key, vars)
    expect(formatVolume('20.2258067', en)).toBe('20.23')
    expect(formatVolume('523456.785', en)).toBe('523,456.79')
    expect(formatVolume('999999.999', en)).toBe('1.00M')
    expect(formatVolume('12345678.9', en)).toBe('12.35M')
    expect(formatVolume('3400000000', en)).toBe('3.40B')
    expect(formatVolume('1234567890123', en)).toBe('1,234.57B')
    expect(formatVolume('12345678.9', mn)).toBe('12.35 сая')
    expect(formatVolume('3400000000', mn)).toBe('3.40 тэрбум')
    expect(formatVolume('0', en)).toBe('0.00')
    expect(formatVolume(undefined, en)).toBe('—')
  })
})
