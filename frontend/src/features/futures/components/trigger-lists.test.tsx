import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import type { ClosedPosition, TriggerOrder } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { BTCUSDT, ETHUSDT, positionTrigger } from '../test-fixtures'
import { answer, refuse, sentTo, serve } from '../test-server'
import { PositionHistoryList } from './position-history'
import { TriggerHistoryList, TriggerOrdersList, triggerReasonKey } from './trigger-lists'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const WAITING = '/fe-co-api/order/trigger_order_list'
const CANCEL = '/fe-co-api/order/condition_cancel'
const contracts = new Map([
  ['BTCUSDT', BTCUSDT],
  ['ETHUSDT', ETHUSDT],
])

/** A position's stop-loss (closes it when the mark falls to 47,000) and a stop-limit buy of 3 ETHUSDT when the last rises to 3,200. */
const TPSL: TriggerOrder = positionTrigger({
  triggerId: '11',
  // The server answers BUY for a position's TP/SL, whatever the position's side.
  side: 'BUY',
  triggerPrice: '47000.0',
  direction: 'FALL',
})
const STOP: TriggerOrder = { ...TPSL, triggerId: '12', symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', price: '3210.00', volume: 3, triggerPrice: '3200.00', triggerBy: 'LAST', direction: 'RISE', closePosition: false, reduceOnly: false }

const rows = () => screen.getAllByTestId('futures-trigger-row')

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  serve({
    [WAITING]: { count: 2, triggerList: [TPSL, STOP] },
    [CANCEL]: (b: Record<string, unknown>) => ({ ...TPSL, triggerId: b.triggerId, status: 'CANCELED' }),
  })
})

afterEach(() => {
  act(() => toaster.remove())
})

describe('TriggerOrdersList', () => {
  it('lists the waiting trigger orders: the price watched and the way it must go, the order placed, the size or Close position', async () => {
    renderWithApp(<TriggerOrdersList contracts={contracts} layout="table" />)
    expect(await screen.findByRole('table', { name: 'Trigger orders' })).toBeTruthy()
    const [tpsl, stop] = rows()
    expect(within(tpsl).getByTestId('trigger-price').textContent).toBe('Mark falls to47,000.0')
    expect(within(tpsl).getByTestId('trigger-close-badge').textContent).toBe('Close position')
    expect(within(tpsl).queryByText('Buy')).toBeNull()
    expect(within(tpsl).getByTestId('trigger-volume').textContent).toBe('Close position')
    expect(within(tpsl).getByTestId('trigger-status').textContent).toBe('Waiting')
    expect(within(stop).getByText('Buy')).toBeTruthy()
    expect(within(stop).getByTestId('trigger-condition').textContent).toBe('Last rises to')
    expect(within(stop).getByText('3,210.00')).toBeTruthy()
    expect(within(stop).getByTestId('trigger-volume').textContent).toBe('3 Cont')
    expect(sentTo(WAITING)[0]).toMatchObject({ page: 1, pageSize: 100 })
  })

  it("cancels one and reads the list again; a refusal shows the server's words", async () => {
    renderWithApp(
      <>
        <TriggerOrdersList contracts={contracts} layout="table" />
        <Toaster />
      </>,
    )
    await screen.findByRole('table', { name: 'Trigger orders' })
    answer({ [WAITING]: { count: 1, triggerList: [STOP] } })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel BTCUSDT trigger order 11' }))
    await waitFor(() => expect(sentTo(CANCEL)).toEqual([expect.objectContaining({ triggerId: '11' })]))
    expect(await screen.findByText('Trigger order cancelled')).toBeTruthy()
    await waitFor(() => expect(rows()).toHaveLength(1))

    answer({ [CANCEL]: refuse('18012', 'The order was not found') })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel ETHUSDT trigger order 12' }))
    expect(await screen.findByText('The order was not found')).toBeTruthy()
  })

  it('asks only for a contract when narrowed to it, and says when there is none', async () => {
    answer({ [WAITING]: { count: 0, triggerList: [] } })
    renderWithApp(<TriggerOrdersList symbol="ETHUSDT" contracts={contracts} layout="cards" pageSize={20} />)
    expect((await screen.findByTestId('futures-trigger-orders-empty')).textContent).toBe('You have no waiting trigger orders')
    expect(sentTo(WAITING)[0]).toMatchObject({ symbol: 'ETHUSDT', page: 1, pageSize: 20 })
  })
})

describe('TriggerHistoryList', () => {
  it('shows how each ended, and why one failed', async () => {
    serve({
      '/fe-co-api/order/history_trigger_order_list': {
        count: 2,
        triggerList: [
          { ...TPSL, status: 'FAILED', reason: 'no_position', mtime: 1_700_000_100_000 },
          { ...STOP, status: 'TRIGGERED', mtime: 1_700_000_200_000 },
        ],
      },
    })
    renderWithApp(<TriggerHistoryList contracts={contracts} layout="table" />)
    expect(await screen.findByRole('table', { name: 'Trigger history' })).toBeTruthy()
    const [failed, fired] = rows()
    expect(within(failed).getByTestId('trigger-status').textContent).toBe('Failed')
    expect(within(failed).getByTestId('trigger-reason').textContent).toBe('No position to close')
    expect(within(fired).getByTestId('trigger-status').textContent).toBe('Triggered')
    expect(within(fired).queryByTestId('trigger-reason')).toBeNull()
    expect(triggerReasonKey({ status: 'FAILED', reason: 'odd' })).toBe('triggers.reasons.other')
    expect(triggerReasonKey({ status: 'CANCELED', reason: 'canceled' })).toBeUndefined()
    expect(triggerReasonKey({ status: 'CANCELED', reason: 'order_canceled' })).toBe('triggers.reasons.order_canceled')
  })
})

describe('PositionHistoryList', () => {
  const closed: ClosedPosition[] = [
    { symbol: 'BTCUSDT', side: 'LONG', maxVolume: 1200, openPrice: '48750.0', closePrice: '52000.0', realizedPnl: '3900', fee: '61.05', liquidated: false, openTime: 1_700_000_000_000, closeTime: 1_700_003_600_000 },
    { symbol: 'ETHUSDT', side: 'SHORT', maxVolume: 4, openPrice: '3000.00', closePrice: '3300.00', realizedPnl: '-12', fee: '0.2520', liquidated: true, openTime: 1_700_000_000_000, closeTime: 1_700_007_200_000 },
  ]

  it('lists the closed positions: side, largest size, entry and exit, realized PnL coloured, fees, a liquidation badge, open and close times', async () => {
    serve({ '/fe-co-api/position/history_position_list': { count: 25, positionList: closed } })
    renderWithApp(<PositionHistoryList contracts={contracts} layout="table" />)
    expect(await screen.findByRole('table', { name: 'Position history' })).toBeTruthy()
    const [won, lost] = screen.getAllByTestId('futures-closed-row')
    expect(within(won).getByText('Long')).toBeTruthy()
    expect(within(won).getByTestId('closed-size').textContent).toBe('1,200 Cont')
    expect(within(won).getByTestId('closed-entry').textContent).toBe('48,750.0')
    expect(within(won).getByTestId('closed-exit').textContent).toBe('52,000.0')
    expect(within(won).getByTestId('closed-pnl').textContent).toBe('+3,900.0000 USDT')
    expect(within(won).getByTestId('closed-fee').textContent).toBe('61.0500 USDT')
    expect(within(won).queryByTestId('closed-liquidated')).toBeNull()
    expect(within(lost).getByText('Short')).toBeTruthy()
    expect(within(lost).getByTestId('closed-pnl').textContent).toBe('-12.0000 USDT')
    expect(within(lost).getByTestId('closed-liquidated').textContent).toBe('Liquidated')
    expect(within(lost).getByTestId('closed-exit').textContent).toBe('3,300.00')
    // 25 closed positions: three pages of 10.
    expect(screen.getByTestId('futures-position-history-pager').getAttribute('data-pages')).toBe('3')
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(sentTo('/fe-co-api/position/history_position_list').at(-1)).toMatchObject({ page: 2, pageSize: 10 }))
  })

  it('says when there is none', async () => {
    serve({ '/fe-co-api/position/history_position_list': { count: 0, positionList: [] } })
    renderWithApp(<PositionHistoryList contracts={contracts} layout="cards" />)
    expect((await screen.findByTestId('futures-position-history-empty')).textContent).toBe('No closed positions yet')
  })
})
