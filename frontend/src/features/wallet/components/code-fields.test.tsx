import { ChakraProvider } from '@chakra-ui/react'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { system } from '@/components/ui/theme'
import type { ApiEnvelope } from '@/lib/request-client'
import { ADD_ADDRESS_RESEND_SECONDS } from './add-address-modal'
import { codeError, SendCodeField } from './code-fields'

vi.mock('@/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))

const texts: Record<string, string> = {
  'codes.send': 'Send code',
  'codes.resend': 'Resend',
  'codes.resendIn': 'Resend in {seconds}s',
  'codes.placeholder': '6-digit code',
  'codes.sent': 'sent',
  'errors.required': 'Required',
  'errors.codeLength': 'Please enter a 6-digit verification code',
  'errors.googleLength': 'Please enter a {n}-digit Google verification code',
}
const t = (k: string, vars?: Record<string, string | number>) =>
  (texts[k] ?? k).replace(/\{(\w+)\}/g, (_, n: string) => String(vars?.[n] ?? ''))

const disabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled

function renderField(send: () => Promise<ApiEnvelope>, seconds?: number, sentLabel?: string) {
  return render(
    <ChakraProvider value={system}>
      <SendCodeField t={t} name="code" label="Phone code" value="" onChange={() => {}} send={send} seconds={seconds} sentLabel={sentLabel} />
    </ChakraProvider>,
  )
}

describe('SendCodeField countdowns (spec §4)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] }))
  afterEach(() => vi.useRealTimers())

  it('locks the send button 90 s after a successful send', async () => {
    renderField(async () => ({ code: '0', msg: '', data: null }))
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(disabled(await screen.findByRole('button', { name: 'Resend in 90s' }))).toBe(true)
    await act(async () => {}) // run the effect that starts the interval before moving the clock
    act(() => vi.advanceTimersByTime(89_000))
    expect(await screen.findByRole('button', { name: 'Resend in 1s' })).toBeTruthy()
    act(() => vi.advanceTimersByTime(1_000))
    await waitFor(() => expect(disabled(screen.getByRole('button', { name: 'Resend' }))).toBe(false))
  })

  it('add address: disabled 60 s with the code-sent label', async () => {
    expect(ADD_ADDRESS_RESEND_SECONDS).toBe(60)
    renderField(async () => ({ code: '0', msg: '', data: null }), ADD_ADDRESS_RESEND_SECONDS, 'Code sent')
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    expect(disabled(await screen.findByRole('button', { name: 'Code sent (60s)' }))).toBe(true)
    await act(async () => {}) // as above
    act(() => vi.advanceTimersByTime(60_000))
    await waitFor(() => expect(disabled(screen.getByRole('button', { name: 'Resend' }))).toBe(false))
  })

  it('a failed send does not start the countdown', async () => {
    const send = vi.fn(async () => ({ code: '10020', msg: 'too many', data: null }))
    renderField(send)
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
    await waitFor(() => expect(send).toHaveBeenCalled())
    await waitFor(() => expect(disabled(screen.getByRole('button', { name: 'Send code' }))).toBe(false))
  })
})

describe('codeError (spec §8)', () => {
  it('requires six digits, with the Google text taking n = 6', () => {
    expect(codeError(t, '', 'phone')).toBe('Required')
    expect(codeError(t, '123', 'phone')).toBe('Please enter a 6-digit verification code')
    expect(codeError(t, '123', 'google')).toBe('Please enter a 6-digit Google verification code')
    expect(codeError(t, '123456', 'email')).toBeUndefined()
  })
})
