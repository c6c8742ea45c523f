/** Colours of the trade chart and the depth chart, per theme. */

export type ChartMode = 'light' | 'dark'

/**
 * Chart colours per theme: background, text and grid, the up/down colours
 * (the same values as the theme's `up` and `down` tokens), the accent of the
 * line and area charts and of drawings (the brand blue of the theme's
 * `brand.fg`), and the three indicator lines (MA 7/25/99, BOLL UP/MB/DN, DIF
 * DEA, VOL MA 5/10), each readable on its background (at least 4.5:1, as the
 * legend writes their values in them).
 */
export function chartColors(mode: ChartMode) {
  return mode === 'dark'
    ? {
        bg: '#111111',
        text: '#d4d4d8',
        grid: '#27272a',
        up: '#20c997',
        down: '#ff6b6b',
        accent: '#6ea2ff',
        lines: ['#ffa94d', '#e599f7', '#3bc9db'] as const,
      }
    : {
        bg: '#ffffff',
        text: '#3f3f46',
        grid: '#f4f4f5',
        up: '#087f5b',
        down: '#e03131',
        accent: '#0a52bd',
        lines: ['#c2410c', '#ae3ec9', '#0b7285'] as const,
      }
}

export type ChartColors = ReturnType<typeof chartColors>

/** A #rrggbb colour with an alpha byte ('#087f5b', 0x80 → '#087f5b80'). */
export function withAlpha(hex: string, alpha: number): string {
  return `${hex}${Math.round(Math.min(255, Math.max(0, alpha))).toString(16).padStart(2, '0')}`
}
