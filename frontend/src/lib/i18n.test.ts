import { describe, expect, it } from 'vitest'
import { bundledPages, getBundledTexts, toBundleLocale } from './bundled-texts'
import type { Translations } from './content-client'
import { interpolate, lookup, translate } from './i18n'

function flatten(texts: Translations, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(texts)) {
    if (typeof v === 'string') out[prefix + k] = v
    else Object.assign(out, flatten(v, `${prefix}${k}.`))
  }
  return out
}

describe('text lookup', () => {
  it('resolves nested and dotted keys', () => {
    const texts = { hero: { title: 'Hi' }, 'flat.key': 'Flat' }
    expect(lookup(texts, 'hero.title')).toBe('Hi')
    expect(lookup(texts, 'flat.key')).toBe('Flat')
    expect(lookup(texts, 'hero')).toBeUndefined()
    expect(lookup(texts, 'hero.title.more')).toBeUndefined()
    expect(lookup(undefined, 'x')).toBeUndefined()
  })

  it('fills {placeholders} and leaves unknown ones', () => {
    expect(interpolate('Enter a {n}-digit code', { n: 6 })).toBe('Enter a 6-digit code')
    expect(interpolate('{a} and {b}', { a: 'x' })).toBe('x and {b}')
  })

  it('prefers server texts, then the bundled locale, then bundled en-US, never the raw key', () => {
    expect(translate('home', 'mn_MN', { hero: { title: 'Server' } }, 'hero.title')).toBe('Server')
    expect(translate('home', 'mn_MN', {}, 'hero.title')).toBe(lookup(getBundledTexts('home', 'mn-MN'), 'hero.title'))
    expect(translate('home', 'en_US', undefined, 'hero.title')).toBe(lookup(getBundledTexts('home', 'en-US'), 'hero.title'))
    expect(translate('home', 'en_US', undefined, 'no.such.key')).toBe('')
  })

  it('maps en_US to the en-US bundle and anything else to mn-MN', () => {
    expect(toBundleLocale('en_US')).toBe('en-US')
    expect(toBundleLocale('mn_MN')).toBe('mn-MN')
    expect(toBundleLocale('zh_CN')).toBe('mn-MN')
  })
})

describe('bundled texts', () => {
  const shellPages = ['common', 'home', 'navbar', 'footer', 'maintenance', 'info', 'download']

  it('bundles every page of the shell in both locales', () => {
    for (const page of shellPages) {
      expect(bundledPages('en-US')).toContain(page)
      expect(bundledPages('mn-MN')).toContain(page)
    }
  })

  it('has the same keys in Mongolian and English, written in Cyrillic', () => {
    for (const page of shellPages) {
      const en = flatten(getBundledTexts(page, 'en-US'))
      const mn = flatten(getBundledTexts(page, 'mn-MN'))
      expect(Object.keys(mn).sort(), page).toEqual(Object.keys(en).sort())
      const values = Object.values(mn)
      const cyrillic = values.filter((v) => /[\u0400-\u04FF]/.test(v))
      // Brand names, codes and e-mail addresses may stay Latin; prose must be Mongolian.
      expect(cyrillic.length / values.length, page).toBeGreaterThan(0.6)
    }
  })
})
