import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import type { Order } from '../api/types'
import { p2pTexts } from '../lib/texts'
import { orderFixture } from '../fixtures'
import { OrderDetailPage, OrderView } from './order-detail-page'

const api = vi.hoisted(() => ({
  fetchPublicInfo: vi.fn(),
  fetchOrder: vi.fn(),
  fetchChat: vi.fn(),
  sendChat: vi.fn(),
  markPaid: vi.fn(),
  cancelOrder: vi.fn(),
  releaseOrder: vi.fn(),
  appealOrder: vi.fn(),
  cancelAppeal: vi.fn(),
}))
vi.mock('../api/p2p-api', () => api)
const uploads = vi.hoisted(() => ({ fetchOrderImage: vi.fn(async () => 'data:image/png;base64,AA=='), uploadImage: vi.fn() }))
vi.mock('../api/uploads', async (orig) => ({ ...(await orig<typeof import('../api/uploads')>()), ...uploads }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), markUnreachableTold: vi.fn() }))
vi.mock('@/lib/notify', () => notify)
const session = vi.hoisted(() => ({ user: { id: 'b1' } as { id: string } | null }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: session.user, isSignedIn: !!session.user, isLoading: false, refetch: vi.fn() }),
}))

const INFO = {
  coins: [{ coinSymbol: 'USDT', volumePrecision: 2 }],
  fiats: ['MNT'],
  limitTimes: [15, 30],
  appealReasons: ['paid_not_released', 'other'],
  payments: [],
  maxOpenAds: 20,
  maxOpenOrders: 5,
  priceRateMin: 70,
  priceRateMax: 130,
}

const order = (over: Partial<Order> = {}): Order =>
  orderFixture({
    payments: [{ id: 'p1', kind: 'bank', title: 'Khan Bank', userName: 'Bat Saraa', account: 'MN123456789012345678', bank: 'KHAN' }],
    description: 'Own account only.',
    ctime: Date.now() - 60_000,
    payDeadline: Date.now() + 14 * 60_000 + 30_000,
    ...over,
  })

/** The order view with the page's texts, as the order page shows a loaded order. */
function Harness({ order: o, uid }: { order: Order; uid: string }) {
  const { t } = p2pTexts.useTexts()
  return <OrderView order={o} uid={uid} t={t} />
}

async function view(o: Order, uid: string) {
  session.user = { id: uid }
  const result = renderWithApp(<Harness order={o} uid={uid} />)
  await screen.findByTestId('order-title')
  return result
}

describe('the order page', () => {
  beforeAll(() => p2pTexts.loadFor('en_US'))
  beforeEach(() => {
    vi.clearAllMocks()
    api.fetchPublicInfo.mockResolvedValue(INFO)
    api.fetchChat.mockResolvedValue([
      { id: '0001#a', by: 'system', content: 'created', ctime: 1 },
      { id: '0002#b', by: 'm1', content: 'Hello, pay to Khan Bank', ctime: 2 },
      { id: '0003#c', by: 'm1', content: '', image: 'up-7', ctime: 3 },
    ])
  })

  it('shows an unpaid order to the buyer: countdown, amounts, the seller accounts, Mark paid and Cancel', async () => {
    await view(order(), 'b1')
    expect(screen.getByTestId('order-title').textContent).toBe('Buy USDT')
    expect(screen.getByTestId('order-status').textContent).toBe('Unpaid')
    expect(screen.getByTestId('order-countdown').textContent).toMatch(/^14:(2\d|30)$/)
    expect(screen.getByTestId('order-total').textContent).toBe('35,000.00 MNT')
    expect(screen.getByTestId('order-volume').textContent).toBe('10 USDT')
    expect(screen.getByTestId('order-account-number').textContent).toBe('MN123456789012345678')
    expect(screen.getByText('Pay the seller to one of these accounts')).toBeTruthy()
    const actions = screen.getByTestId('order-actions')
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['I have paid', 'Cancel order'])
    // The chat: the system key translated, the other side's message.
    expect((await screen.findByTestId('chat-system')).textContent).toContain('Order created')
    const [text, image] = screen.getAllByTestId('chat-message')
    expect(text.getAttribute('data-author')).toBe('peer')
    // The other side's image, read through the order.
    expect(await within(image).findByTestId('p2p-image')).toBeTruthy()
    expect(uploads.fetchOrderImage).toHaveBeenCalledWith('1796621569577037764', 'up-7', expect.anything())
  })

  it('marks paid after the confirmation and shows the answer', async () => {
    api.markPaid.mockResolvedValue(order({ status: 'BUYER_PAID', payTime: Date.now() }))
    await view(order(), 'b1')
    fireEvent.click(screen.getByTestId('order-markPaid'))
    fireEvent.click(await screen.findByTestId('paid-confirm'))
    await waitFor(() => expect(api.markPaid).toHaveBeenCalledWith('1796621569577037764'))
    expect(notify.notifySuccess).toHaveBeenCalledWith('The order is marked as paid')
  })

  it('cancels only after the confirmation; keeping the order sends nothing', async () => {
    api.cancelOrder.mockResolvedValue(order({ status: 'CANCELLED' }))
    await view(order(), 'b1')
    fireEvent.click(screen.getByTestId('order-cancel'))
    const dialog = await screen.findByTestId('cancel-dialog')
    fireEvent.click(within(dialog).getByText('Keep the order'))
    await waitFor(() => expect(screen.queryByTestId('cancel-dialog')).toBeNull())
    expect(api.cancelOrder).not.toHaveBeenCalled()
    fireEvent.click(screen.getByTestId('order-cancel'))
    fireEvent.click(await screen.findByTestId('cancel-confirm'))
    await waitFor(() => expect(api.cancelOrder).toHaveBeenCalledWith('1796621569577037764'))
  })

  it('lets the seller of a paid order release with the fund password, and appeal', async () => {
    api.releaseOrder.mockRejectedValueOnce(new ApiError({ code: '17013', msg: 'Wrong fund password', data: null }))
    api.releaseOrder.mockResolvedValueOnce(order({ status: 'COMPLETED', side: 'SELL' }))
    await view(order({ status: 'BUYER_PAID', side: 'SELL' }), 'm1')
    expect(screen.getByTestId('order-title').textContent).toBe('Sell USDT')
    expect(screen.queryByTestId('order-countdown')).toBeNull()
    expect(within(screen.getByTestId('order-actions')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Release', 'Appeal'])
    fireEvent.click(screen.getByTestId('order-release'))
    const dialog = await screen.findByTestId('release-dialog')
    fireEvent.click(within(dialog).getByTestId('release-dialog-submit'))
    expect(await within(dialog).findByText('Required')).toBeTruthy()
    expect(api.releaseOrder).not.toHaveBeenCalled()
    fireEvent.change(within(dialog).getByTestId('release-password'), { target: { value: 'Wrong1pass' } })
    fireEvent.click(within(dialog).getByTestId('release-dialog-submit'))
    await waitFor(() => expect(api.releaseOrder).toHaveBeenCalledWith('1796621569577037764', 'Wrong1pass'))
    // A refusal keeps the dialog for another try.
    expect(screen.getByTestId('release-dialog')).toBeTruthy()
    fireEvent.change(within(dialog).getByTestId('release-password'), { target: { value: 'Fund2026pass' } })
    fireEvent.click(within(dialog).getByTestId('release-dialog-submit'))
    await waitFor(() => expect(api.releaseOrder).toHaveBeenLastCalledWith('1796621569577037764', 'Fund2026pass'))
    await waitFor(() => expect(notify.notifySuccess).toHaveBeenCalledWith('The coins were released'))
  })

  it('sends an appeal with a reason and a description', async () => {
    api.appealOrder.mockResolvedValue(order({ status: 'IN_APPEAL' }))
    await view(order({ status: 'BUYER_PAID' }), 'b1')
    fireEvent.click(screen.getByTestId('order-appeal'))
    const dialog = await screen.findByTestId('appeal-dialog')
    fireEvent.click(within(dialog).getByTestId('appeal-dialog-submit'))
    expect((await within(dialog).findAllByText('Required')).length).toBe(2)
    fireEvent.change(within(dialog).getByTestId('appeal-reason'), { target: { value: 'paid_not_released' } })
    fireEvent.change(within(dialog).getByTestId('appeal-description'), { target: { value: '  Paid an hour ago.  ' } })
    fireEvent.click(within(dialog).getByTestId('appeal-dialog-submit'))
    await waitFor(() =>
      expect(api.appealOrder).toHaveBeenCalledWith({ id: '1796621569577037764', reason: 'paid_not_released', description: 'Paid an hour ago.', evidence: [] }),
    )
  })

  it('shows the appellant Withdraw appeal, the other side only Release, and the decided outcome', async () => {
    const appeal = { by: 'b1', reason: 'paid_not_released', description: 'Paid.', evidence: [], ctime: 1, status: 'open' }
    const { unmount } = await view(order({ status: 'IN_APPEAL', appeal }), 'b1')
    expect(screen.getByTestId('order-status').textContent).toBe('In appeal')
    expect(within(screen.getByTestId('order-actions')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Withdraw appeal'])
    expect(screen.getByTestId('order-appeal').textContent).toContain('I paid but the seller has not released')
    unmount()
    const second = await view(order({ status: 'IN_APPEAL', appeal, side: 'SELL' }), 'm1')
    expect(within(screen.getByTestId('order-actions')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Release'])
    second.unmount()
    await view(order({ status: 'COMPLETED', appeal: { ...appeal, status: 'decided', outcome: 'release', note: 'Bank confirmed.', decidedAt: 5 } }), 'b1')
    expect(screen.getByTestId('order-status').textContent).toBe('Appeal decided')
    expect(screen.getByTestId('appeal-outcome').textContent).toContain('Decided: the coins were released to the buyer')
    expect(screen.getByTestId('appeal-note').textContent).toBe("Operator's note: Bank confirmed.")
    expect(screen.queryByTestId('order-actions')).toBeNull()
  })

  it('sends a chat message and shows what the server answers', async () => {
    api.sendChat.mockResolvedValue([{ id: '0004#d', by: 'b1', content: 'Paid now', ctime: 4 }])
    await view(order(), 'b1')
    await screen.findAllByTestId('chat-message')
    expect((screen.getByTestId('chat-send') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'Paid now' } })
    fireEvent.click(screen.getByTestId('chat-send'))
    await waitFor(() => expect(api.sendChat).toHaveBeenCalledWith({ id: '1796621569577037764', content: 'Paid now', after: '0003#c' }))
    const mine = await screen.findByText('Paid now')
    expect(mine.closest('[data-author]')?.getAttribute('data-author')).toBe('me')
  })

  it('says when the order is not the caller, and offers a retry when it could not be read', async () => {
    session.user = { id: 'b1' }
    api.fetchOrder.mockRejectedValue(new ApiError({ code: '17010', msg: 'no such order', data: null }))
    const { unmount } = renderWithApp(<OrderDetailPage id="42" />)
    expect((await screen.findByTestId('order-error')).textContent).toContain('This order does not exist, or it is not yours.')
    unmount()
    api.fetchOrder.mockRejectedValue(new Error('Error: boom'))
    renderWithApp(<OrderDetailPage id="42" />)
    const error = await screen.findByTestId('order-error')
    expect(error.textContent).toContain('The order could not be loaded.')
    expect(within(error).getByRole('button', { name: 'Try again' })).toBeTruthy()
  })
})
