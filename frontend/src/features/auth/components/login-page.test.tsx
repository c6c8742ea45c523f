import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { getCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { confirmLogin, login, resetAuthenticator, sendAuthenticatorResetCodes } from '../api/auth-api'
import { LoginPage } from './login-page'

vi.mock('../api/auth-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/auth-api')>()),
  login: vi.fn(),
  confirmLogin: vi.fn(),
  sendAuthenticatorResetCodes: vi.fn(),
  resetAuthenticator: vi.fn(),
}))
vi.mock('@/lib/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/session')>()),
  refreshSession: vi.fn(async () => ({ id: 1 })),
}))

const loginMock = vi.mocked(login)
const confirmMock = vi.mocked(confirmLogin)

async function fillAndSubmit(email: string, password: string) {
  fireEvent.change(await screen.findByPlaceholderText('Enter your email'), { target: { value: email } })
  fireEvent.change(screen.getByPlaceholderText('Enter your password'), { target: { value: password } })
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
}

describe('LoginPage', () => {
  beforeEach(() => {
    loginMock.mockReset()
    confirmMock.mockReset()
  })

  it('validates before calling the server', async () => {
    renderWithApp(<LoginPage />, { path: '/auth/login' })
    await fillAndSubmit('nope', '')
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy()
    expect(screen.getByText('required')).toBeTruthy()
    expect(loginMock).not.toHaveBeenCalled()
  })

  it('asks for the Google code on a challenge, then goes to the redirect path', async () => {
    loginMock.mockResolvedValue({ code: '0', msg: 'success', data: { type: 'google', token: 'challenge-1' } })
    confirmMock.mockResolvedValue({ code: '0', msg: 'success', data: { token: 'session-1' } })
    const { router } = renderWithApp(<LoginPage redirect="/profile/security" />, { path: '/auth/login' })

    await fillAndSubmit('user@example.com', 'Passw0rd1')
    expect(await screen.findByText('Google authenticator code')).toBeTruthy()
    expect(loginMock).toHaveBeenCalledWith({ kind: 'email', email: 'user@example.com' }, 'Passw0rd1', { silent: true })

    const code = screen.getByPlaceholderText('6-digit code')
    fireEvent.change(code, { target: { value: '12' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('Please enter a 6-digit verification code')).toBeTruthy()
    expect(confirmMock).not.toHaveBeenCalled()

    fireEvent.change(code, { target: { value: '12a3456' } })
    expect((code as HTMLInputElement).value).toBe('123456')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile/security'))
    expect(confirmMock).toHaveBeenCalledWith('challenge-1', '123456')
    // No server cookie in this test: the token is kept for the request client.
    expect(getCookie('token')).toBe('session-1')
  })

  it('ignores an absolute redirect target', async () => {
    loginMock.mockResolvedValue({ code: '0', msg: 'success', data: { token: 'session-2' } })
    const { router } = renderWithApp(<LoginPage redirect="https://evil.example/x" />, { path: '/auth/login' })
    await fillAndSubmit('user@example.com', 'Passw0rd1')
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(router.state.location.href).toBe('/')
  })

  it('stays on the form when the server refuses', async () => {
    loginMock.mockResolvedValue({ code: '10004', msg: 'Wrong account or password', data: null as never })
    const { router } = renderWithApp(<LoginPage />, { path: '/auth/login' })
    await fillAndSubmit('user@example.com', 'Passw0rd1')
    await waitFor(() => expect(loginMock).toHaveBeenCalled())
    // The button leaves its loading state once the refusal is handled.
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy()
    expect(router.state.location.pathname).toBe('/auth/login')
    // The refusal reads in the form, and goes once the password is changed.
    expect((await screen.findByTestId('login-refusal')).textContent).toContain('Wrong account or password')
    fireEvent.change(screen.getByPlaceholderText('Enter your password'), { target: { value: 'Passw0rd2' } })
    await waitFor(() => expect(screen.queryByTestId('login-refusal')).toBeNull())
  })

  it('resets a lost authenticator with the e-mail and SMS codes and signs in', async () => {
    loginMock.mockResolvedValue({ code: '0', msg: 'success', data: { type: 'google', token: 'challenge-9' } })
    vi.mocked(sendAuthenticatorResetCodes).mockResolvedValue({ code: '0', msg: 'success', data: { email: 'u***@example.com', mobile: '******33' } })
    vi.mocked(resetAuthenticator).mockResolvedValue({ code: '0', msg: 'success', data: { token: 'session-9' } })
    const { router } = renderWithApp(<LoginPage />, { path: '/auth/login' })
    await fillAndSubmit('user@example.com', 'Passw0rd1')
    fireEvent.click(await screen.findByTestId('lost-authenticator'))
    expect(await screen.findByText('Reset your authenticator')).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByTestId('reset-send-codes'))
    })
    expect((await screen.findByTestId('reset-sent-to')).textContent).toBe('Codes sent to u***@example.com and ******33')
    expect(sendAuthenticatorResetCodes).toHaveBeenCalledWith('challenge-9')
    // Both codes are needed.
    fireEvent.change(document.querySelector('input[name="emailCode"]')!, { target: { value: '111111' } })
    fireEvent.click(screen.getByRole('button', { name: 'Reset and sign in' }))
    expect(await screen.findByText('required')).toBeTruthy()
    expect(resetAuthenticator).not.toHaveBeenCalled()
    fireEvent.change(document.querySelector('input[name="smsCode"]')!, { target: { value: '222222' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Reset and sign in' }))
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(resetAuthenticator).toHaveBeenCalledWith('challenge-9', '111111', '222222')
    expect(getCookie('token')).toBe('session-9')
  })
})
