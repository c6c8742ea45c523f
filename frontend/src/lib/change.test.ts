import { describe, expect, it } from 'vitest'
import { changeColor, formatRose } from './change'

describe('24 h change', () => {
  it('shows a change that rounds to zero without a sign, in the neutral token the caller names', () => {
    expect(formatRose('0.00001')).toBe('0.00%')
    expect(formatRose('-0.00001')).toBe('0.00%')
    expect(changeColor('0.00001', 'fg.muted')).toBe('fg.muted')
    expect(changeColor(undefined, 'fg.muted')).toBe('fg.muted')
    expect(changeColor('0.0052', 'fg.muted')).toBe('up')
    expect(changeColor('-0.0052', 'fg.muted')).toBe('down')
    expect(formatRose('0.0052')).toBe('+0.52%')
  })
})
