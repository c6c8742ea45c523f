import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { answer, refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import { spot, USDT_90 } from '../test/fixtures'
import { StakeDialog } from './stake-dialog'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn() }))
vi.mock('@/lib/notify', async (orig) => ({ ...(await orig<typeof import('@/lib/notify')>()), notifySuccess: notify.notifySuccess }))

const CREATE = '/fe-increment-api/staking_create_order'

function exchange({ mine = '99000.000000', available = '1500', remaining = USDT_90.remaining } = {}) {
  serve({
    '/fe-increment-api/get_project_info': { ...USDT_90, remaining, mine },
    '/fe-ex-api/wallet/account_balance': spot('USDT', available),
    [CREATE]: (body: Record<string, unknown>) => ({ id: 's1', kind: 'stake', projectId: 'usdt-90', coinSymbol: 'USDT', amount: `${body.amount}.000000`, status: 'success', ctime: Date.parse('2026-12-07T22:00:00Z') }),
  })
}

async function open(onClose = vi.fn()) {
  renderWithApp(<StakeDialog open project={USDT_90} onClose={onClose} />)
  const modal = await screen.findByTestId('stake-modal')
  await waitFor(() => expect(within(modal).getByTestId('stake-available').textContent).toContain('1,500.000000 USDT'))
  return { modal, onClose, amount: within(modal).getByTestId('stake-amount') as HTMLInputElement }
}

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } })

describe('StakeDialog: the amount, checked as it is typed', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    exchange()
  })

  it('shows the spot balance, the minimum, the cap left (cap less what is staked) and the pool room', async () => {
    const { modal } = await open()
    expect(within(modal).getByTestId('modal-title').textContent).toBe('Stake in USDT 90-day staking')
    expect(within(modal).getByTestId('stake-min').textContent).toContain('10.000000 USDT')
    expect(within(modal).getByTestId('stake-user-left').textContent).toContain('1,000.000000 USDT')
    expect(within(modal).getByTestId('stake-pool-left').textContent).toContain('7,500,000.000000 USDT')
    expect(within(modal).getByTestId('stake-terms').textContent).toContain('10.00% · 90 days · Every day')
    expect((within(modal).getByTestId('stake-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it.each([
    ['0', 'Enter an amount above 0'],
    ['9.99', 'The minimum is 10.000000 USDT'],
    ['10.1234567', 'At most 6 decimals'],
    ['1200', 'More than your cap leaves you: 1,000.000000 USDT'],
  ])('%s: the field is marked and says "%s"', async (typed, message) => {
    const { modal, amount } = await open()
    type(amount, typed)
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'))
    expect(within(modal).getByText(message)).toBeTruthy()
    await waitFor(() => {
      const described = (amount.getAttribute('aria-describedby') ?? '').split(' ')
      expect(described.some((id) => document.getElementById(id)?.textContent === message)).toBe(true)
    })
    expect((within(modal).getByTestId('stake-submit') as HTMLButtonElement).disabled).toBe(true)
  })

  it('more than the spot balance, and more than the pool still takes', async () => {
    exchange({ mine: '0', available: '800' })
    renderWithApp(<StakeDialog open project={USDT_90} onClose={() => {}} />)
    const modal = await screen.findByTestId('stake-modal')
    const amount = await within(modal).findByTestId('stake-amount')
    type(amount, '900')
    expect(await within(modal).findByText('More than your available 800.000000 USDT')).toBeTruthy()
  })

  it('the pool: no more than it still takes; Max fills the least of balance, cap left and pool room', async () => {
    exchange({ mine: '0', remaining: '250.000000' })
    const { modal, amount } = await open()
    type(amount, '300')
    expect(await within(modal).findByText('More than the pool still takes: 250.000000 USDT')).toBeTruthy()
    fireEvent.click(within(modal).getByTestId('stake-amount-max'))
    expect(amount.value).toBe('250.000000')
  })

  it('the expected rewards as it is typed: amount × APR ÷ 365 a day, × 90 days', async () => {
    const { modal, amount } = await open()
    type(amount, '100')
    await waitFor(() => expect(within(modal).getByTestId('stake-daily').textContent).toContain('≈ 0.027397 USDT'))
    expect(within(modal).getByTestId('stake-expected').textContent).toContain('≈ 2.465730 USDT')
    type(amount, '1000')
    await waitFor(() => expect(within(modal).getByTestId('stake-daily').textContent).toContain('≈ 0.273972 USDT'))
    expect(within(modal).getByTestId('stake-expected').textContent).toContain('≈ 24.657480 USDT')
    expect(within(modal).getByTestId('stake-dates').textContent).toMatch(/Earns from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC\)/)
  })
})

describe('StakeDialog: staking', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    exchange()
  })

  it('sends the product, the amount and a request id; success toast; closes', async () => {
    const { modal, amount, onClose } = await open()
    type(amount, '100')
    fireEvent.click(within(modal).getByTestId('stake-submit'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [sent] = sentTo(CREATE)
    expect(sent).toMatchObject({ projectId: 'usdt-90', amount: '100' })
    expect(String(sent.requestId)).toMatch(/^[0-9a-z-]{16,}$/)
    // The day after the exchange took it, by the exchange's clock.
    expect(notify.notifySuccess).toHaveBeenCalledWith('Staked 100.000000 USDT. Rewards start on 2026-12-08 (UTC).')
  })

  it('a refusal (its toast has the server’s words) keeps the dialog open; the next try is a new request', async () => {
    answer({ [CREATE]: refuse('19004', 'Above the most one user may stake: 1,000 USDT') })
    const { modal, amount, onClose } = await open()
    type(amount, '100')
    fireEvent.click(within(modal).getByTestId('stake-submit'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    await waitFor(() => expect((within(modal).getByTestId('stake-submit') as HTMLButtonElement).disabled).toBe(false))
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.click(within(modal).getByTestId('stake-submit'))
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(2))
    const [first, second] = sentTo(CREATE)
    expect(second.requestId).not.toBe(first.requestId)
  })

  it('a double click stakes once', async () => {
    let release: () => void = () => {}
    answer({ [CREATE]: () => new Promise((resolve) => (release = () => resolve({ id: 's1', kind: 'stake', amount: '100.000000' }))) })
    const { modal, amount, onClose } = await open()
    type(amount, '100')
    const submit = within(modal).getByTestId('stake-submit')
    fireEvent.click(submit)
    fireEvent.click(submit)
    fireEvent.submit(submit.closest('form')!)
    await waitFor(() => expect(sentTo(CREATE)).toHaveLength(1))
    release()
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sentTo(CREATE)).toHaveLength(1)
  })

  it('a closed product takes no stake', async () => {
    serve({
      '/fe-increment-api/get_project_info': { ...USDT_90, open: false, mine: '0' },
      '/fe-ex-api/wallet/account_balance': spot('USDT', '1500'),
    })
    const { modal, amount } = await open()
    expect(within(modal).getByTestId('stake-closed')).toBeTruthy()
    type(amount, '100')
    expect((within(modal).getByTestId('stake-submit') as HTMLButtonElement).disabled).toBe(true)
  })
})
