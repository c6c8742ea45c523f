import { expect } from 'vitest'
import { system } from '@/components/ui/theme'

/** Test helpers for colour contrast (WCAG 2) of the app's theme. */

export type Mode = 'light' | 'dark'

/** A colour as Chakra style props take it: a token or #rrggbb, or one per theme. */
export type Themed = string | { _light: string; _dark: string }

const vars = (system.tokens as unknown as { cssVarMap: Map<string, Map<string, string>> }).cssVarMap

/**
 * A colour ('#087f5b', 'white', 'green.700', a semantic token such as 'up'
 * or 'bg.panel', or a per-theme pair of them) as #rrggbb in a theme.
 */
export function themeColor(color: Themed, mode: Mode): string {
  let value = typeof color === 'string' ? color : color[`_${mode}`]
  if (!value.startsWith('#')) value = String(system.token(`colors.${value}`, value))
  // Semantic tokens resolve to CSS variables, per theme.
  for (let i = 0; i < 10 && value.startsWith('var('); i++) {
    const name = /^var\((--[^,)]+)/.exec(value)![1]
    value = vars.get(mode === 'dark' ? '_dark' : '_light')?.get(name) ?? vars.get('base')?.get(name) ?? value
  }
  if (value.toLowerCase() === 'white') return '#ffffff'
  if (value.toLowerCase() === 'black') return '#000000'
  expect(value, `colour ${JSON.stringify(color)} in the ${mode} theme`).toMatch(/^#[0-9a-f]{6}$/i)
  return value.toLowerCase()
}

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16)
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}
