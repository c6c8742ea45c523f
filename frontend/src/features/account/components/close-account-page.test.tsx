import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { getToken } from '@/lib/cookies'
import { userInfoKey, type UserInfo } from '@/lib/session'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { CancellationInfo } from '../api/check-cancellation'
import { accountTexts } from '../lib/texts'
import { CloseAccountPage } from './close-account-page'

const api = vi.hoisted(() => ({ checkCancellation: vi.fn(), cancelAccount: vi.fn(), sendEmailCode: vi.fn(), sendSmsCode: vi.fn() }))
vi.mock('../api/check-cancellation', async (orig) => ({
  ...(await orig<typeof import('../api/check-cancellation')>()),
  checkCancellation: api.checkCancellation,
}))
vi.mock('../api/cancel-account', async (orig) => ({ ...(await orig<typeof import('../api/cancel-account')>()), cancelAccount: api.cancelAccount }))
vi.mock('../api/send-email-code', async (orig) => ({ ...(await orig<typeof import('../api/send-email-code')>()), sendEmailCode: api.sendEmailCode }))
vi.mock('../api/send-sms-code', async (orig) => ({ ...(await orig<typeof import('../api/send-sms-code')>()), sendSmsCode: api.sendSmsCode }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/notify', () => notify)

const user: UserInfo = { id: 7, email: 'saraa@example.mn' }

const info = (over: Partial<CancellationInfo> = {}): CancellationInfo => ({
  canCancel: true,
  reasons: [],
  apiKeys: 0,
  needEmailCode: true,
  needSmsCode: false,
  needGoogleCode: false,
  ...over,
})

const blocked = info({
  canCancel: false,
  apiKeys: 2,
  reasons: [
    {
      type: 'balance',
      code: '16220',
      msg: 'You still hold funds (1,500 MNT, 0.5 USDT): withdraw or trade them first',
      count: 2,
      balances: [
        { account: 'spot', coin: 'MNT', available: '1500', frozen: '0', total: '1500' },
        { account: 'margin_isolated', symbol: 'BTC_USDT', coin: 'USDT', available: '0.3', frozen: '0.2', total: '0.5' },
      ],
    },
    { type: 'open_orders', code: '16221', msg: 'Open spot orders: 3. Cancel them first', count: 3 },
  ],
})

const fill = (scope: HTMLElement, name: string, value: string) =>
  fireEvent.change(scope.querySelector(`[name="${name}"]`) as HTMLInputElement, { target: { value } })

describe('close account page', () => {
  beforeAll(() => accountTexts.loadFor('en_US'))
  beforeEach(() => {
    vi.clearAllMocks()
    screenWidth(1440)
    api.sendEmailCode.mockResolvedValue({ code: '0', msg: 'suc', data: null })
    api.sendSmsCode.mockResolvedValue({ code: '0', msg: 'suc', data: null })
  })
  afterEach(() => vi.restoreAllMocks())

  it('lists every blocking reason with its figures and where to settle it, and offers no closing', async () => {
    api.checkCancellation.mockResolvedValue(blocked)
    renderWithApp(<CloseAccountPage initialUser={user} />, { path: '/profile/close-account' })
    const list = await screen.findByTestId('cancel-blocked')
    expect(list.textContent).toContain('Your account cannot be closed yet')
    const balance = within(list).getByTestId('cancel-reason-balance')
    expect(balance.textContent).toContain('You still hold funds (1,500 MNT, 0.5 USDT)')
    expect(within(balance).getByTestId('cancel-reason-count').textContent).toBe('2')
    const table = within(balance).getByRole('table', { name: 'Balances still held' })
    expect(within(table).getAllByTestId('cancel-holding')).toHaveLength(2)
    expect(table.textContent).toContain('1,500')
    expect(table.textContent).toContain('Isolated margin · BTC_USDT')
    expect(within(balance).getByTestId('cancel-reason-link').getAttribute('href')).toBe('/wallet')
    const orders = within(list).getByTestId('cancel-reason-open_orders')
    expect(within(orders).getByTestId('cancel-reason-link').getAttribute('href')).toBe('/order/spot?tab=open')
    expect(within(orders).getByText('See open orders')).toBeTruthy()
    // What closing means is said whatever the check answers; the keys it deletes are counted.
    expect(screen.getByTestId('closing-means-apiKeys').textContent).toContain('you have 2')
    expect(screen.queryByTestId('close-form')).toBeNull()

    api.checkCancellation.mockResolvedValue(info())
    fireEvent.click(within(list).getByTestId('cancel-check-again'))
    expect(await screen.findByTestId('cancel-ready')).toBeTruthy()
    expect(screen.getByTestId('close-form')).toBeTruthy()
  })

  it('shows the balances as cards on a phone', async () => {
    screenWidth(390)
    api.checkCancellation.mockResolvedValue(blocked)
    renderWithApp(<CloseAccountPage initialUser={user} />)
    const cards = await screen.findByRole('list', { name: 'Balances still held' })
    expect(cards.getAttribute('data-layout')).toBe('cards')
    expect(within(cards).getAllByTestId('cancel-holding')).toHaveLength(2)
  })

  it('asks only for the codes the check names and for the typed word', async () => {
    api.checkCancellation.mockResolvedValue(info({ needEmailCode: false, needSmsCode: true, needGoogleCode: true }))
    renderWithApp(<CloseAccountPage initialUser={{ ...user, email: '', mobileNumber: '88112233', countryCode: '976' }} />)
    const form = await screen.findByTestId('close-form')
    expect(form.querySelector('[name="emailCode"]')).toBeNull()
    expect(form.querySelector('[name="smsAuthCode"]')).toBeTruthy()
    expect(form.querySelector('[name="googleCode"]')).toBeTruthy()
    expect(within(form).getByText('Type CLOSE to confirm')).toBeTruthy()
    fill(form, 'confirm', 'CLOSED')
    fireEvent.click(within(form).getByTestId('close-submit'))
    expect(await within(form).findByText('Type CLOSE exactly as shown')).toBeTruthy()
    expect(api.cancelAccount).not.toHaveBeenCalled()
    fireEvent.click(within(form).getByTestId('send-sms-code'))
    await waitFor(() => expect(api.sendSmsCode).toHaveBeenCalledWith(11))
  })

  it('closes the account, signs out and goes home', async () => {
    document.cookie = 'token=session-token; path=/'
    api.checkCancellation.mockResolvedValue(info())
    api.cancelAccount.mockResolvedValue({ code: '0', msg: 'suc', data: { cancelledAt: Date.now() } })
    const { router, queryClient } = renderWithApp(<CloseAccountPage initialUser={user} />, { path: '/profile/close-account' })
    queryClient.setQueryData(userInfoKey, user)
    const form = await screen.findByTestId('close-form')
    fill(form, 'reason', '  Moving abroad ')
    fill(form, 'emailCode', '123456')
    fill(form, 'confirm', 'close')
    fireEvent.click(within(form).getByTestId('close-submit'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(api.cancelAccount).toHaveBeenCalledWith({ emailCode: '123456', smsAuthCode: undefined, googleCode: undefined, reason: 'Moving abroad' })
    expect(notify.notifySuccess).toHaveBeenCalledWith('Your account is closed and you have been signed out.')
    expect(getToken()).toBeFalsy()
    await waitFor(() => expect(queryClient.getQueryData(userInfoKey)).toBeNull())
  })

  it('speaks Mongolian with the mn_MN language cookie', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await accountTexts.loadFor('mn_MN')
    api.checkCancellation.mockResolvedValue(blocked)
    renderWithApp(<CloseAccountPage initialUser={user} />)
    expect((await screen.findByTestId('cancel-blocked')).textContent).toContain('Таны бүртгэлийг одоохондоо хаах боломжгүй')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Бүртгэлээ хаах')
    expect(within(screen.getByTestId('cancel-reason-open_orders')).getByTestId('cancel-reason-link').textContent).toBe('Нээлттэй захиалгууд')
    expect(within(screen.getByTestId('cancel-reason-balance')).getByRole('table').textContent).toContain('Тусгаарлагдсан маржин')
  })

  it('shows the reasons a refused closing carries (16203) and its message', async () => {
    api.checkCancellation.mockResolvedValue(info({ needEmailCode: false }))
    api.cancelAccount.mockResolvedValue({ code: '16203', msg: 'The account cannot be closed yet. Items to settle first: 2', data: blocked })
    renderWithApp(<CloseAccountPage initialUser={user} />)
    const form = await screen.findByTestId('close-form')
    fill(form, 'confirm', 'CLOSE')
    fireEvent.click(within(form).getByTestId('close-submit'))
    expect(await screen.findByTestId('cancel-blocked')).toBeTruthy()
    expect(screen.getByTestId('cancel-reason-open_orders')).toBeTruthy()
    expect(screen.queryByTestId('close-form')).toBeNull()
    expect(notify.notifyError).toHaveBeenCalledWith('The account cannot be closed yet. Items to settle first: 2')
  })
})
