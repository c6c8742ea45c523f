import { describe, expect, it } from 'vitest'
import { footerHref, footerLanguage, isFooterHidden } from './footer-visibility'

describe('footer visibility (spec §2)', () => {
  it.each([
    '/auth/login',
    '/auth/register',
    '/trade/BTC_USDT',
    '/wallet',
    '/wallet/history',
    '/mn_MN/wallet/overview',
    '/en_US/newAssets/addressMent',
    '/futureBonus',
    '/futureBonus/rank',
    '/futures/BTCUSDT',
    '/futures/ETHUSDT',
    '/futures',
    '/p2p/trading',
    '/p2p/order-detail',
  ])('is hidden on %s', (path) => {
    expect(isFooterHidden(path)).toBe(true)
  })

  it.each(['/', '/market', '/maintenance', '/auth/forgot-password', '/staking', '/profile/security', '/order/otc', '/order/futures', '/futuresguide'])(
    'is shown on %s',
    (path) => {
      expect(isFooterHidden(path)).toBe(false)
    },
  )
})

describe('footer links', () => {
  it('are prefixed with the language code, mn_MN by default', () => {
    expect(footerLanguage(undefined)).toBe('mn_MN')
    expect(footerHref('/about', undefined)).toBe('/mn_MN/about')
    expect(footerHref('/terms', 'en_US')).toBe('/en_US/terms')
    expect(footerHref('fees', 'mn_MN')).toBe('/mn_MN/fees')
  })
})
