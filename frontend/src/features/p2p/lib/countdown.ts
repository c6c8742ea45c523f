import { useEffect, useState } from 'react'

/** Whole seconds left until `deadline` (Unix ms), never below 0. */
export function secondsLeft(deadline: number, now: number): number {
  if (!Number.isFinite(deadline) || deadline <= 0) return 0
  return Math.max(0, Math.ceil((deadline - now) / 1000))
}

const pad = (n: number) => String(n).padStart(2, '0')

/** A countdown as the order page shows it: 'mm:ss', or 'h:mm:ss' from an hour up. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`
}

/** A duration in seconds as minutes and seconds for the records ('2m 05s', '45s'); '—' for none. */
export function formatDuration(seconds: number, units: { h: string; m: string; s: string }): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '—'
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = Math.floor(seconds % 60)
  if (h > 0) return `${h}${units.h} ${pad(m)}${units.m}`
  if (m > 0) return `${m}${units.m} ${pad(s)}${units.s}`
  return `${s}${units.s}`
}

/**
 * The seconds left until a deadline, ticking every second while it runs
 * (counted against the clock, so a throttled tab still shows the right
 * value); `onEnd` runs once when it reaches zero.
 */
export function useSecondsLeft(deadline: number | undefined, running: boolean, onEnd?: () => void): number {
  const [now, setNow] = useState(() => Date.now())
  const left = deadline ? secondsLeft(deadline, now) : 0
  useEffect(() => {
    if (!running || !deadline) return
    const id = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(id)
  }, [running, deadline])
  const ended = running && !!deadline && left === 0
  useEffect(() => {
    if (ended) onEnd?.()
    // onEnd runs once per end, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ended])
  return left
}
