import { describe, expect, it } from 'vitest'
import { estimateMarket, slippageBeyond, type BookLevel } from './market-estimate'

const asks: BookLevel[] = [
  ['100', '1'],
  ['101', '2'],
  ['103', '5'],
]
const bids: BookLevel[] = [
  ['100', '0.5'],
  ['99', '0.5'],
  ['98', '1'],
]

describe('estimateMarket', () => {
  it('walks the asks of a buy by amount across several levels, exactly', () => {
    // 1 at 100 and 1.5 at 101: 251.5 for 2.5, 100.6 on average.
    expect(estimateMarket(asks, { amount: '2.5' }, { lot: '0.001' })).toEqual({
      amount: '2.5',
      total: '251.5',
      avgPrice: '100.6',
      bestPrice: '100',
      short: false,
      fundsOut: false,
    })
  })

  it('walks the bids of a sell, never through a float', () => {
    // 0.5 × 100 + 0.5 × 99 + 0.2 × 98 = 119.1 for 1.2.
    const est = estimateMarket(bids, { amount: '1.2' })!
    expect(est.total).toBe('119.1')
    expect(est.avgPrice).toBe('99.25')
    expect(est.short).toBe(false)
    // 0.1 + 0.2 stays 0.3 (a float sum would be 0.30000000000000004).
    const tiny = estimateMarket(
      [
        ['1', '0.1'],
        ['1', '0.2'],
      ],
      { amount: '0.3' },
    )!
    expect(tiny.amount).toBe('0.3')
    expect(tiny.total).toBe('0.3')
  })

  it('buys whole lots with a buy by total and leaves the dust unspent', () => {
    // 100 buys the first level (1); 50.5 left buys 0.5 at 101.
    const est = estimateMarket(asks, { total: '150.5' }, { lot: '0.01' })!
    expect(est.amount).toBe('1.5')
    expect(est.total).toBe('150.5')
    expect(est.avgPrice?.startsWith('100.333333')).toBe(true)
    expect(est.short).toBe(false)
    // 50.7 left would buy 0.50198…: only 0.50 on the lot grid.
    expect(estimateMarket(asks, { total: '150.7' }, { lot: '0.01' })!.amount).toBe('1.5')
    // Dust that cannot buy a lot after the last level is not a short book.
    expect(estimateMarket([['100', '1']], { total: '100.005' }, { lot: '0.01' })!.short).toBe(false)
  })

  it('says when the book cannot fill it, with what would fill', () => {
    const two: BookLevel[] = [
      ['100', '1'],
      ['101', '1'],
    ]
    expect(estimateMarket(two, { amount: '3' })).toMatchObject({ amount: '2', total: '201', short: true })
    expect(estimateMarket(two, { total: '1000' }, { lot: '0.01' })).toMatchObject({ amount: '2', total: '201', short: true })
    expect(estimateMarket(bids, { amount: '5' })).toMatchObject({ amount: '2', short: true })
    // An empty side: nothing fills.
    expect(estimateMarket([], { amount: '1' })).toEqual({ amount: '0', total: '0', avgPrice: undefined, bestPrice: undefined, short: true, fundsOut: false })
  })

  it('stops a buy by amount where the funds held for it run out', () => {
    const two: BookLevel[] = [
      ['100', '1'],
      ['110', '1'],
    ]
    // 155: 1 at 100, then 55 buys 0.5 at 110.
    expect(estimateMarket(two, { amount: '2' }, { lot: '0.01', budget: '155' })).toMatchObject({ amount: '1.5', total: '155', short: false, fundsOut: true })
    // Enough funds: no note.
    expect(estimateMarket(two, { amount: '2' }, { lot: '0.01', budget: '1000' })).toMatchObject({ amount: '2', total: '210', fundsOut: false })
  })

  it('has no estimate without a positive quantity, and skips broken levels', () => {
    expect(estimateMarket(asks, { amount: '' })).toBeUndefined()
    expect(estimateMarket(asks, { amount: '0' })).toBeUndefined()
    expect(estimateMarket(asks, { total: 'abc' })).toBeUndefined()
    const est = estimateMarket(
      [
        ['x', '1'],
        ['100', '0'],
        ['101', '1'],
      ],
      { amount: '1' },
    )!
    expect(est).toMatchObject({ amount: '1', total: '101', bestPrice: '101', short: false })
  })
})

describe('slippageBeyond', () => {
  it('does not count exactly 1% from the best price, and counts beyond it (a buy)', () => {
    const exact = estimateMarket(
      [
        ['100', '1'],
        ['102', '1'],
      ],
      { amount: '2' },
    )
    // 101 on average against 100: exactly 1%.
    expect(slippageBeyond('BUY', exact, 1)).toBeUndefined()
    const beyond = estimateMarket(
      [
        ['100', '1'],
        ['102.01', '1'],
      ],
      { amount: '2' },
    )
    // 101.005 on average: 1.005%, said at 2 places.
    expect(slippageBeyond('BUY', beyond, 1)).toBe('1.01')
  })

  it('counts a sell getting less than the best bid', () => {
    const exact = estimateMarket(
      [
        ['100', '1'],
        ['98', '1'],
      ],
      { amount: '2' },
    )
    expect(slippageBeyond('SELL', exact, 1)).toBeUndefined()
    const beyond = estimateMarket(
      [
        ['100', '1'],
        ['97.99', '1'],
      ],
      { amount: '2' },
    )
    expect(slippageBeyond('SELL', beyond, 1)).toBe('1.01')
    expect(slippageBeyond('SELL', estimateMarket(bids, { amount: '2' }), 1)).toBe('1.25')
  })

  it('has nothing to say without a fill', () => {
    expect(slippageBeyond('BUY', undefined, 1)).toBeUndefined()
    expect(slippageBeyond('BUY', estimateMarket([], { amount: '1' }), 1)).toBeUndefined()
  })
})
