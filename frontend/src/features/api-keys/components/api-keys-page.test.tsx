import { ChakraProvider } from '@chakra-ui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { system } from '@/components/ui/theme'
import type { UserInfo } from '@/lib/session'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { ApiKey } from '../api/api-keys-api'
import { ApiKeysPage, shortKey } from './api-keys-page'

const api = vi.hoisted(() => ({
  listKeys: vi.fn(),
  createKey: vi.fn(),
  updateKey: vi.fn(),
  deleteKey: vi.fn(),
  sendEmailCode: vi.fn(),
}))
vi.mock('../api/api-keys-api', async (orig) => ({ ...(await orig<typeof import('../api/api-keys-api')>()), ...api }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/notify', () => notify)
const session = vi.hoisted(() => ({ user: { id: 7, email: 'saraa@example.mn' } as UserInfo | null }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: session.user, isSignedIn: !!session.user, isLoading: false, refetch: vi.fn() }),
}))

const user: UserInfo = { id: 7, email: 'saraa@example.mn' }

const key = (over: Partial<ApiKey> = {}): ApiKey => ({
  apiKey: 'A1b2C3d4'.repeat(8),
  label: 'Grid bot',
  permissions: ['read', 'spot'],
  ips: [],
  keyType: 'HMAC_SHA256',
  createdAt: Date.UTC(2025, 0, 2, 3, 4, 5),
  lastUsedAt: 0,
  ...over,
})

const ok = <T,>(data: T) => ({ code: '0', msg: 'suc', data })

// jsdom has no CSS.escape, which the dialog's focus trap calls; browsers have it.
if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  ;(globalThis as unknown as { CSS: { escape: (s: string) => string } }).CSS = { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) }
}

const form = () => screen.findByTestId('api-key-form')
/** Opens the create form once the list has loaded (Create waits for the count). */
async function openCreate() {
  const button = await screen.findByTestId('create-api-key')
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false))
  fireEvent.click(button)
  return form()
}
const submit = (scope: HTMLElement) => fireEvent.click(within(scope).getByRole('button', { name: /^(Next|Create|Save)$/ }))

describe('API management page', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    session.user = user
    api.listKeys.mockResolvedValue({ keys: [], max: 30 })
    api.sendEmailCode.mockResolvedValue(ok(null))
  })
  afterEach(() => vi.restoreAllMocks())

  it('lists the keys in a table on a desktop: short key, permissions, IPs, type, never used', async () => {
    screenWidth(1440)
    api.listKeys.mockResolvedValue({
      keys: [
        key(),
        key({ apiKey: 'Z'.repeat(64), label: 'Read only', permissions: ['read'], keyType: 'ED25519', lastUsedAt: Date.UTC(2025, 5, 1) }),
        key({ apiKey: 'Y'.repeat(64), label: 'Payouts', permissions: ['read', 'withdraw'], ips: ['10.0.0.0/24', '10.0.1.1', '2001:db8::1', '192.0.2.1'] }),
      ],
      max: 30,
    })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const table = await screen.findByRole('table', { name: 'Your API keys' })
    expect(table.getAttribute('data-layout')).toBe('table')
    expect(screen.getByTestId('api-key-count').textContent).toContain('3 / 30')
    const rows = within(table).getAllByTestId('api-key-row')
    expect(rows).toHaveLength(3)

    const [grid, readOnly, payouts] = rows
    expect(within(grid).getByTestId('api-key-short').textContent).toBe('A1b2C3d4…b2C3d4')
    expect(shortKey('A1b2C3d4'.repeat(8))).toBe('A1b2C3d4…b2C3d4')
    expect(within(grid).getByText('Spot trading')).toBeTruthy()
    // A trading key that any IP may use is a warning.
    const unrestricted = within(grid).getByTestId('api-key-ips-cell')
    expect(unrestricted.textContent).toContain('Unrestricted')
    expect(unrestricted.getAttribute('data-risk')).toBe('true')
    expect(within(grid).getByText('Never')).toBeTruthy()
    expect(within(grid).getByRole('button', { name: 'Copy the API key of "Grid bot"' })).toBeTruthy()
    expect(within(grid).getByRole('button', { name: 'Edit the API key "Grid bot"' })).toBeTruthy()
    expect(within(grid).getByRole('button', { name: 'Delete the API key "Grid bot"' })).toBeTruthy()

    // A read-only key without IPs is not a warning.
    expect(within(readOnly).getByTestId('api-key-ips-cell').getAttribute('data-risk')).toBeNull()
    expect(within(readOnly).getByTestId('api-key-type-cell').textContent).toBe('Ed25519')
    expect(within(readOnly).queryByText('Never')).toBeNull()

    const ips = within(payouts).getByTestId('api-key-ips-cell')
    expect(ips.textContent).toContain('10.0.0.0/24')
    expect(ips.textContent).toContain('2001:db8::1')
    expect(ips.textContent).not.toContain('192.0.2.1')
    expect(ips.textContent).toContain('+1 more')
    expect(within(payouts).getByText('Withdraw')).toBeTruthy()
  })

  it('shows one card per key on a phone', async () => {
    screenWidth(390)
    api.listKeys.mockResolvedValue({ keys: [key()], max: 30 })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const list = await screen.findByRole('list', { name: 'Your API keys' })
    expect(list.getAttribute('data-layout')).toBe('cards')
    const card = within(list).getByTestId('api-key-row')
    expect(within(card).getByText('Grid bot')).toBeTruthy()
    expect(within(card).getByRole('button', { name: 'Edit' })).toBeTruthy()
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeTruthy()
  })

  it('says when there are no keys; links the API documentation when the app has that page', async () => {
    renderWithApp(<ApiKeysPage initialUser={user} />)
    expect((await screen.findByTestId('api-key-empty')).textContent).toBe('No API keys yet.')
    // This test's router serves every path, so the documentation page "exists" (language prefix as the footer's).
    expect(screen.getByTestId('api-docs-link').getAttribute('href')).toBe('/mn_MN/api')
    expect(screen.getByTestId('api-key-count').textContent).toContain('0 / 30')
    expect(screen.getByTestId('create-api-key').hasAttribute('disabled')).toBe(false)
  })

  it('has no documentation link while the app has no such page', async () => {
    const root = createRootRoute()
    const page = createRoute({ getParentRoute: () => root, path: '/profile/api', component: () => <ApiKeysPage initialUser={user} /> })
    const router = createRouter({
      routeTree: root.addChildren([page]),
      history: createMemoryHistory({ initialEntries: ['/profile/api'] }),
      context: { queryClient: new QueryClient() },
    })
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ChakraProvider value={system}>
          <RouterProvider router={router} />
        </ChakraProvider>
      </QueryClientProvider>,
    )
    expect(await screen.findByTestId('api-key-empty')).toBeTruthy()
    expect(screen.queryByTestId('api-docs-link')).toBeNull()
  })

  it('offers a retry when the list fails', async () => {
    api.listKeys.mockRejectedValueOnce(new Error('boom')).mockResolvedValue({ keys: [key()], max: 30 })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const error = await screen.findByTestId('api-key-list-error')
    expect(error.textContent).toContain('The API keys could not be loaded.')
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('Grid bot')).toBeTruthy()
  })

  it('turns Create off at the limit', async () => {
    api.listKeys.mockResolvedValue({ keys: [key()], max: 1 })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    expect(await screen.findByTestId('api-key-limit')).toBeTruthy()
    expect(screen.getByTestId('create-api-key').hasAttribute('disabled')).toBe(true)
  })

  it('creates an HMAC key: details, then the e-mail code, then the secret shown once', async () => {
    const created = { ...key({ apiKey: 'N'.repeat(64), label: 'My bot' }), secretKey: 'S'.repeat(64) }
    api.createKey.mockResolvedValue(ok(created))
    api.listKeys.mockResolvedValueOnce({ keys: [], max: 30 }).mockResolvedValue({ keys: [key({ apiKey: 'N'.repeat(64), label: 'My bot' })], max: 30 })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const dialog = await openCreate()

    // Nothing is sent before the details are right.
    submit(dialog)
    expect(await within(dialog).findByText('This field is required')).toBeTruthy()
    const read = dialog.querySelector<HTMLInputElement>('input[name="perm-read"]')!
    expect(read.checked).toBe(true)
    expect(read.disabled).toBe(true)
    // Withdraw waits for an IP restriction.
    expect(dialog.querySelector<HTMLInputElement>('input[name="perm-withdraw"]')!.disabled).toBe(true)
    expect(within(dialog).getByTestId('withdraw-hint').textContent).toBe('Add at least one IP address to allow withdrawals.')

    fireEvent.change(within(dialog).getByTestId('api-key-label'), { target: { value: 'My bot' } })
    const spot = dialog.querySelector<HTMLInputElement>('input[name="perm-spot"]')!
    fireEvent.click(spot)
    await waitFor(() => expect(spot.checked).toBe(true))
    submit(dialog)

    const codes = await within(dialog).findByTestId('api-key-codes')
    expect(within(codes).getByTestId('api-key-summary').textContent).toContain('My bot')
    expect(within(codes).getByTestId('api-key-summary').textContent).toContain('Spot trading')
    expect(within(codes).getByText('The code is sent to saraa@example.mn.')).toBeTruthy()
    // Only the e-mail code: no phone check, no authenticator.
    expect(codes.querySelector('input[name="smsAuthCode"]')).toBeNull()
    expect(codes.querySelector('input[name="googleCode"]')).toBeNull()

    fireEvent.click(within(codes).getByTestId('send-email-code'))
    await waitFor(() => expect(api.sendEmailCode).toHaveBeenCalledTimes(1))
    submit(dialog)
    expect(await within(dialog).findByText('This field is required')).toBeTruthy()
    fireEvent.change(codes.querySelector('input[name="emailCode"]')!, { target: { value: '12345' } })
    submit(dialog)
    expect(await within(dialog).findByText('Please enter a 6-digit verification code')).toBeTruthy()
    expect(api.createKey).not.toHaveBeenCalled()

    fireEvent.change(codes.querySelector('input[name="emailCode"]')!, { target: { value: '123456' } })
    submit(dialog)
    await waitFor(() =>
      expect(api.createKey).toHaveBeenCalledWith({ label: 'My bot', permissions: ['read', 'spot'], ips: [], publicKey: undefined }, { emailCode: '123456' }),
    )

    const secret = await screen.findByTestId('api-key-secret-dialog')
    expect(secret.getAttribute('role')).toBe('alertdialog')
    expect(within(secret).getByTestId('created-api-key').textContent).toBe('N'.repeat(64))
    expect(within(secret).getByTestId('created-secret-key').textContent).toBe('S'.repeat(64))
    expect(secret.textContent).toContain('cannot be shown again')
    expect(within(secret).getAllByRole('button', { name: 'Copy' })).toHaveLength(2)
    // The dialog says it: no toast over its warning (only the code's).
    expect(notify.notifySuccess.mock.calls).toEqual([['Verification code sent']])

    fireEvent.click(within(secret).getByTestId('secret-saved'))
    await waitFor(() => expect(screen.queryByTestId('api-key-secret-dialog')).toBeNull())
    // The new key is in the list, without its secret anywhere on the page.
    expect(await screen.findByText('My bot')).toBeTruthy()
    expect(document.body.textContent).not.toContain('S'.repeat(64))
  })

  it('checks IPs as they are typed, allows withdraw with them, and shows a refusal beside the field', async () => {
    api.createKey.mockResolvedValue({ code: '15002', msg: '10.0.0.0/8x is not an IP address or a CIDR range', data: null })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const dialog = await openCreate()
    fireEvent.change(within(dialog).getByTestId('api-key-label'), { target: { value: 'Payouts' } })

    fireEvent.click(within(dialog).getByRole('radio', { name: 'Only these IPs' }))
    const ips = await within(dialog).findByTestId('api-key-ips')
    fireEvent.change(ips, { target: { value: '203.0.113.7, 300.1.1.1\n' } })
    expect(within(dialog).getByText('Not an IP address or CIDR range: 300.1.1.1')).toBeTruthy()
    fireEvent.change(ips, { target: { value: '203.0.113.7\n10.0.0.0/24' } })
    expect(within(dialog).queryByText(/Not an IP address/)).toBeNull()

    const withdraw = dialog.querySelector<HTMLInputElement>('input[name="perm-withdraw"]')!
    await waitFor(() => expect(withdraw.disabled).toBe(false))
    expect(within(dialog).queryByTestId('withdraw-hint')).toBeNull()
    fireEvent.click(withdraw)
    await waitFor(() => expect(withdraw.checked).toBe(true))

    submit(dialog)
    const codes = await within(dialog).findByTestId('api-key-codes')
    fireEvent.change(codes.querySelector('input[name="emailCode"]')!, { target: { value: '654321' } })
    submit(dialog)
    await waitFor(() =>
      expect(api.createKey).toHaveBeenCalledWith(
        { label: 'Payouts', permissions: ['read', 'withdraw'], ips: ['203.0.113.7', '10.0.0.0/24'], publicKey: undefined },
        { emailCode: '654321' },
      ),
    )
    // The refusal is about the IPs: back to the details, the server's message beside them.
    expect(await within(dialog).findByText('10.0.0.0/8x is not an IP address or a CIDR range')).toBeTruthy()
    expect(within(dialog).queryByTestId('api-key-codes')).toBeNull()
    expect(notify.notifyError).not.toHaveBeenCalled()
  })

  it('unticks withdraw when the IP restriction goes', async () => {
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const dialog = await openCreate()
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Only these IPs' }))
    fireEvent.change(await within(dialog).findByTestId('api-key-ips'), { target: { value: '10.0.0.1' } })
    const withdraw = () => dialog.querySelector<HTMLInputElement>('input[name="perm-withdraw"]')!
    await waitFor(() => expect(withdraw().disabled).toBe(false))
    fireEvent.click(withdraw())
    await waitFor(() => expect(withdraw().checked).toBe(true))
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Unrestricted' }))
    await waitFor(() => expect(withdraw().disabled).toBe(true))
    await waitFor(() => expect(withdraw().checked).toBe(false))
  })

  it('toasts a refusal that is not about a field (a wrong code) and keeps the codes step', async () => {
    api.createKey.mockResolvedValue({ code: '10005', msg: 'Verification code is wrong', data: null })
    renderWithApp(<ApiKeysPage initialUser={user} />)
    const dialog = await openCreate()
    fireEvent.change(within(dialog).getByTestId('api-key-label'), { target: { value: 'Bot' } })
    submit(dialog)
    const codes = await within(dialog).findByTestId('api-key-codes')
    fireEvent.change(codes.querySelector('input[name="emailCode"]')!, { target: { value: '000000' } })
    submit(dialog)
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith('Verification code is wrong'))
    expect(within(dialog).getByTestId('api-key-codes')).toBeTruthy()
    expect(screen.queryByTestId('api-key-secret-dialog')).toBeNull()
  })

  it('asks for the SMS and Google codes when the account uses them', async () => {
    session.user = { id: 7, email: 'saraa@example.mn', isOpenMobileCheck: 1, googleStatus: 1, countryCode: '976', mobileNumber: '99112233' }
    renderWithApp(<ApiKeysPage initialUser={session.user} />)
    const dialog = await openCreate()
    fireEvent.change(within(dialog).getByTestId('api-key-label'), { target: { value: 'Bot' } })
    submit(dialog)
    const codes = await within(dialog).findByTestId('api-key-codes')
    expect(codes.querySelector('input[name="emailCode"]')).toBeTruthy()
    expect(codes.querySelector('input[name="smsAuthCode"]')).toBeTruthy()
    expect(codes.querySelector('input[name="googleCode"]')).toBeTruthy()
    expect(codes.textContent).toContain('+976 99****33')
  })

  it('edits a key with the same form (no key type) and the codes', async () => {
    screenWidth(1440)
    const k = key({ permissions: ['read', 'spot'], ips: ['10.0.0.0/24'] })
    const changed = { ...k, label: 'Grid bot 2', ips: ['10.0.0.0/24', '203.0.113.7'] }
    api.listKeys.mockResolvedValueOnce({ keys: [k], max: 30 }).mockResolvedValue({ keys: [changed], max: 30 })
    api.updateKey.mockResolvedValue(ok(changed))
    renderWithApp(<ApiKeysPage initialUser={user} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Edit the API key "Grid bot"' }))
    const dialog = await form()
    expect(within(dialog).getByRole('heading', { name: 'Edit API key' })).toBeTruthy()
    expect(within(dialog).queryByTestId('api-key-type')).toBeNull()
    expect((within(dialog).getByTestId('api-key-label') as HTMLInputElement).value).toBe('Grid bot')
    expect(dialog.querySelector<HTMLInputElement>('input[name="perm-spot"]')!.checked).toBe(true)
    const ips = within(dialog).getByTestId('api-key-ips') as HTMLTextAreaElement
    expect(ips.value).toBe('10.0.0.0/24')

    fireEvent.change(within(dialog).getByTestId('api-key-label'), { target: { value: 'Grid bot 2' } })
    fireEvent.change(ips, { target: { value: '10.0.0.0/24\n203.0.113.7' } })
    submit(dialog)
    const codes = await within(dialog).findByTestId('api-key-codes')
    fireEvent.change(codes.querySelector('input[name="emailCode"]')!, { target: { value: '111222' } })
    submit(dialog)
    await waitFor(() =>
      expect(api.updateKey).toHaveBeenCalledWith(
        k.apiKey,
        { label: 'Grid bot 2', permissions: ['read', 'spot'], ips: ['10.0.0.0/24', '203.0.113.7'] },
        { emailCode: '111222' },
      ),
    )
    await waitFor(() => expect(screen.queryByTestId('api-key-form')).toBeNull())
    expect(notify.notifySuccess).toHaveBeenCalledWith('API key saved')
    expect(await screen.findByText('Grid bot 2')).toBeTruthy()
  })

  it('deletes a key after asking', async () => {
    screenWidth(1440)
    api.listKeys.mockResolvedValueOnce({ keys: [key()], max: 30 }).mockResolvedValue({ keys: [], max: 30 })
    api.deleteKey.mockResolvedValue(ok(null))
    renderWithApp(<ApiKeysPage initialUser={user} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the API key "Grid bot"' }))
    const dialog = await screen.findByRole('alertdialog')
    const described = document.getElementById(dialog.getAttribute('aria-describedby') ?? '')
    expect(described?.textContent).toBe('The key "Grid bot" stops working at once.')
    fireEvent.click(within(dialog).getByTestId('confirm-delete-api-key'))
    await waitFor(() => expect(api.deleteKey).toHaveBeenCalledWith(key().apiKey))
    expect(await screen.findByTestId('api-key-empty')).toBeTruthy()
    expect(notify.notifySuccess).toHaveBeenCalledWith('API key deleted')
  })

  it('has every text in both languages', async () => {
    const { getBundledTexts } = await import('@/lib/bundled-texts')
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]))
    expect(keys(getBundledTexts('apiKeys', 'mn-MN')).sort()).toEqual(keys(getBundledTexts('apiKeys', 'en-US')).sort())
    expect(getBundledTexts('apiKeys', 'mn-MN').title).toBe('API удирдлага')
  })
})
