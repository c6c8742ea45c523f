import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { getCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { login, register } from '../api/auth-api'
import { peekLoginPrefill } from '../prefill'
import { RegisterPage } from './register-page'

vi.mock('../api/auth-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/auth-api')>()),
  register: vi.fn(),
  login: vi.fn(),
}))
vi.mock('@/lib/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/session')>()),
  refreshSession: vi.fn(async () => ({ id: 1 })),
}))

const registerMock = vi.mocked(register)
const loginMock = vi.mocked(login)

async function fillAndSubmit() {
  fireEvent.change(await screen.findByPlaceholderText('Enter your email'), { target: { value: 'new@example.com' } })
  fireEvent.change(screen.getByPlaceholderText('6-digit code'), { target: { value: '123456' } })
  fireEvent.change(screen.getByPlaceholderText('Create a password'), { target: { value: 'Passw0rd1' } })
  fireEvent.change(document.querySelector('input[name="confirmPassword"]')!, { target: { value: 'Passw0rd1' } })
  fireEvent.click(document.querySelector('input[name="agree"]')!)
  await waitFor(() => expect(document.querySelector('[data-part="control"][data-state="checked"]')).not.toBeNull())
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }))
  })
}

describe('RegisterPage', () => {
  beforeEach(() => {
    registerMock.mockReset()
    loginMock.mockReset()
    registerMock.mockResolvedValue({ code: '0', msg: 'success', data: { uid: 10000007 } })
  })

  it('signs the new account in with what was typed and lands home, without the login form', async () => {
    loginMock.mockResolvedValue({ code: '0', msg: 'success', data: { token: 'session-new' } })
    const { router } = renderWithApp(<RegisterPage />, { path: '/auth/register' })
    await fillAndSubmit()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(loginMock).toHaveBeenCalledWith({ kind: 'email', email: 'new@example.com' }, 'Passw0rd1', { silent: true })
    expect(getCookie('token')).toBe('session-new')
    expect(peekLoginPrefill()).toBeUndefined()
  })

  it('opens the login form with the account filled in when it cannot sign in here', async () => {
    loginMock.mockResolvedValue({ code: '0', msg: 'success', data: { type: 'google', token: 'challenge-1' } })
    const { router } = renderWithApp(<RegisterPage />, { path: '/auth/register' })
    await fillAndSubmit()
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'))
    expect(peekLoginPrefill()).toEqual({ kind: 'email', email: 'new@example.com' })
    expect(getCookie('token')).toBeFalsy()
  })
})

describe('RegisterPage new password', () => {
  it('shows the strength as the password is typed and a mismatch once the confirmation cannot match', async () => {
    renderWithApp(<RegisterPage />, { path: '/auth/register' })
    const password = await screen.findByPlaceholderText('Create a password')
    expect(screen.queryByTestId('password-strength')).toBeNull()
    fireEvent.change(password, { target: { value: 'abc' } })
    expect(screen.getByTestId('password-strength').getAttribute('data-level')).toBe('weak')
    expect(screen.getByTestId('password-strength').textContent).toBe('Password strength: weak')
    fireEvent.change(password, { target: { value: 'Abcdefghijk1' } })
    expect(screen.getByTestId('password-strength').getAttribute('data-level')).toBe('strong')
    const confirm = document.querySelector('input[name="confirmPassword"]')!
    fireEvent.change(confirm, { target: { value: 'Abc' } })
    expect(screen.queryByText('Password entires do not match. Try again')).toBeNull()
    fireEvent.change(confirm, { target: { value: 'Abx' } })
    expect(await screen.findByText('Password entires do not match. Try again')).toBeTruthy()
    fireEvent.change(confirm, { target: { value: 'Abcdefghijk1' } })
    await waitFor(() => expect(screen.queryByText('Password entires do not match. Try again')).toBeNull())
  })
})
