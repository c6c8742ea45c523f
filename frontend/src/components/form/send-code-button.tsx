import { Button, type ButtonProps } from '@chakra-ui/react'
import { useEffect, useLayoutEffect, useState } from 'react'
import { RESEND_SECONDS, useCountdown } from '@/lib/use-countdown'

/** What a send attempt reports back. */
export interface SendResult {
  ok: boolean
  /** Seconds the server asks to wait before the next code (rate-limited answers). */
  retryAfter?: number
}

/**
 * When each keyed send-code lock ends (ms), for the page session: a button
 * that unmounts (a step of a flow, a closed modal) and mounts again keeps
 * counting instead of offering a send the server would refuse as too soon.
 */
const lockedUntil = new Map<string, number>()

/** The page-session store of send-code locks (exported for tests). */
export const sendCodeLocks = {
  /** Seconds left on the key's lock (fractional), 0 when none. */
  remaining(key: string, now = Date.now()): number {
    const end = lockedUntil.get(key)
    return end && end > now ? (end - now) / 1000 : 0
  },
  lock(key: string, seconds: number, now = Date.now()): void {
    lockedUntil.set(key, now + seconds * 1000)
  },
  clear(): void {
    lockedUntil.clear()
  },
}

/** Props of {@link SendCodeButton}. */
export interface SendCodeButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** Sends the code; resolves whether it was sent. Validation happens inside. */
  onSend: () => Promise<SendResult>
  label: string
  resendLabel: string
  /** Label while counting down, given the seconds left. */
  countdownLabel: (seconds: number) => string
  seconds?: number
  /** Start counting on mount (the server already sent a code with the previous step). */
  startRunning?: boolean
  /**
   * Keeps the countdown across unmounts for the page session, e.g.
   * `withdraw:<user>:email:17` (channel and operation of the code).
   */
  lockKey?: string
}

/**
 * A send-code button: after a successful send it counts down 90 s (spec §4)
 * and then offers to resend. A rate-limited answer starts the countdown with
 * the server's retry time instead.
 */
export function SendCodeButton({
  onSend,
  label,
  resendLabel,
  countdownLabel,
  seconds = RESEND_SECONDS,
  startRunning = false,
  lockKey,
  disabled,
  ...rest
}: SendCodeButtonProps) {
  const countdown = useCountdown(seconds)
  const [sending, setSending] = useState(false)
  const [sentOnce, setSentOnce] = useState(() => startRunning || (!!lockKey && sendCodeLocks.remaining(lockKey) > 0))
  const { start } = countdown

  useEffect(() => {
    if (startRunning) start(seconds)
  }, [startRunning, seconds, start])

  // A lock left by an earlier mount goes on counting (before paint, so the button never flashes enabled).
  useLayoutEffect(() => {
    const left = lockKey ? sendCodeLocks.remaining(lockKey) : 0
    if (left > 0) start(left)
  }, [lockKey, start])

  const lock = (s: number) => {
    if (lockKey) sendCodeLocks.lock(lockKey, s)
    countdown.start(s)
  }

  const handleClick = async () => {
    setSending(true)
    try {
      const result = await onSend()
      if (result.ok) {
        setSentOnce(true)
        lock(seconds)
      } else if (result.retryAfter && result.retryAfter > 0) {
        setSentOnce(true)
        lock(Math.ceil(result.retryAfter))
      }
    } finally {
      setSending(false)
    }
  }

  return (
    <Button
      variant="outline"
      flexShrink={0}
      minW="8.5rem"
      {...rest}
      loading={sending}
      disabled={disabled || countdown.running}
      onClick={() => void handleClick()}
    >
      {countdown.running ? countdownLabel(countdown.remaining) : sentOnce ? resendLabel : label}
    </Button>
  )
}
