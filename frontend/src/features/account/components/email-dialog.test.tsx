import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UserInfo } from '@/lib/session'
import { renderWithApp } from '@/test/render'
import { accountTexts } from '../lib/texts'
import { EmailDialog, type EmailDialogProps } from './email-dialog'

const api = vi.hoisted(() => ({ updateEmail: vi.fn(), sendEmailCode: vi.fn(), sendSmsCode: vi.fn() }))
vi.mock('../api/update-email', async (orig) => ({ ...(await orig<typeof import('../api/update-email')>()), updateEmail: api.updateEmail }))
vi.mock('../api/send-email-code', async (orig) => ({ ...(await orig<typeof import('../api/send-email-code')>()), sendEmailCode: api.sendEmailCode }))
vi.mock('../api/send-sms-code', async (orig) => ({ ...(await orig<typeof import('../api/send-sms-code')>()), sendSmsCode: api.sendSmsCode }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/notify', () => notify)

// jsdom has no CSS.escape, which the dialog's focus trap calls; browsers have it.
if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  ;(globalThis as unknown as { CSS: { escape: (s: string) => string } }).CSS = { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) }
}

const ok = <T,>(data: T) => ({ code: '0', msg: 'suc', data })

function Harness(props: Omit<EmailDialogProps, 't'>) {
  const { t } = accountTexts.useTexts()
  return <EmailDialog {...props} t={t} />
}

function open(user: UserInfo, onChanged = vi.fn()) {
  renderWithApp(<Harness open onOpenChange={vi.fn()} user={user} onChanged={onChanged} />)
  return screen.findByTestId('email-dialog')
}

const fill = (dialog: HTMLElement, name: string, value: string) =>
  fireEvent.change(dialog.querySelector(`input[name="${name}"]`) as HTMLInputElement, { target: { value } })

describe('e-mail change dialog', () => {
  beforeAll(() => accountTexts.loadFor('en_US'))
  beforeEach(() => {
    vi.clearAllMocks()
    api.sendEmailCode.mockResolvedValue(ok(null))
    api.sendSmsCode.mockResolvedValue(ok(null))
  })

  it('asks an e-mail account only for the two e-mail codes and explains the lock before confirming', async () => {
    const dialog = await open({ id: 1, email: 'old@example.mn' })
    expect(within(dialog).getByText('Change e-mail address')).toBeTruthy()
    expect(within(dialog).getByTestId('email-current').textContent).toBe('old@example.mn')
    expect(dialog.querySelector('input[name="emailCode"]')).toBeTruthy()
    expect(dialog.querySelector('input[name="oldEmailCode"]')).toBeTruthy()
    expect(dialog.querySelector('input[name="smsAuthCode"]')).toBeNull()
    expect(dialog.querySelector('input[name="googleCode"]')).toBeNull()
    expect(within(dialog).getByTestId('email-lock-before').textContent).toContain('Withdrawals pause for 24 hours')
  })

  it('asks a phone-only account to add an address with the SMS code, and Google when it is on', async () => {
    const dialog = await open({ id: 2, mobileNumber: '88112233', countryCode: '976', googleStatus: 1, isOpenMobileCheck: 1 })
    expect(within(dialog).getByText('Add an e-mail address')).toBeTruthy()
    expect(dialog.querySelector('input[name="oldEmailCode"]')).toBeNull()
    expect(dialog.querySelector('input[name="smsAuthCode"]')).toBeTruthy()
    expect(dialog.querySelector('input[name="googleCode"]')).toBeTruthy()
    expect(within(dialog).getByRole('button', { name: 'Add e-mail' })).toBeTruthy()
  })

  it('checks the new address before sending its code, then sends it there', async () => {
    const dialog = await open({ id: 1, email: 'old@example.mn' })
    fireEvent.click(within(dialog).getByTestId('send-new-email-code'))
    expect(await within(dialog).findByText('required')).toBeTruthy()
    fill(dialog, 'email', 'OLD@example.mn')
    fireEvent.click(within(dialog).getByTestId('send-new-email-code'))
    expect(await within(dialog).findByText('This is already your e-mail address')).toBeTruthy()
    expect(api.sendEmailCode).not.toHaveBeenCalled()
    fill(dialog, 'email', 'new@example.mn')
    fireEvent.click(within(dialog).getByTestId('send-new-email-code'))
    await waitFor(() => expect(api.sendEmailCode).toHaveBeenCalledWith(5, 'new@example.mn'))
    fireEvent.click(within(dialog).getByTestId('send-old-email-code'))
    await waitFor(() => expect(api.sendEmailCode).toHaveBeenCalledWith(17))
    expect(notify.notifySuccess).toHaveBeenCalledWith('Verification code sent')
  })

  it('validates the codes, sends the change and shows until when withdrawals are locked', async () => {
    const until = new Date(2026, 11, 8, 9, 30).getTime()
    api.updateEmail.mockResolvedValue(ok({ email: 'new@example.mn', withdrawLockedUntil: until }))
    const onChanged = vi.fn()
    const dialog = await open({ id: 1, email: 'old@example.mn', googleStatus: 1 }, onChanged)
    fill(dialog, 'email', 'new@example.mn')
    fill(dialog, 'emailCode', '12')
    fireEvent.click(within(dialog).getByTestId('email-submit'))
    expect(await within(dialog).findByText('Please enter a 6-digit verification code')).toBeTruthy()
    expect(within(dialog).getByText('Please enter a 6-digit verification code')).toBeTruthy()
    expect(api.updateEmail).not.toHaveBeenCalled()

    fill(dialog, 'emailCode', '111111')
    fill(dialog, 'oldEmailCode', '222 222')
    fill(dialog, 'googleCode', '333333')
    fireEvent.click(within(dialog).getByTestId('email-submit'))
    await waitFor(() =>
      expect(api.updateEmail).toHaveBeenCalledWith({
        email: 'new@example.mn',
        emailCode: '111111',
        oldEmailCode: '222222',
        smsAuthCode: undefined,
        googleCode: '333333',
      }),
    )
    const done = await screen.findByTestId('email-done')
    expect(done.textContent).toContain('Your e-mail address is now new@example.mn.')
    expect(within(done).getByTestId('email-lock-after').textContent).toBe('Withdrawals are locked until 2026-12-08 09:30.')
    expect(onChanged).toHaveBeenCalledWith(until)
    expect(notify.notifySuccess).toHaveBeenCalledWith('E-mail address changed')
  })

  it('stays on the form when the server refuses (the request client toasts why)', async () => {
    api.updateEmail.mockResolvedValue({ code: '12003', msg: 'Verification code is wrong', data: null })
    const dialog = await open({ id: 1, email: 'old@example.mn' })
    fill(dialog, 'email', 'new@example.mn')
    fill(dialog, 'emailCode', '111111')
    fill(dialog, 'oldEmailCode', '222222')
    fireEvent.click(within(dialog).getByTestId('email-submit'))
    await waitFor(() => expect(api.updateEmail).toHaveBeenCalled())
    await waitFor(() => expect(within(dialog).getByTestId('email-submit').hasAttribute('data-loading')).toBe(false))
    expect(screen.queryByTestId('email-done')).toBeNull()
  })
})
