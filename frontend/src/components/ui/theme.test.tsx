import { describe, expect, it } from 'vitest'
import { system } from './theme'

describe('theme', () => {
  // Every disabled Chakra control uses layerStyle "disabled".
  it('greys a disabled control out instead of only dimming it', () => {
    const css = system.css({ layerStyle: 'disabled' }) as Record<string, unknown>
    expect(css.filter).toBe('grayscale(1)')
    expect(Number(css.opacity)).toBeLessThan(0.5)
    expect(css.cursor).toBe('not-allowed')
  })
})
