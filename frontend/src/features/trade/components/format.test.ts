import { describe, expect, it } from 'vitest'
import { changeColor, chartPriceFormatter, formatFee, formatRose, localChartTime } from './format'
import { stepSize } from './order-book'
import { mergeTrades } from './recent-trades'

describe('trade display helpers', () => {
  it("labels the chart's prices at the pair's places, grouped like the rest of the page", () => {
    expect(chartPriceFormatter(0)(334884288)).toBe('334,884,288')
    expect(chartPriceFormatter(2)(97074.37)).toBe('97,074.37')
    expect(chartPriceFormatter(2)(97600)).toBe('97,600.00')
    expect(chartPriceFormatter(5)(0.24721)).toBe('0.24721')
  })
  it('formats and colours the 24 h change', () => {
    expect(formatRose('0.0123')).toBe('+1.23%')
    expect(formatRose('-0.5')).toBe('-50.00%')
    expect(formatRose(undefined)).toBe('—')
    expect(changeColor('0.01')).toBe('up')
    expect(changeColor('-0.01')).toBe('down')
    expect(changeColor('0')).toBe('fg')
  })
  it('shows a change that rounds to 0.00% neutral and without a sign', () => {
    for (const tiny of ['0.00001', '0.000049', '-0.00003', '-0']) {
      expect(formatRose(tiny)).toBe('0.00%')
      expect(changeColor(tiny)).toBe('fg')
    }
    // Just enough to show as 0.01% keeps its sign and colour.
    expect(formatRose('0.00006')).toBe('+0.01%')
    expect(changeColor('0.00006')).toBe('up')
    expect(formatRose('-0.00006')).toBe('-0.01%')
    expect(changeColor('-0.00006')).toBe('down')
    expect(formatRose('1.5')).toBe('+150.00%')
    expect(changeColor(undefined)).toBe('fg')
  })
  it('lines fees up at 8 places with their coin', () => {
    expect(formatFee('0.0000003', 'BTC')).toBe('0.00000030 BTC')
    expect(formatFee('0.01030423', 'USDT')).toBe('0.01030423 USDT')
    expect(formatFee('', 'BTC')).toBe('—')
  })
  it('moves chart times so the UTC axis reads the local wall clock', () => {
    // Ulaanbaatar is UTC+8: getTimezoneOffset() is -480 there.
    expect(localChartTime(1_700_000_000, -480)).toBe(1_700_000_000 + 8 * 3600)
    expect(localChartTime(1_700_000_000, 0)).toBe(1_700_000_000)
    const t = 1_795_270_500
    const shifted = new Date(localChartTime(t) * 1000)
    const local = new Date(t * 1000)
    expect([shifted.getUTCHours(), shifted.getUTCMinutes()]).toEqual([local.getHours(), local.getMinutes()])
  })
  it('derives the depth merge steps from the tick', () => {
    expect(stepSize('0.01', 0)).toBe('0.01')
    expect(stepSize('0.01', 1)).toBe('0.1')
    expect(stepSize('0.01', 2)).toBe('1')
    expect(stepSize('0.5', 2)).toBe('50')
    // The server's grids, when the market document gives them.
    expect(stepSize('0.01', 1, ['0.01', '10', '100'])).toBe('10')
    expect(stepSize('1', 2, ['1', '10000', '100000'])).toBe('100000')
  })
  it('merges pushed trades newest first without duplicates', () => {
    const t = (id: string, ts: number) => ({ id, ts, side: 'BUY' as const, price: '1', vol: '1' })
    const merged = mergeTrades([t('c', 3), t('d', 4)], [t('c', 3), t('b', 2), t('a', 1)])
    expect(merged.map((x) => x.id)).toEqual(['d', 'c', 'b', 'a'])
  })
})
