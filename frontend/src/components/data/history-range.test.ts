import { describe, expect, it } from 'vitest'
import {
  clampDateRange,
  HISTORY_WINDOW_DAYS,
  historyDateBounds,
  isPresetRange,
  parseDateInput,
  presetRange,
  rangeMillis,
  toDateInput,
} from './history-range'

// A fixed local "now": 2025-06-15 13:45:30.
const NOW = new Date(2025, 5, 15, 13, 45, 30).getTime()
const DAY = 86_400_000

describe('date input values', () => {
  it('round-trips local days', () => {
    expect(toDateInput(NOW)).toBe('2025-06-15')
    expect(parseDateInput('2025-06-15')).toBe(new Date(2025, 5, 15).getTime())
  })

  it('rejects what is not a real day', () => {
    for (const bad of ['', '2025-02-30', '2025-13-01', '15.06.2025', '2025-6-1', undefined]) {
      expect(parseDateInput(bad), String(bad)).toBeUndefined()
    }
  })
})

describe('the 180-day window', () => {
  it('allows days from 180 days ago to today', () => {
    expect(HISTORY_WINDOW_DAYS).toBe(180)
    expect(historyDateBounds(NOW)).toEqual({ min: toDateInput(NOW - 180 * DAY), max: '2025-06-15' })
    expect(historyDateBounds(NOW).min).toBe('2024-12-17')
  })

  it('defaults to the whole window', () => {
    expect(clampDateRange(undefined, undefined, NOW)).toEqual({ from: '2024-12-17', to: '2025-06-15' })
    expect(clampDateRange('garbage', '2025-02-30', NOW)).toEqual({ from: '2024-12-17', to: '2025-06-15' })
  })

  it('moves days outside the window to its edges', () => {
    expect(clampDateRange('2023-01-01', '2030-01-01', NOW)).toEqual({ from: '2024-12-17', to: '2025-06-15' })
    expect(clampDateRange('2025-03-01', '2025-04-01', NOW)).toEqual({ from: '2025-03-01', to: '2025-04-01' })
  })

  it('swaps a from after the to', () => {
    expect(clampDateRange('2025-05-01', '2025-03-01', NOW)).toEqual({ from: '2025-03-01', to: '2025-05-01' })
  })

  it('builds and recognises quick ranges', () => {
    expect(presetRange(7, NOW)).toEqual({ from: '2025-06-08', to: '2025-06-15' })
    expect(presetRange(365, NOW)).toEqual({ from: '2024-12-17', to: '2025-06-15' })
    expect(isPresetRange({ from: '2025-06-08', to: '2025-06-15' }, 7, NOW)).toBe(true)
    expect(isPresetRange({ from: '2025-06-09', to: '2025-06-15' }, 7, NOW)).toBe(false)
  })
})

describe('API window of a range', () => {
  it('runs from the start of the first day to the end of the last day', () => {
    const { startTime, endTime } = rangeMillis({ from: '2025-03-01', to: '2025-03-31' }, NOW)
    expect(startTime).toBe(new Date(2025, 2, 1).getTime())
    expect(endTime).toBe(new Date(2025, 3, 1).getTime() - 1)
  })

  it('never starts earlier than exactly 180 days ago', () => {
    const { startTime } = rangeMillis({ from: '2020-01-01', to: '2025-06-15' }, NOW)
    const minute = Math.floor(NOW / 60_000) * 60_000
    expect(startTime).toBe(minute - 180 * DAY)
    expect(startTime).toBeGreaterThan(new Date(2024, 11, 17).getTime())
  })

  it('stays the same within a minute, so query keys do not churn', () => {
    const a = rangeMillis({ from: '2020-01-01', to: '2025-06-15' }, NOW)
    const b = rangeMillis({ from: '2020-01-01', to: '2025-06-15' }, NOW + 20_000)
    expect(b).toEqual(a)
  })
})
