import { describe, expect, it } from 'vitest'
import { bookSides, clampLevels, cumulate, levelsThatFit, padRows, rowsThatFit, sideCounts, spreadOf } from './book'

describe('cumulate', () => {
  it('sums the amounts from the best level outward, exactly in decimals', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floats.
    const levels = cumulate(
      [
        ['101.00', '0.1'],
        ['102.00', '0.2'],
        ['103.00', '1.000001'],
        ['104.00', '5'],
      ],
      3,
    )
    expect(levels.map((l) => [l.price, l.amount, l.total])).toEqual([
      ['101.00', '0.1', '0.1'],
      ['102.00', '0.2', '0.3'],
      ['103.00', '1.000001', '1.300001'],
    ])
  })

  it('keeps large totals exact', () => {
    const levels = cumulate(
      [
        ['1', '9007199254740993.5'],
        ['2', '0.5'],
      ],
      2,
    )
    expect(levels[1].total).toBe('9007199254740994.0')
  })

  it('counts an amount that is not a number as nothing', () => {
    expect(cumulate([['1', 'x'], ['2', '1.5']], 5).map((l) => l.total)).toEqual(['0', '1.5'])
    expect(cumulate(undefined, 5)).toEqual([])
  })
})

describe('bookSides', () => {
  const book = {
    asks: [
      ['101.00', '0.25'],
      ['102.00', '0.5'],
      ['103.00', '1'],
    ] as [string, string][],
    buys: [
      ['100.00', '0.5'],
      ['99.00', '2'],
      ['98.00', '1.5'],
    ] as [string, string][],
  }

  it('draws depth bars against the largest total shown on either side', () => {
    const { asks, bids } = bookSides(book, { asks: 3, bids: 3 })
    expect(asks.map((l) => l.total)).toEqual(['0.25', '0.75', '1.75'])
    expect(bids.map((l) => l.total)).toEqual(['0.5', '2.5', '4.0'])
    expect(bids.map((l) => l.depth)).toEqual([0.125, 0.625, 1])
    expect(asks.map((l) => l.depth)).toEqual([0.0625, 0.1875, 0.4375])
  })

  it('measures the bars against the rows shown only', () => {
    const { asks, bids } = bookSides(book, { asks: 2, bids: 0 })
    expect(bids).toEqual([])
    expect(asks.map((l) => [l.total, l.depth])).toEqual([
      ['0.25', 0.3333],
      ['0.75', 1],
    ])
  })

  it('gives no bars to a book of zero amounts', () => {
    expect(bookSides({ asks: [['1', '0']], buys: [] }, { asks: 1, bids: 1 }).asks[0].depth).toBe(0)
  })
})

describe('views and rows', () => {
  it('shows n a side in both, 2n of one side otherwise', () => {
    expect(sideCounts('both', 12)).toEqual({ asks: 12, bids: 12 })
    expect(sideCounts('bids', 12)).toEqual({ asks: 0, bids: 24 })
    expect(sideCounts('asks', 12)).toEqual({ asks: 24, bids: 0 })
  })

  it('keeps the levels per side within 1..20', () => {
    expect(clampLevels(50)).toBe(20)
    expect(clampLevels(0)).toBe(1)
    expect(clampLevels(7.9)).toBe(7)
    expect(clampLevels(undefined)).toBe(12)
    expect(sideCounts('asks', 30)).toEqual({ asks: 40, bids: 0 })
  })

  it('fits the levels to a measured height, or falls back to the rows asked for', () => {
    // 2 × 10 rows of 20 px and the 32 px spread row.
    expect(levelsThatFit(432, 12)).toBe(10)
    expect(levelsThatFit(471, 12)).toBe(10)
    expect(levelsThatFit(472, 12)).toBe(11)
    expect(levelsThatFit(5000, 12)).toBe(20)
    expect(levelsThatFit(0, 8)).toBe(8)
    expect(levelsThatFit(undefined, undefined)).toBe(12)
    expect(rowsThatFit(410, 20, 50)).toBe(20)
    expect(rowsThatFit(undefined, 15, 50)).toBe(15)
    expect(rowsThatFit(5000, 15, 50)).toBe(50)
  })

  it('pads to a fixed count of rows', () => {
    expect(padRows(['a', 'b'], 4)).toEqual(['a', 'b', undefined, undefined])
    expect(padRows(['a', 'b', 'c'], 2)).toEqual(['a', 'b'])
    expect(padRows([], 0)).toEqual([])
  })
})

describe('spreadOf', () => {
  it('is best ask − best bid at the price places and as a percentage of the mid', () => {
    expect(spreadOf('101.00', '100.00', 2)).toEqual({ value: '1.00', percent: '1.00%' })
    // mid 30,000.005; 0.01 of it is 0.0000333%.
    expect(spreadOf('30000.01', '30000.00', 2)).toEqual({ value: '0.01', percent: '<0.01%' })
    expect(spreadOf('1234.5', '1000', 1)).toEqual({ value: '234.5', percent: '20.99%' })
  })

  it('groups a large spread and rounds to the places shown', () => {
    expect(spreadOf('335000000', '334000000', 0)).toEqual({ value: '1,000,000', percent: '0.30%' })
    expect(spreadOf('0.3', '0.1', 0)).toEqual({ value: '0', percent: '100.00%' })
  })

  it('is undefined without both sides', () => {
    expect(spreadOf(undefined, '100', 2)).toBeUndefined()
    expect(spreadOf('100', undefined, 2)).toBeUndefined()
  })
})
