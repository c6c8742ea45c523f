import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createUserUpdateInvalidator } from '@/features/live-updates/use-live-user-updates'
import { renderWithApp } from '@/test/render'
import type { AssetEntry, DepositRecord, HistoryFilter, Page, TransferRecord, WithdrawRecord } from '../api/wallet-api'
import { HISTORY_PAGE_SIZE, HistoryPage, pairName } from './history-page'

const api = vi.hoisted(() => ({
  getAssets: vi.fn(),
  getDepositHistory: vi.fn(),
  getWithdrawHistory: vi.fn(),
  getTransferHistory: vi.fn(),
  getPaymentList: vi.fn(),
}))
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))

const deposit = (i: number, over: Partial<DepositRecord> = {}): DepositRecord => ({
  id: `d${i}`,
  coin: 'BTC',
  chain: 'BTC',
  txid: `tx${i}`,
  address: 'bc1qexample',
  amount: `0.${i}`,
  confirmations: 2,
  requiredConfirmations: 2,
  status: 'credited',
  createTime: 1_700_000_000_000 + i,
  ...over,
})

/** A server page of `count` deposits: the rows of the asked page. */
function pageOf(count: number, filter: HistoryFilter): Page<DepositRecord> {
  const page = filter.page ?? 1
  const size = filter.pageSize ?? HISTORY_PAGE_SIZE
  const list = Array.from({ length: Math.max(0, Math.min(size, count - (page - 1) * size)) }, (_, i) => deposit((page - 1) * size + i + 1))
  return { list, count, page, pageSize: size }
}

const lastFilter = (): HistoryFilter => api.getDepositHistory.mock.calls.at(-1)?.[0]

/** The records shown: table rows on wide screens, cards on phones (jsdom has no media queries, so cards). */
const rows = () => screen.queryAllByTestId(/^deposit-(row|card)$/)

function show() {
  return renderWithApp(<HistoryPage tab="deposit" onTab={() => {}} />)
}

describe('HistoryPage', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    api.getAssets.mockResolvedValue([])
    api.getDepositHistory.mockImplementation(async (f: HistoryFilter) => pageOf(25, f))
    api.getPaymentList.mockResolvedValue([
      { id: '1', payment: 'KHAN', title: 'Khan Bank', titleMn: 'Хаан банк', icon: '' },
      { id: '2', payment: 'GOLOMT', title: 'Golomt Bank', titleMn: 'Голомт банк', icon: '' },
    ])
  })

  it('pages with the shared pager: ten rows a page, previous/next and page numbers', async () => {
    show()
    const pager = await screen.findByTestId('history-pager')
    expect(pager.tagName).toBe('NAV')
    expect(pager.getAttribute('aria-label')).toBe('History pages')
    expect(pager.getAttribute('data-pages')).toBe('3')
    expect(lastFilter()).toMatchObject({ page: 1, pageSize: 10 })
    expect(rows()).toHaveLength(10)
    expect((within(pager).getByTestId('history-pager-prev') as HTMLButtonElement).disabled).toBe(true)
    expect(within(pager).getByTestId('history-pager-page-1').getAttribute('aria-current')).toBe('page')
    expect(within(pager).getByTestId('history-pager-status').textContent).toBe('Page 1 of 3')

    fireEvent.click(within(pager).getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(lastFilter()).toMatchObject({ page: 2, pageSize: 10 }))
    await waitFor(() => expect(screen.getByTestId('history-pager').getAttribute('data-page')).toBe('2'))

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }))
    await waitFor(() => expect(lastFilter()).toMatchObject({ page: 3 }))
    await waitFor(() => expect(rows()).toHaveLength(5))
    expect((screen.getByTestId('history-pager-next') as HTMLButtonElement).disabled).toBe(true)
  })

  it('goes back to page 1 when a filter changes and asks for the chosen range (up to 180 days)', async () => {
    show()
    fireEvent.click(await screen.findByTestId('history-pager-next'))
    await waitFor(() => expect(lastFilter()).toMatchObject({ page: 2 }))

    fireEvent.change(screen.getByTestId('filter-status'), { target: { value: 'credited' } })
    await waitFor(() => expect(lastFilter()).toMatchObject({ page: 1, status: 'credited' }))

    const before = Date.now()
    fireEvent.change(screen.getByTestId('filter-range'), { target: { value: '180' } })
    await waitFor(() => expect(lastFilter().startTime).toBeLessThan(before - 179 * 86_400_000))
    const start = lastFilter().startTime as number
    expect(start).toBeGreaterThan(before - 180 * 86_400_000 - 120_000)
    expect(start % 60_000).toBe(0)
    expect(Array.from((screen.getByTestId('filter-range') as HTMLSelectElement).options).map((o) => o.value)).toEqual(['7', '30', '90', '180'])
  })

  it('shows no pager while everything fits on one page, and the empty state without records', async () => {
    api.getDepositHistory.mockImplementation(async (f: HistoryFilter) => pageOf(4, f))
    const { unmount } = show()
    await waitFor(() => expect(rows()).toHaveLength(4))
    expect(screen.queryByTestId('history-pager')).toBeNull()
    unmount()

    api.getDepositHistory.mockImplementation(async (f: HistoryFilter) => pageOf(0, f))
    show()
    expect(await screen.findByText('No records in this period')).toBeTruthy()
    expect(screen.queryByTestId('history-pager')).toBeNull()
  })

  it('shows a new deposit and its confirmations as the private socket reports them, without a reload', async () => {
    let served: DepositRecord[] = []
    api.getDepositHistory.mockImplementation(async () => ({ list: served, count: served.length, page: 1, pageSize: 10 }))
    const { queryClient } = show()
    expect(await screen.findByText('No records in this period')).toBeTruthy()
    // Nothing is moving, so the page does not poll: only the socket can bring the deposit in.
    const invalidator = createUserUpdateInvalidator(queryClient, 0)
    served = [deposit(1, { status: 'confirming', confirmations: 1, requiredConfirmations: 3 })]
    invalidator.onMessage({ channel: 'deposit', ts: 1, data: served[0] })
    const status = await screen.findByTestId('history-status')
    expect(status.getAttribute('data-status')).toBe('confirming')
    expect(status.textContent).toBe('Confirming 1/3')

    // The next confirmation shows before the page's own 3 s poll would fetch again.
    served = [deposit(1, { status: 'confirming', confirmations: 2, requiredConfirmations: 3 })]
    invalidator.onMessage({ channel: 'deposit', ts: 2, data: served[0] })
    await waitFor(() => expect(screen.getByTestId('history-status').textContent).toBe('Confirming 2/3'), { timeout: 2500 })
  })

  it('shows amounts at their coin precision and names the bank network in the page language', async () => {
    const asset = (value: string, code: string, fix: number): AssetEntry => ({
      value,
      label: value,
      img: '',
      code,
      fix,
      normal_balance: '0',
      totalBalance: '0',
      lockBalance: '0',
      chains: [],
      trustType: '',
      isFiat: code === 'MNT',
      depositOpen: true,
      withdrawOpen: true,
    })
    api.getAssets.mockResolvedValue([asset('BTC', 'BTC', 8), asset('MONT', 'MNT', 2)])
    const list = [deposit(1, { amount: '0.1' }), deposit(2, { coin: 'MNT', chain: 'Bank', amount: '1011' }), deposit(3, { coin: 'BTC', amount: '0.123456789' })]
    api.getDepositHistory.mockResolvedValue({ list, count: 3, page: 1, pageSize: 10 })
    document.cookie = 'lan=mn_MN; path=/'
    show()
    await waitFor(() => expect(rows()[0]?.textContent).toContain('0.10000000 BTC'))
    expect(rows()[1].textContent).toContain('1,011.00 MNT')
    expect(rows()[1].textContent).toContain('Банк · ')
    // A record is never rounded: more digits than the precision stay.
    expect(rows()[2].textContent).toContain('0.123456789 BTC')
  })

  it('names the bank of a bank withdrawal in Mongolian in mn_MN, as the modals do, and in English in en_US', async () => {
    const withdrawal = (over: Partial<WithdrawRecord>): WithdrawRecord => ({
      id: 'w1',
      kind: 'bank',
      coin: 'MNT',
      chain: 'Bank',
      address: 'MN123456789012345678',
      amount: '20000',
      fee: '500',
      net: '19500',
      status: 'SUCCESS',
      bankName: 'Khan Bank',
      bankAccNo: 'MN123456789012345678',
      createTime: 1_700_000_000_000,
      updateTime: 1_700_000_000_000,
      ...over,
    })
    // A bank no longer on the payment list keeps its recorded name; a record
    // that kept the Mongolian name shows it whatever the list says.
    const list = [
      withdrawal({}),
      withdrawal({ id: 'w2', bankName: 'Old Bank', bankAccNo: 'MN000000000000000001' }),
      withdrawal({ id: 'w3', bankName: 'Gone Bank', bankNameMn: 'Алга болсон банк', bankAccNo: 'MN000000000000000002' }),
    ]
    api.getWithdrawHistory.mockResolvedValue({ list, count: 3, page: 1, pageSize: 10 })
    document.cookie = 'lan=mn_MN; path=/'
    const { unmount } = renderWithApp(<HistoryPage tab="withdraw" onTab={() => {}} />)
    await waitFor(() => expect(screen.getAllByTestId(/^withdraw-(row|card)$/)[0].textContent).toContain('Хаан банк MN123456789012345678'))
    const cards = screen.getAllByTestId(/^withdraw-(row|card)$/)
    expect(cards[0].textContent).not.toContain('Khan Bank')
    expect(cards[1].textContent).toContain('Old Bank MN000000000000000001')
    expect(cards[2].textContent).toContain('Алга болсон банк MN000000000000000002')
    unmount()

    document.cookie = 'lan=en_US; path=/'
    renderWithApp(<HistoryPage tab="withdraw" onTab={() => {}} />)
    await waitFor(() => expect(screen.getAllByTestId(/^withdraw-(row|card)$/)[0].textContent).toContain('Khan Bank MN123456789012345678'))
    expect(screen.getAllByTestId(/^withdraw-(row|card)$/)[2].textContent).toContain('Gone Bank MN000000000000000002')
  })

  it('names the pair of an isolated margin transfer on the card (phones) and in the table', async () => {
    const transfer = (over: Partial<TransferRecord>): TransferRecord => ({
      id: 't1',
      type: 'margin',
      coinSymbol: 'USDT',
      amount: '10',
      fromAccount: 'spot',
      toAccount: 'margin_isolated',
      fromAccountName: 'Spot account',
      toAccountName: 'Isolated margin BTCUSDT',
      symbol: 'BTCUSDT',
      status: 'success',
      ctime: 1_700_000_000_000,
      ...over,
    })
    api.getTransferHistory.mockResolvedValue({
      list: [transfer({}), transfer({ id: 't2', coinSymbol: 'ETH', fromAccount: 'margin_isolated', toAccount: 'spot', symbol: 'ETHUSDT' }), transfer({ id: 't3', toAccount: 'otc', symbol: '' })],
      count: 3,
      page: 1,
      pageSize: 10,
    })
    renderWithApp(<HistoryPage tab="transfer" onTab={() => {}} />)
    const cards = await screen.findAllByTestId('transfer-card')
    expect(cards[0].textContent).toContain('(BTC/USDT)')
    expect(cards[1].textContent).toContain('(ETH/USDT)')
    expect(cards[2].textContent).not.toContain('(')
    expect(pairName('BTCUSDT', 'BTC')).toBe('BTC/USDT')
    expect(pairName('TRXUSDT', 'USDT')).toBe('TRX/USDT')
    expect(pairName('BTCUSDT', 'ETH')).toBe('BTCUSDT')
  })

  it.each([
    ['en_US', 'Deposit and withdrawal history'],
    ['mn_MN', 'Орлого, зарлагын түүх'],
  ])('%s: is titled as the deposit and withdrawal history, not the order history', async (lan, title) => {
    document.cookie = `lan=${lan}; path=/`
    try {
      show()
      const heading = await screen.findByRole('heading', { level: 1 })
      await waitFor(() => expect(heading.textContent).toBe(title))
    } finally {
      document.cookie = 'lan=en_US; path=/'
    }
  })

  it('shows a sent withdrawal\'s transaction id linked to the chain\'s explorer, and none before it is sent', async () => {
    const txid = 'a8dea87d048baf25cbea6e54cef754a8aa73ce36d2f5f246a8b1307a8718e5fe'
    const withdrawal = (over: Partial<WithdrawRecord>): WithdrawRecord => ({
      id: 'w1',
      kind: 'chain',
      coin: 'USDT',
      chain: 'TRC20',
      address: 'TLt6As19wN13Kgvb4uKwbJMSo4C5SNHqiH',
      amount: '100',
      fee: '1',
      net: '99',
      status: 'SUCCESS',
      txid,
      explorerUrl: `https://tronscan.org/#/transaction/${txid}`,
      createTime: 1_700_000_000_000,
      updateTime: 1_700_000_000_000,
      ...over,
    })
    api.getWithdrawHistory.mockResolvedValue({
      list: [
        withdrawal({}),
        withdrawal({ id: 'w2', status: 'PENDING', txid: undefined, explorerUrl: undefined }),
        // A link the page may not open is shown as text.
        withdrawal({ id: 'w3', explorerUrl: 'javascript:alert(1)' }),
        withdrawal({ id: 'w4', status: 'PROCESSING', explorerUrl: `/dev/chain/tx?chain=TRC20&txid=${txid}` }),
      ],
      count: 4,
      page: 1,
      pageSize: 10,
    })
    renderWithApp(<HistoryPage tab="withdraw" onTab={() => {}} />)
    await waitFor(() => expect(screen.getAllByTestId('withdraw-card')).toHaveLength(4))
    const cards = screen.getAllByTestId('withdraw-card')
    const link = within(cards[0]).getByTestId('tx-explorer-link')
    expect(link.getAttribute('href')).toBe(`https://tronscan.org/#/transaction/${txid}`)
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
    expect(link.textContent).toBe(`${txid.slice(0, 28)}…${txid.slice(-6)}`)
    expect(link.getAttribute('title')).toBe(txid)
    expect(within(cards[0]).getByRole('link', { name: `Transaction ${txid.slice(0, 28)}…${txid.slice(-6)} on the block explorer (opens in a new tab)` })).toBe(link)
    expect(cards[0].textContent).toContain('Transaction ID: ')
    expect(cards[1].textContent).not.toContain('Transaction ID')
    expect(within(cards[1]).queryByTestId('tx-explorer-link')).toBeNull()
    expect(within(cards[2]).queryByTestId('tx-explorer-link')).toBeNull()
    expect(cards[2].textContent).toContain(`${txid.slice(0, 28)}…`)
    expect(within(cards[3]).getByTestId('tx-explorer-link').getAttribute('href')).toBe(`/dev/chain/tx?chain=TRC20&txid=${txid}`)
  })

  it('names a deposit below the minimum as not credited, and filters by it', async () => {
    api.getDepositHistory.mockResolvedValue({ list: [deposit(1, { status: 'below_min', amount: '0.00001' })], count: 1, page: 1, pageSize: 10 })
    show()
    const status = await screen.findByTestId('history-status')
    expect(status.textContent).toBe('Below minimum, not credited')
    expect(Array.from((screen.getByTestId('filter-status') as HTMLSelectElement).options).map((o) => o.value)).toContain('below_min')
  })
})
