import { describe, expect, it } from 'vitest'
import {
  canCancel,
  drawingsKey,
  drawReducer,
  logicalToTime,
  MAX_DRAWINGS,
  periodSeconds,
  readDrawings,
  timeToLogical,
  writeDrawings,
  type DrawState,
} from './drawings'

const empty: DrawState = { drawings: [] }
const p1 = { time: 1_700_000_000, price: 100 }
const p2 = { time: 1_700_000_900, price: 110 }

describe('drawReducer', () => {
  it('places a horizontal line with one click and puts the tool away', () => {
    let s = drawReducer(empty, { type: 'tool', tool: 'hline' })
    expect(s.tool).toBe('hline')
    s = drawReducer(s, { type: 'point', point: p1 })
    expect(s.drawings).toEqual([{ id: 'd1', kind: 'hline', price: 100 }])
    expect(s.tool).toBeUndefined()
    // A click without a tool draws nothing.
    expect(drawReducer(s, { type: 'point', point: p2 })).toBe(s)
  })

  it('draws a trend line with two clicks', () => {
    let s = drawReducer(empty, { type: 'tool', tool: 'trend' })
    s = drawReducer(s, { type: 'point', point: p1 })
    expect(s.pending).toEqual(p1)
    expect(s.drawings).toEqual([])
    // A second click on the very same point does not make a line of no length.
    expect(drawReducer(s, { type: 'point', point: { ...p1 } })).toBe(s)
    s = drawReducer(s, { type: 'point', point: p2 })
    expect(s.drawings).toEqual([{ id: 'd1', kind: 'trend', a: p1, b: p2 }])
    expect(s.pending).toBeUndefined()
    expect(s.tool).toBeUndefined()
  })

  it('Escape drops the half-drawn line first, then the tool, then has nothing to cancel', () => {
    let s = drawReducer(drawReducer(empty, { type: 'tool', tool: 'trend' }), { type: 'point', point: p1 })
    expect(canCancel(s)).toBe(true)
    s = drawReducer(s, { type: 'cancel' })
    expect(s).toEqual({ drawings: [], tool: 'trend' })
    s = drawReducer(s, { type: 'cancel' })
    expect(s).toEqual({ drawings: [] })
    expect(canCancel(s)).toBe(false)
    expect(drawReducer(s, { type: 'cancel' })).toBe(s)
  })

  it('picking the active tool again puts it away; another tool drops the half-drawn line', () => {
    let s = drawReducer(empty, { type: 'tool', tool: 'trend' })
    s = drawReducer(s, { type: 'point', point: p1 })
    s = drawReducer(s, { type: 'tool', tool: 'hline' })
    expect(s).toEqual({ drawings: [], tool: 'hline' })
    expect(drawReducer(s, { type: 'tool', tool: 'hline' }).tool).toBeUndefined()
  })

  it('clears every drawing, and gives new drawings new ids', () => {
    let s: DrawState = { drawings: [{ id: 'd4', kind: 'hline', price: 1 }] }
    s = drawReducer(drawReducer(s, { type: 'tool', tool: 'hline' }), { type: 'point', point: p2 })
    expect(s.drawings.map((d) => d.id)).toEqual(['d4', 'd5'])
    s = drawReducer(s, { type: 'clear' })
    expect(s.drawings).toEqual([])
  })

  it(`keeps the last ${MAX_DRAWINGS} drawings`, () => {
    let s = empty
    for (let i = 0; i < MAX_DRAWINGS + 3; i++) s = drawReducer(drawReducer(s, { type: 'tool', tool: 'hline' }), { type: 'point', point: { time: 1, price: i } })
    expect(s.drawings).toHaveLength(MAX_DRAWINGS)
    expect(s.drawings[0]).toMatchObject({ price: 3 })
  })

  it('ignores a point that is not a number', () => {
    const s = drawReducer(empty, { type: 'tool', tool: 'hline' })
    expect(drawReducer(s, { type: 'point', point: { time: 1, price: Number.NaN } })).toBe(s)
  })
})

describe('drawings storage', () => {
  it('keeps drawings per pair and reads only valid ones', () => {
    writeDrawings('btcusdt', [
      { id: 'd1', kind: 'hline', price: 100 },
      { id: 'd2', kind: 'trend', a: p1, b: p2 },
    ])
    expect(readDrawings('btcusdt')).toHaveLength(2)
    expect(readDrawings('ethusdt')).toEqual([])
    localStorage.setItem(drawingsKey('ethusdt'), JSON.stringify([{ id: 'x', kind: 'trend', a: p1 }, { id: 'y', kind: 'hline', price: 5 }, 7]))
    expect(readDrawings('ethusdt')).toEqual([{ id: 'y', kind: 'hline', price: 5 }])
    localStorage.setItem(drawingsKey('ethusdt'), '{oops')
    expect(readDrawings('ethusdt')).toEqual([])
    writeDrawings('btcusdt', [])
    expect(localStorage.getItem(drawingsKey('btcusdt'))).toBeNull()
  })
})

describe('time ↔ logical index', () => {
  // Three 15-minute candles, then a gap of two candles (no trades), then one.
  const times = [0, 900, 1800, 4500]

  it('is the candle index at a candle time and interpolates between candles', () => {
    expect(times.map((t) => timeToLogical(times, t, 900))).toEqual([0, 1, 2, 3])
    expect(timeToLogical(times, 450, 900)).toBe(0.5)
    expect(timeToLogical(times, 3150, 900)).toBe(2.5)
  })

  it('goes on at one candle per period outside the candles', () => {
    expect(timeToLogical(times, 4500 + 2 * 900, 900)).toBe(5)
    expect(timeToLogical(times, -900, 900)).toBe(-1)
    expect(logicalToTime(times, 5, 900)).toBe(6300)
    expect(logicalToTime(times, -1, 900)).toBe(-900)
  })

  it('round-trips', () => {
    for (const t of [-1800, 0, 300, 2000, 4500, 9000]) expect(logicalToTime(times, timeToLogical(times, t, 900)!, 900)).toBeCloseTo(t, 9)
  })

  it('has no index without candles', () => {
    expect(timeToLogical([], 5, 900)).toBeUndefined()
    expect(logicalToTime([], 5, 900)).toBeUndefined()
  })

  it('knows the seconds of each period', () => {
    expect(['1min', '15min', '60min', '4h', '1day', '1week'].map(periodSeconds)).toEqual([60, 900, 3600, 14400, 86400, 604800])
  })
})
