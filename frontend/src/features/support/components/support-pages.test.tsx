import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/request-client'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import { DEFAULT_TICKET_TYPES } from '../api/problem-types'
import type { Ticket, TicketDetail } from '../api/types'
import { MAX_IMAGE_BYTES } from '../lib/attachments'
import { supportTexts } from '../lib/texts'
import { NewTicketPage } from './new-ticket-page'
import { TicketPage } from './ticket-page'
import { TicketsPage } from './tickets-page'

const api = vi.hoisted(() => ({
  fetchTickets: vi.fn(),
  fetchTicketTypes: vi.fn(),
  createTicket: vi.fn(),
  fetchTicket: vi.fn(),
  replyToTicket: vi.fn(),
  uploadImage: vi.fn(),
  fetchUpload: vi.fn(),
}))
vi.mock('../api/problem-list', () => ({ fetchTickets: api.fetchTickets }))
vi.mock('../api/problem-types', async (orig) => ({ ...(await orig<typeof import('../api/problem-types')>()), fetchTicketTypes: api.fetchTicketTypes }))
vi.mock('../api/create-problem', () => ({ createTicket: api.createTicket }))
vi.mock('../api/details-problem', async (orig) => ({ ...(await orig<typeof import('../api/details-problem')>()), fetchTicket: api.fetchTicket }))
vi.mock('../api/reply-create', () => ({ replyToTicket: api.replyToTicket }))
vi.mock('../api/upload-img', async (orig) => ({ ...(await orig<typeof import('../api/upload-img')>()), uploadImage: api.uploadImage }))
vi.mock('../api/upload-file', () => ({ fetchUpload: api.fetchUpload }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }))
vi.mock('@/lib/notify', () => notify)

if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  ;(globalThis as unknown as { CSS: { escape: (s: string) => string } }).CSS = { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) }
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const png = (name: string) => new File([PNG], name, { type: 'image/png' })

const ticket = (over: Partial<Ticket> = {}): Ticket => ({
  id: 'TK7Q2M4Z',
  type: 'deposit',
  title: 'Deposit missing',
  status: 'open',
  createdAt: new Date(2026, 11, 7, 10, 0).getTime(),
  updatedAt: new Date(2026, 11, 7, 11, 30).getTime(),
  messages: 1,
  lastBy: 'user',
  ...over,
})

const detail = (over: Partial<TicketDetail> = {}): TicketDetail => ({
  ...ticket(),
  thread: [{ seq: 1, by: 'user', text: 'I sent 10 USDT\non TRC20.', attachments: ['up-1'], at: new Date(2026, 11, 7, 10, 0).getTime() }],
  ...over,
})

const ok = <T,>(data: T) => ({ code: '0', msg: 'suc', data })

/** An upload that reports half, then finishes when `finish` is called. */
function pendingUpload(id: string) {
  let finish: () => void = () => {}
  api.uploadImage.mockImplementationOnce((_file: File, onProgress?: (f: number) => void) => {
    onProgress?.(0.5)
    return { promise: new Promise((resolve) => (finish = () => resolve({ id }))), abort: vi.fn() }
  })
  return () => finish()
}

describe('support pages', () => {
  beforeAll(() => supportTexts.loadFor('en_US'))
  beforeEach(() => {
    vi.clearAllMocks()
    screenWidth(1440)
    api.fetchTicketTypes.mockResolvedValue(DEFAULT_TICKET_TYPES)
    api.fetchUpload.mockResolvedValue(new Blob([PNG], { type: 'image/png' }))
  })
  afterEach(() => vi.restoreAllMocks())

  it('lists the tickets in a table with their state, and pages', async () => {
    api.fetchTickets.mockResolvedValue({
      count: 12,
      list: [ticket(), ticket({ id: 'TKB', title: 'Withdrawal late', type: 'withdrawal', status: 'answered', lastBy: 'support', messages: 2 })],
    })
    const onSearch = vi.fn()
    renderWithApp(<TicketsPage search={{}} onSearch={onSearch} />)
    const table = await screen.findByRole('table', { name: 'Your support tickets' })
    const rows = within(table).getAllByTestId('ticket-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByTestId('ticket-status').textContent).toBe('Waiting for support')
    expect(within(rows[0]).getByTestId('ticket-link').getAttribute('href')).toBe('/profile/support/TK7Q2M4Z')
    expect(within(rows[1]).getByText('New answer')).toBeTruthy()
    expect(within(rows[1]).getByText('Withdrawal')).toBeTruthy()
    expect(api.fetchTickets).toHaveBeenCalledWith({ status: '', page: 1, pageSize: 10 }, expect.anything())
    fireEvent.click(screen.getByTestId('tickets-pager-next'))
    expect(onSearch).toHaveBeenCalledWith({ status: undefined, page: 2 })
    fireEvent.click(within(screen.getByTestId('ticket-filter')).getByText('Closed'))
    await waitFor(() => expect(onSearch).toHaveBeenCalledWith({ status: 'closed', page: undefined }))
  })

  it('shows one card per ticket on a phone, and an empty state that leads to a new ticket', async () => {
    screenWidth(390)
    api.fetchTickets.mockResolvedValue({ count: 1, list: [ticket()] })
    const { unmount } = renderWithApp(<TicketsPage search={{ status: 'open' }} onSearch={vi.fn()} />)
    const cards = await screen.findByRole('list', { name: 'Your support tickets' })
    expect(cards.getAttribute('data-layout')).toBe('cards')
    expect(api.fetchTickets).toHaveBeenCalledWith({ status: 'open', page: 1, pageSize: 10 }, expect.anything())
    unmount()

    api.fetchTickets.mockResolvedValue({ count: 0, list: [] })
    renderWithApp(<TicketsPage search={{}} onSearch={vi.fn()} />)
    const empty = await screen.findByTestId('tickets-empty')
    expect(empty.textContent).toContain('You have no tickets yet')
    expect(within(empty).getByRole('link', { name: 'New ticket' }).getAttribute('href')).toBe('/profile/support/new')
  })

  it('checks the new ticket, uploads its images with progress and sends their ids', async () => {
    const finish = pendingUpload('up-9')
    api.createTicket.mockResolvedValue(ok(detail({ id: 'TKNEW' })))
    const { router } = renderWithApp(<NewTicketPage />, { path: '/profile/support/new' })
    const form = await screen.findByTestId('new-ticket-form')
    fireEvent.click(within(form).getByTestId('new-ticket-submit'))
    expect(await within(form).findByText('Choose a topic')).toBeTruthy()
    expect(within(form).getAllByText('required')).toHaveLength(2)

    const input = within(form).getByTestId('attach-input') as HTMLInputElement
    const big = new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], 'huge.png', { type: 'image/png' })
    const pdf = new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], 'scan.png', { type: 'image/png' })
    fireEvent.change(input, { target: { files: [png('shot.png'), big, pdf] } })
    const item = await within(form).findByTestId('attach-item')
    expect(item.getAttribute('data-state')).toBe('uploading')
    expect(within(item).getByText('Uploading… 50%')).toBeTruthy()
    await waitFor(() => expect(within(item).getByRole('img', { name: 'Image 1' }).getAttribute('src')).toMatch(/^data:image\/png;base64,/))
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith('huge.png is larger than 4 MB'))
    expect(notify.notifyError).toHaveBeenCalledWith('scan.png: only JPEG or PNG images can be attached')

    fireEvent.change(form.querySelector('select[name="type"]') as HTMLSelectElement, { target: { value: 'deposit' } })
    fireEvent.change(form.querySelector('input[name="title"]') as HTMLInputElement, { target: { value: 'Deposit missing' } })
    fireEvent.change(form.querySelector('textarea[name="description"]') as HTMLTextAreaElement, { target: { value: 'Sent 10 USDT' } })
    fireEvent.click(within(form).getByTestId('new-ticket-submit'))
    await waitFor(() => expect(notify.notifyError).toHaveBeenCalledWith('Wait until the images are uploaded'))
    expect(api.createTicket).not.toHaveBeenCalled()

    finish()
    await waitFor(() => expect(within(form).getByTestId('attach-item').getAttribute('data-state')).toBe('done'))
    fireEvent.click(within(form).getByTestId('new-ticket-submit'))
    await waitFor(() =>
      expect(api.createTicket).toHaveBeenCalledWith({ type: 'deposit', title: 'Deposit missing', description: 'Sent 10 USDT', attachments: ['up-9'] }),
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile/support/TKNEW'))
    expect(notify.notifySuccess).toHaveBeenCalledWith('Ticket sent. We will answer here and by e-mail.')
  })

  it('keeps at most five images and lets one be removed', async () => {
    api.uploadImage.mockImplementation(() => ({ promise: Promise.resolve({ id: `up-${Math.random()}` }), abort: vi.fn() }))
    renderWithApp(<NewTicketPage />)
    const form = await screen.findByTestId('new-ticket-form')
    const input = within(form).getByTestId('attach-input') as HTMLInputElement
    fireEvent.change(input, { target: { files: ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => png(`${n}.png`)) } })
    await waitFor(() => expect(within(form).getAllByTestId('attach-item')).toHaveLength(5))
    expect(notify.notifyError).toHaveBeenCalledWith('You can attach at most 5 images')
    expect((within(form).getByTestId('attach-add') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(within(form).getByRole('button', { name: 'Remove c.png' }))
    await waitFor(() => expect(within(form).getAllByTestId('attach-item')).toHaveLength(4))
    expect((within(form).getByTestId('attach-add') as HTMLButtonElement).disabled).toBe(false)
  })

  it('shows the thread with the images and support messages, and sends a reply', async () => {
    const answered = detail({
      status: 'answered',
      messages: 2,
      lastBy: 'support',
      thread: [...detail().thread, { seq: 2, by: 'support', text: 'We found it.', attachments: [], at: new Date(2026, 11, 7, 12, 0).getTime() }],
    })
    api.fetchTicket.mockResolvedValue(answered)
    api.replyToTicket.mockResolvedValue(
      ok({
        ...answered,
        status: 'open',
        messages: 3,
        thread: [...answered.thread, { seq: 3, by: 'user', text: 'Thanks!', attachments: [], at: Date.now() }],
      }),
    )
    renderWithApp(<TicketPage id="TK7Q2M4Z" />)
    const thread = await screen.findByTestId('ticket-thread')
    const messages = within(thread).getAllByTestId('ticket-message')
    expect(messages.map((m) => m.getAttribute('data-by'))).toEqual(['user', 'support'])
    expect(within(messages[0]).getByTestId('ticket-message-text').textContent).toBe('I sent 10 USDT\non TRC20.')
    expect(within(messages[1]).getByText('Tenger support')).toBeTruthy()
    expect(await within(messages[0]).findByRole('button', { name: 'Open image 1' })).toBeTruthy()
    expect(api.fetchUpload).toHaveBeenCalledWith('up-1', expect.anything())
    expect(screen.getByTestId('ticket-notice').textContent).toContain('Support answered')

    const form = screen.getByTestId('reply-form')
    fireEvent.click(within(form).getByTestId('reply-submit'))
    expect(await within(form).findByText('required')).toBeTruthy()
    fireEvent.change(form.querySelector('textarea[name="content"]') as HTMLTextAreaElement, { target: { value: ' Thanks! ' } })
    fireEvent.click(within(form).getByTestId('reply-submit'))
    await waitFor(() => expect(api.replyToTicket).toHaveBeenCalledWith('TK7Q2M4Z', ' Thanks! ', []))
    await waitFor(() => expect(within(screen.getByTestId('ticket-thread')).getAllByTestId('ticket-message')).toHaveLength(3))
    expect((form.querySelector('textarea[name="content"]') as HTMLTextAreaElement).value).toBe('')
    expect(notify.notifySuccess).toHaveBeenCalledWith('Reply sent')
  })

  it('shows a closed ticket read-only and an unknown one as not found', async () => {
    api.fetchTicket.mockResolvedValue(detail({ status: 'closed' }))
    const { unmount } = renderWithApp(<TicketPage id="TK7Q2M4Z" />)
    expect((await screen.findByTestId('ticket-notice')).textContent).toContain('This ticket is closed')
    expect(screen.queryByTestId('reply-form')).toBeNull()
    expect(screen.getByRole('link', { name: 'Open a new ticket' }).getAttribute('href')).toBe('/profile/support/new')
    unmount()

    api.fetchTicket.mockRejectedValue(new ApiError({ code: '16240', msg: 'Ticket not found', data: null }))
    renderWithApp(<TicketPage id="nope" />)
    expect((await screen.findByTestId('ticket-error')).textContent).toContain('This ticket was not found.')
  })
})
