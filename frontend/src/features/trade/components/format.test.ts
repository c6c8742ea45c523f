import { describe, expect, it } from 'vitest'
import { changeColor, formatRose } from './format'
import { stepSize } from './order-book'
import { mergeTrades } from './recent-trades'

describe('trade display helpers', () => {
  it('formats and colours the 24 h change', () => {
    expect(formatRose('0.0123')).toBe('+1.23%')
    expect(formatRose('-0.5')).toBe('-50.00%')
    expect(formatRose(undefined)).toBe('—')
    expect(changeColor('0.01')).toBe('up')
    expect(changeColor('-0.01')).toBe('down')
    expect(changeColor('0')).toBe('fg')
  })
  it('derives the depth merge steps from the tick', () => {
    expect(stepSize('0.01', 0)).toBe('0.01')
    expect(stepSize('0.01', 1)).toBe('0.1')
    expect(stepSize('0.01', 2)).toBe('1')
    expect(stepSize('0.5', 2)).toBe('50')
  })
  it('merges pushed trades newest first without duplicates', () => {
    const t = (id: string, ts: number) => ({ id, ts, side: 'BUY' as const, price: '1', vol: '1' })
    const merged = mergeTrades([t('c', 3), t('d', 4)], [t('c', 3), t('b', 2), t('a', 1)])
    expect(merged.map((x) => x.id)).toEqual(['d', 'c', 'b', 'a'])
  })
})
