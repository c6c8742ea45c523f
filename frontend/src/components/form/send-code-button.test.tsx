import { ChakraProvider } from '@chakra-ui/react'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { system } from '@/components/ui/theme'
import { SendCodeButton, sendCodeLocks, type SendResult } from './send-code-button'

const disabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled

function renderButton(onSend: () => Promise<SendResult>, startRunning = false, lockKey?: string) {
  return render(
    <ChakraProvider value={system}>
      <SendCodeButton
        label="Send code"
        resendLabel="Resend"
        countdownLabel={(s) => `Resend in ${s}s`}
        onSend={onSend}
        startRunning={startRunning}
        lockKey={lockKey}
      />
    </ChakraProvider>,
  )
}

describe('SendCodeButton', () => {
  beforeEach(() => {
    // Only the countdown's clock is faked; testing-library keeps real timeouts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
    sendCodeLocks.clear()
  })

  it('counts down 90 s after a successful send, then offers to resend', async () => {
    const onSend = vi.fn(async () => ({ ok: true }))
    renderButton(onSend)
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    const button = await screen.findByRole('button', { name: 'Resend in 90s' })
    expect(disabled(button)).toBe(true)
    expect(onSend).toHaveBeenCalledTimes(1)
    // The label can show before React has run the effect that starts the
    // interval (a busy machine delays passive effects): flush it first, or
    // the faked clock would be advanced before the interval exists.
    await act(async () => {})

    act(() => vi.advanceTimersByTime(30_000))
    expect(disabled(screen.getByRole('button', { name: 'Resend in 60s' }))).toBe(true)

    act(() => vi.advanceTimersByTime(60_000))
    await waitFor(() => expect(disabled(screen.getByRole('button', { name: 'Resend' }))).toBe(false))
  })

  it('stays ready when the send fails', async () => {
    const onSend = vi.fn(async () => ({ ok: false }))
    renderButton(onSend)
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await waitFor(() => expect(onSend).toHaveBeenCalled())
    await waitFor(() => expect(disabled(screen.getByRole('button', { name: 'Send code' }))).toBe(false))
  })

  it("waits the server's retry time after a rate-limited answer", async () => {
    renderButton(async () => ({ ok: false, retryAfter: 42 }))
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(disabled(await screen.findByRole('button', { name: 'Resend in 42s' }))).toBe(true)
  })

  it('starts counting at once when the code went out with the previous step', async () => {
    renderButton(async () => ({ ok: true }), true)
    expect(disabled(await screen.findByRole('button', { name: 'Resend in 90s' }))).toBe(true)
  })

  it('keeps counting when it mounts again with the same lock key (a step back and forth, a reopened modal)', async () => {
    const onSend = vi.fn(async () => ({ ok: true }))
    const first = renderButton(onSend, false, 'withdraw:u1:email:17')
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await screen.findByRole('button', { name: 'Resend in 90s' })
    await act(async () => {})
    act(() => vi.advanceTimersByTime(20_000))
    first.unmount()

    renderButton(onSend, false, 'withdraw:u1:email:17')
    expect(disabled(await screen.findByRole('button', { name: 'Resend in 70s' }))).toBe(true)
    cleanup()
    // Another channel or operation has its own lock.
    renderButton(onSend, false, 'withdraw:u1:sms:10')
    expect(disabled(screen.getByRole('button', { name: 'Send code' }))).toBe(false)
    expect(onSend).toHaveBeenCalledTimes(1)
  })
})
