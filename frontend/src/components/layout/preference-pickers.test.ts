import { describe, expect, it, vi } from 'vitest'
import { getCookie } from '@/lib/cookies'
import { changeCurrency, changeLanguage } from './preference-pickers'

describe('language and currency pickers', () => {
  it('write the cookie and reload', () => {
    const reload = vi.fn()
    changeLanguage('mn_MN', reload)
    expect(getCookie('lan')).toBe('mn_MN')
    changeCurrency('MNT', reload)
    expect(getCookie('user_Currency')).toBe('MNT')
    expect(reload).toHaveBeenCalledTimes(2)
  })

  it('do nothing when the value does not change', () => {
    const reload = vi.fn()
    changeLanguage('en_US', reload)
    changeCurrency('USD', reload)
    expect(reload).not.toHaveBeenCalled()
    expect(getCookie('lan')).toBeUndefined()
  })
})
