import { Button, type ButtonProps } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { RESEND_SECONDS, useCountdown } from '@/lib/use-countdown'

/** What a send attempt reports back. */
export interface SendResult {
  ok: boolean
  /** Seconds the server asks to wait before the next code (rate-limited answers). */
  retryAfter?: number
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
  disabled,
  ...rest
}: SendCodeButtonProps) {
  const countdown = useCountdown(seconds)
  const [sending, setSending] = useState(false)
  const [sentOnce, setSentOnce] = useState(startRunning)
  const { start } = countdown

  useEffect(() => {
    if (startRunning) start(seconds)
  }, [startRunning, seconds, start])

  const handleClick = async () => {
    setSending(true)
    try {
      const result = await onSend()
      if (result.ok) {
        setSentOnce(true)
        countdown.start(seconds)
      } else if (result.retryAfter && result.retryAfter > 0) {
        setSentOnce(true)
        countdown.start(Math.ceil(result.retryAfter))
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
