import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { refuse, sentTo, serve } from '@/features/futures/test-server'
import { renderWithApp } from '@/test/render'
import { screenWidth } from '@/test/screen-width'
import type { EarnRecord } from '../api/records-api'
import { FinanceRecordsPage } from './finance-records-page'

vi.mock('aws-amplify/api', async () => (await import('@/features/futures/test-server')).amplifyApi)

const RECORDS = '/fe-increment-api/increment/records'
const rec = (id: string, type: EarnRecord['type'], coinSymbol: string, amount: string, projectId = 'usdt-90'): EarnRecord => ({
  id,
  type,
  projectId,
  coinSymbol,
  amount,
  date: '2026-12-10',
  ctime: Date.parse('2026-12-11T01:00:00Z'),
})

const PAGE_1 = [
  rec('r1', 'loan_repay', 'USDT', '1001.152000', 'lc11a757d6e866407a9f3a'),
  rec('r2', 'launchpad_tokens', 'TON', '100.000000', 'ton-launch'),
  rec('r3', 'stake_reward', 'USDT', '0.027397'),
]
const PAGE_2 = [rec('r4', 'loan_collateral', 'BTC', '-0.00100000', 'lc11a757d6e866407a9f3a'), rec('r5', 'stake', 'USDT', '100.000000')]

function exchange() {
  serve({
    '/fe-ex-api/wallet/account_balance': {
      totalBalance: '0', totalBalanceSymbol: 'BTC', totalValuation: '0', currency: 'USD', lang_logo: '$',
      coinList: ['BTC', 'USDT', 'TON'].map((coin) => ({ coin, name: coin, total: '0', normal: '0', freeze: '0', showPrecision: 6, icon: '', longName: coin })),
    },
    [RECORDS]: (body: Record<string, unknown>) => {
      const all = [...PAGE_1, ...PAGE_2].filter((r) => (!body.type || r.type === body.type) && (!body.coinSymbol || r.coinSymbol === body.coinSymbol))
      if (body.type || body.coinSymbol) return { list: all, count: all.length, next: '' }
      return body.cursor ? { list: PAGE_2, count: 2, next: '' } : { list: PAGE_1, count: 3, next: 'c2' }
    },
  })
}

const rows = () => screen.getAllByTestId(/^record-(loan|launchpad|stake|subscribe|redeem|interest|payout)/).map((r) => r.getAttribute('data-testid'))

describe('FinanceRecordsPage', () => {
  beforeEach(exchange)
  afterEach(() => vi.restoreAllMocks())

  it('lists every product’s records, newest first, a page at a time', async () => {
    screenWidth(1280)
    renderWithApp(<FinanceRecordsPage />)
    await waitFor(() => expect(rows()).toEqual(['record-loan_repay', 'record-launchpad_tokens', 'record-stake_reward']))
    const table = screen.getByTestId('finance-records')
    expect(table.getAttribute('data-layout')).toBe('table')
    const tokens = within(table).getByTestId('record-launchpad_tokens')
    expect(within(tokens).getByTestId('record-type').textContent).toBe('Tokens allocated')
    expect(within(tokens).getByTestId('record-amount').textContent).toBe('100.000000 TON')
    expect(tokens.textContent).toContain('Launchpad')
    fireEvent.click(screen.getByTestId('records-more'))
    await waitFor(() => expect(rows()).toHaveLength(5))
    expect(sentTo(RECORDS).filter((b) => b.cursor === 'c2')).toHaveLength(1)
    // A collateral change taken back is negative.
    expect(within(screen.getByTestId('record-loan_collateral')).getByTestId('record-amount').textContent).toBe('-0.00100000 BTC')
    expect(screen.queryByTestId('records-more')).toBeNull()
  })

  it('the type filter is grouped by product and asks the server for one type', async () => {
    renderWithApp(<FinanceRecordsPage />)
    const select = (await screen.findByTestId('records-type')) as HTMLSelectElement
    const groups = [...select.querySelectorAll('optgroup')].map((g) => [g.label, g.querySelectorAll('option').length])
    expect(groups).toEqual([
      ['Savings', 5],
      ['Staking', 4],
      ['Launchpad', 2],
      ['Crypto loans', 4],
    ])
    fireEvent.change(select, { target: { value: 'stake_reward' } })
    await waitFor(() => expect(rows()).toEqual(['record-stake_reward']))
    expect(sentTo(RECORDS).at(-1)).toMatchObject({ type: 'stake_reward' })
  })

  it('the coin filter asks for one coin; clearing the filters shows everything again', async () => {
    renderWithApp(<FinanceRecordsPage />)
    const coin = (await screen.findByTestId('records-coin')) as HTMLSelectElement
    await waitFor(() => expect(coin.querySelectorAll('option')).toHaveLength(4))
    fireEvent.change(coin, { target: { value: 'TON' } })
    await waitFor(() => expect(rows()).toEqual(['record-launchpad_tokens']))
    expect(sentTo(RECORDS).at(-1)).toMatchObject({ coinSymbol: 'TON' })
    fireEvent.click(screen.getByTestId('records-reset'))
    await waitFor(() => expect(rows()).toHaveLength(3))
  })

  it('phones (390 px): one card per record', async () => {
    screenWidth(390)
    renderWithApp(<FinanceRecordsPage />)
    await waitFor(() => expect(screen.getByTestId('finance-records').getAttribute('data-layout')).toBe('cards'))
  })

  it('empty and error states', async () => {
    serve({ '/fe-ex-api/wallet/account_balance': refuse('10002', ''), [RECORDS]: { list: [], count: 0, next: '' } })
    renderWithApp(<FinanceRecordsPage />)
    expect((await screen.findByTestId('finance-records-empty')).textContent).toBe('No records yet.')
    serve({ [RECORDS]: refuse('500', 'down') })
    renderWithApp(<FinanceRecordsPage />)
    expect((await screen.findAllByText('The records could not be loaded.')).length).toBeGreaterThan(0)
  })
})
