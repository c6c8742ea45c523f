import { describe, expect, it } from 'vitest'
import { countryOptions } from './countries'
import { bundledCorporateTexts, CORPORATE_PAGES, corporateBundleLocale, corporateContentLan, corporatePage, loadCorporateTexts } from './texts-loader'

function keys(texts: object, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : keys(v as object, `${prefix}${k}.`)))
}

describe('corporate verification texts', () => {
  it('fall back to en-US for zh-CN (spec §5), where every other page uses mn-MN', () => {
    expect(corporateBundleLocale('zh_CN')).toBe('en-US')
    expect(corporateBundleLocale('zh-CN')).toBe('en-US')
    expect(corporateContentLan('zh_CN')).toBe('zh_CN')
    expect(corporateBundleLocale('mn_MN')).toBe('mn-MN')
    expect(corporateContentLan('mn_MN')).toBe('mn_MN')
    expect(corporateBundleLocale('en_US')).toBe('en-US')
    expect(corporateBundleLocale(undefined)).toBe('en-US')
  })

  it('are six content pages: the general one and one per step', () => {
    expect(corporatePage()).toBe('corporateVerification')
    expect(corporatePage(3)).toBe('corporateVerificationStep3')
    expect(CORPORATE_PAGES.every((p) => p.startsWith('corporateVerification'))).toBe(true)
  })

  it('load with the page, in both languages, with the same keys', async () => {
    await Promise.all([loadCorporateTexts('en-US'), loadCorporateTexts('mn-MN')])
    for (const page of CORPORATE_PAGES) {
      const en = bundledCorporateTexts('en-US', page)
      const mn = bundledCorporateTexts('mn-MN', page)
      expect(keys(en).length, page).toBeGreaterThan(3)
      expect(keys(mn).sort(), page).toEqual(keys(en).sort())
    }
    expect(bundledCorporateTexts('mn-MN', 'corporateVerification')).toMatchObject({ title: 'Байгууллагын баталгаажуулалт' })
  })

  it('name every country the server takes in both languages (browsers name regions in Mongolian only rarely)', async () => {
    await Promise.all([loadCorporateTexts('en-US'), loadCorporateTexts('mn-MN')])
    const mn = bundledCorporateTexts('mn-MN', 'corporateVerification').countries as Record<string, string>
    const en = bundledCorporateTexts('en-US', 'corporateVerification').countries as Record<string, string>
    const options = countryOptions('mn_MN', (code) => mn[code])
    expect(options).toHaveLength(249)
    expect(options[0]).toEqual({ code: 'MN', name: 'Монгол' })
    expect(options.every((o) => o.name && /[\u0400-\u04ff]/.test(o.name))).toBe(true)
    expect(en.DE).toBe('Germany')
    expect(mn.DE).toBe('Герман')
  })
})
