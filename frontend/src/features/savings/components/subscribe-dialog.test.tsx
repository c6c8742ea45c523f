import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
// The futures tests' stand-in for the exchange (aws-amplify's post): the real request client runs against it.
import { answer, refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import type { Holding, OpResult, Project } from '../api/savings-api'
import { RedeemDialog } from './redeem-dialog'
import { SubscribeDialog } from './subscribe-dialog'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn() }))
vi.mock('@/lib/notify', async (orig) => ({ ...(await orig<typeof import('@/lib/notify')>()), notifySuccess: notify.notifySuccess }))

const SUBSCRIBE = '/fe-ex-api/wallet/confirm_subscription'
const AUTO = '/fe-ex-api/wallet/confirm_auto_sub'
const RELEASE = '/fe-ex-api/wallet/savings/release'

const USDT: Project = {
  id: 'usdt',
  showName: 'USDT Flexible',
  coinSymbol: 'USDT',
  logo: '',
  period: 'yearly',
  rate: '6.5',
  yearRate: '6.50',
  tiers: [
    { upTo: '10000.000000', rate: '6.5', yearRate: '6.50' },
    { upTo: '', rate: '3', yearRate: '3.00' },
  ],
  minAmount: '1.000000',
  maxPerUser: '1000000.000000',
  precision: 6,
  open: true,
}

function holding(over: Partial<Holding> = {}): Holding {
  return {
    ...USDT,
    amount: '0.000000',
    earning: '0.000000',
    pending: '0.000000',
    redeemable: '0.000000',
    redeeming: '0.000000',
    redeemArriveDate: '',
    totalInterest: '0.000000',
    interestYesterday: '0.000000',
    autoStatus: 0,
    estimatedInterestToday: '0.000000',
    ...over,
  }
}

const DONE: OpResult = { id: 'op1', kind: 'subscribe', projectId: 'usdt', coinSymbol: 'USDT', amount: '1000.000000', status: 'success', ctime: 1, replayed: false }

function spot(normal: string) {
  return {
    totalBalance: '0', totalBalanceSymbol: 'BTC', totalValuation: '0', currency: 'USD', lang_logo: '$',
    coinList: [{ coin: 'USDT', name: 'USDT', total: normal, normal, freeze: '0', showPrecision: 6, icon: '', longName: 'Tether' }],
  }
}

function exchange(h: Holding = holding(), available = '1500') {
  serve({
    '/fe-increment-api/noToken/savings/projectPage': { list: [USDT], count: 1 },
    '/fe-increment-api/savings/holdings': [h],
    '/fe-ex-api/wallet/account_balance': spot(available),
    [SUBSCRIBE]: DONE,
    [AUTO]: null,
    [RELEASE]: (body: Record<string, unknown>) => ({ ...DONE, kind: body.type, amount: `${body.amount}`, arriveDate: body.type === 'standard' ? '2026-03-03' : undefined }),
  })
}

async function openSubscribe(onClose = vi.fn()) {
  renderWithApp(<SubscribeDialog open coin="USDT" onClose={onClose} />)
  const modal = await screen.findByTestId('subscribe-modal')
  await waitFor(() => expect(within(modal).getByTestId('subscribe-available').textContent).toContain('1,500.000000 USDT'))
  return { modal, onClose, amount: within(modal).getByTestId('subscribe-amount') as HTMLInputElement }
}

function type(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } })
}

describe('SubscribeDialog: the amount, checked as it is typed', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    exchange()
  })

  it('shows the available spot balance, the minimum, the cap left and the rate', async () => {
    const { modal } = await openSubscribe()
    expect(within(modal).getByTestId('modal-title').textContent).toBe('Subscribe to USDT Flexible')
    expect(within(modal).getByTestId('subscribe-min').textContent).toContain('1.000000 USDT')
    expect(within(modal).getByTestId('subscribe-cap-left').textContent).toContain('1,000,000.000000 USDT')
    expect(within(modal).getByTestId('subscribe-apr').textContent).toContain('6.50%')
    expect((within(modal).getByTestId('subscribe-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it.each([
    ['0', 'Enter an amount above 0'],
    ['0.5', 'The minimum is 1.000000 USDT'],
    ['1.1234567', 'At most 6 decimals'],
    ['2000', 'More than your available 1,500.000000 USDT'],
  ])('%s: the field is marked and says "%s"', async (typed, message) => {
    const { modal, amount } = await openSubscribe()
    type(amount, typed)
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'))
    expect(within(modal).getByText(message)).toBeTruthy()
    // The message is read with the field.
    await waitFor(() => {
      const described = (amount.getAttribute('aria-describedby') ?? '').split(' ')
      expect(described.some((id) => document.getElementById(id)?.textContent === message)).toBe(true)
    })
    expect((within(modal).getByTestId('subscribe-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('keeps only digits and one decimal point', async () => {
    const { amount } = await openSubscribe()
    type(amount, '1a0,5.5')
    expect(amount.value).toBe('10.55')
  })

  it('a valid amount: no mark, the expected daily interest, confirm enabled', async () => {
    const { modal, amount } = await openSubscribe()
    type(amount, '1000')
    await waitFor(() => expect(within(modal).getByTestId('subscribe-daily').textContent).toContain('≈ 0.178082 USDT'))
    expect(amount.getAttribute('aria-invalid')).toBeNull()
    expect((within(modal).getByTestId('subscribe-submit') as HTMLButtonElement).disabled).toBe(false)
  })

  it('the cap: what is held counts, Max fills the lesser of the balance and what the cap leaves', async () => {
    exchange(holding({ amount: '999000.000000' }))
    const { modal, amount } = await openSubscribe()
    await waitFor(() => expect(within(modal).getByTestId('subscribe-cap-left').textContent).toContain('1,000.000000 USDT'))
    type(amount, '1200')
    await waitFor(() => expect(within(modal).getByText('More than the cap leaves you: 1,000.000000 USDT')).toBeTruthy())
    fireEvent.click(within(modal).getByTestId('subscribe-amount-max'))
    expect(amount.value).toBe('1000.000000')
    await waitFor(() => expect((within(modal).getByTestId('subscribe-submit') as HTMLButtonElement).disabled).toBe(false))
  })
})

describe('SubscribeDialog: confirm subscribes, then sets auto-subscribe (spec §4)', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    exchange()
  })

  it('sends the subscription with a request id, then auto-subscribe on (type 1); success toast; closes', async () => {
    const { modal, amount, onClose } = await openSubscribe()
    type(amount, '1000')
    fireEvent.click(within(modal).getByRole('checkbox', { name: 'Auto-subscribe' }))
    // The checkbox tells its change a moment later.
    await waitFor(() => expect(within(modal).getByTestId('subscribe-auto').getAttribute('data-state')).toBe('checked'))
    fireEvent.click(within(modal).getByTestId('subscribe-submit'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [sub] = sentTo(SUBSCRIBE)
    expect(sub).toMatchObject({ projectId: 'usdt', coinSymbol: 'USDT', amount: '1000' })
    expect(String(sub.requestId)).toMatch(/^[0-9a-z-]{16,}$/)
    expect(sentTo(AUTO)).toEqual([expect.objectContaining({ projectId: 'usdt', coinSymbol: 'USDT', type: 1 })])
    expect(notify.notifySuccess).toHaveBeenCalledWith('Subscribed 1,000.000000 USDT. It earns from tomorrow (UTC).')
  })

  it('auto-subscribe left unticked is set off (type 0); an auto-subscribe already on starts ticked', async () => {
    const { modal, amount, onClose } = await openSubscribe()
    type(amount, '10')
    fireEvent.click(within(modal).getByTestId('subscribe-submit'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sentTo(AUTO)).toEqual([expect.objectContaining({ type: 0 })])
  })

  it('a refused subscription: "Failed" with the code and message, no auto-subscribe, the dialog stays open; the next try is a new request', async () => {
    answer({ [SUBSCRIBE]: refuse('19004', 'Above the most one user may hold: 10.000000 USDT') })
    const { modal, amount, onClose } = await openSubscribe()
    type(amount, '1000')
    fireEvent.click(within(modal).getByTestId('subscribe-submit'))
    const failed = await within(modal).findByTestId('subscribe-failed')
    expect(failed.textContent).toContain('Failed')
    expect(failed.textContent).toContain('Code 19004: Above the most one user may hold: 10.000000 USDT')
    expect(sentTo(AUTO)).toEqual([])
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByTestId('subscribe-modal')).toBeTruthy()
    // Confirm again: a new request id (nothing was subscribed).
    fireEvent.click(within(modal).getByTestId('subscribe-submit'))
    await waitFor(() => expect(sentTo(SUBSCRIBE)).toHaveLength(2))
    const [first, second] = sentTo(SUBSCRIBE)
    expect(second.requestId).not.toBe(first.requestId)
  })

  it('auto-subscribe refused after the subscription: Failed, and confirming again replays the same subscription (same request id)', async () => {
    answer({ [AUTO]: refuse('19007', 'Busy, try again') })
    const { modal, amount, onClose } = await openSubscribe()
    type(amount, '1000')
    fireEvent.click(within(modal).getByTestId('subscribe-submit'))
    const failed = await within(modal).findByTestId('subscribe-failed')
    expect(failed.getAttribute('data-step')).toBe('auto')
    expect(failed.textContent).toContain('Code 19007: Busy, try again')
    expect(failed.textContent).toContain('The subscription went through')
    answer({ [AUTO]: null })
    fireEvent.click(within(modal).getByTestId('subscribe-submit'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [first, second] = sentTo(SUBSCRIBE)
    expect(second.requestId).toBe(first.requestId)
  })

  it('a double click subscribes once', async () => {
    let release: () => void = () => {}
    answer({ [SUBSCRIBE]: () => new Promise((resolve) => (release = () => resolve(DONE))) })
    const { modal, amount, onClose } = await openSubscribe()
    type(amount, '1000')
    const submit = within(modal).getByTestId('subscribe-submit')
    fireEvent.click(submit)
    fireEvent.click(submit)
    fireEvent.submit(submit.closest('form')!)
    await waitFor(() => expect(sentTo(SUBSCRIBE)).toHaveLength(1))
    release()
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sentTo(SUBSCRIBE)).toHaveLength(1)
  })

  it('a closed product takes no subscription', async () => {
    serve({
      '/fe-increment-api/noToken/savings/projectPage': { list: [{ ...USDT, open: false }], count: 1 },
      '/fe-increment-api/savings/holdings': [holding({ open: false })],
      '/fe-ex-api/wallet/account_balance': spot('1500'),
    })
    const { modal, amount } = await openSubscribe()
    expect(within(modal).getByTestId('subscribe-closed')).toBeTruthy()
    type(amount, '10')
    expect((within(modal).getByTestId('subscribe-submit') as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('RedeemDialog', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    exchange(holding({ amount: '1000.178082', earning: '1000.178082', redeemable: '1000.178082' }))
  })

  async function openRedeem() {
    const onClose = vi.fn()
    renderWithApp(<RedeemDialog open coin="USDT" onClose={onClose} />)
    const modal = await screen.findByTestId('redeem-modal')
    await within(modal).findByTestId('redeem-amount')
    return { modal, onClose, amount: within(modal).getByTestId('redeem-amount') as HTMLInputElement }
  }

  it('at most what can be redeemed; Max fills it all', async () => {
    const { modal, amount } = await openRedeem()
    type(amount, '1000.2')
    await waitFor(() => expect(within(modal).getByText('More than the redeemable 1,000.178082 USDT')).toBeTruthy())
    expect(amount.getAttribute('aria-invalid')).toBe('true')
    fireEvent.click(within(modal).getByTestId('redeem-amount-max'))
    expect(amount.value).toBe('1000.178082')
    expect((within(modal).getByTestId('redeem-submit') as HTMLButtonElement).disabled).toBe(false)
  })

  it('fast is the default; standard says when it arrives; the type goes with the request', async () => {
    const { modal, amount, onClose } = await openRedeem()
    expect((within(modal).getByTestId('redeem-type-fast') as HTMLInputElement).checked).toBe(true)
    expect(within(modal).getByTestId('redeem-option-fast').textContent).toContain("Today's interest on this amount is lost")
    expect(within(modal).getByTestId('redeem-option-standard').textContent).toMatch(/on \d{4}-\d{2}-\d{2} \(UTC\), with today's interest/)
    fireEvent.click(within(modal).getByTestId('redeem-type-standard'))
    type(amount, '100')
    fireEvent.click(within(modal).getByTestId('redeem-submit'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sentTo(RELEASE)).toEqual([expect.objectContaining({ projectId: 'usdt', coinSymbol: 'USDT', amount: '100', type: 'standard' })])
    expect(notify.notifySuccess).toHaveBeenCalledWith('100.000000 USDT arrives in your spot account on 2026-03-03 (UTC).')
  })

  it('says when there is nothing to redeem', async () => {
    exchange(holding())
    renderWithApp(<RedeemDialog open coin="USDT" onClose={() => {}} />)
    expect(await screen.findByTestId('redeem-nothing')).toBeTruthy()
  })
})
