import { ChakraProvider } from '@chakra-ui/react'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { system } from '@/components/ui/theme'
import { SendCodeButton, type SendResult } from './send-code-button'

const disabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled

function renderButton(onSend: () => Promise<SendResult>, startRunning = false) {
  return render(
    <ChakraProvider value={system}>
      <SendCodeButton
        label="Send code"
        resendLabel="Resend"
        countdownLabel={(s) => `Resend in ${s}s`}
        onSend={onSend}
        startRunning={startRunning}
      />
    </ChakraProvider>,
  )
}

describe('SendCodeButton', () => {
  beforeEach(() => {
    // Only the countdown's clock is faked; testing-library keeps real timeouts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
  })
  afterEach(() => vi.useRealTimers())

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
})
