import { useCallback, useEffect, useState } from 'react'

/** The resend countdown of every send-code button (spec §4, §9). */
export const RESEND_SECONDS = 90

/** Result of {@link useCountdown}. */
export interface Countdown {
  /** Whole seconds left; 0 when idle. */
  remaining: number
  running: boolean
  /** Starts (or restarts) the countdown from `seconds`. */
  start: (seconds?: number) => void
  reset: () => void
}

/**
 * A countdown in whole seconds. It counts against an end time rather than
 * ticks, so a throttled background tab still shows the right value.
 */
export function useCountdown(defaultSeconds = RESEND_SECONDS): Countdown {
  const [endsAt, setEndsAt] = useState<number | null>(null)
  const [now, setNow] = useState(() => Date.now())

  useEffect(() => {
    if (endsAt === null) return
    const timer = window.setInterval(() => {
      const t = Date.now()
      setNow(t)
      if (t >= endsAt) {
        setEndsAt(null)
        window.clearInterval(timer)
      }
    }, 250)
    return () => window.clearInterval(timer)
  }, [endsAt])

  const start = useCallback(
    (seconds = defaultSeconds) => {
      const t = Date.now()
      setNow(t)
      setEndsAt(t + seconds * 1000)
    },
    [defaultSeconds],
  )
  const reset = useCallback(() => setEndsAt(null), [])

  const remaining = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000))
  return { remaining, running: remaining > 0, start, reset }
}
