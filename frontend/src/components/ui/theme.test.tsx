import { describe, expect, it } from 'vitest'
import { contrast, themeColor } from '@/test/contrast'
import { system } from './theme'

/** A semantic colour of the app's theme in a theme. */
const semantic = (name: string, mode: 'light' | 'dark'): string => themeColor(name, mode)
const gray = (shade: number) => themeColor(`gray.${shade}`, 'light')

describe('theme', () => {
  // Every disabled Chakra control uses layerStyle "disabled".
  it('greys a disabled control out instead of only dimming it', () => {
    const css = system.css({ layerStyle: 'disabled' }) as Record<string, unknown>
    expect(css.filter).toBe('grayscale(1)')
    expect(Number(css.opacity)).toBeLessThan(0.5)
    expect(css.cursor).toBe('not-allowed')
  })

  // The up colour is text (prices, "Buy") on the page, the panels and their subtle backgrounds: #0ca678 was 3.1:1 on white.
  it('reads the up colour as text at 4.5:1 at least in both themes', () => {
    expect(semantic('up', 'light')).toBe('#087f5b')
    expect(semantic('up', 'dark')).toBe('#20c997')
    for (const bg of ['#ffffff', gray(50), gray(100)]) expect(contrast(semantic('up', 'light'), bg), `light on ${bg}`).toBeGreaterThanOrEqual(4.5)
    for (const bg of ['#000000', gray(950), gray(900)]) expect(contrast(semantic('up', 'dark'), bg), `dark on ${bg}`).toBeGreaterThanOrEqual(4.5)
    expect(contrast(semantic('up', 'light'), '#ffffff')).toBeCloseTo(5.0, 1)
  })
})
