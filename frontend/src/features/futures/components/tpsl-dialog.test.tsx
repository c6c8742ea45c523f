import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import type { PositionView, TriggerOrder } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { BTCUSDT, ETHUSDT, LONG, positionTrigger, SHORT } from '../test-fixtures'
import { answer, refuse, requests, sentTo, serve } from '../test-server'
import { PositionsTable } from './positions-panel'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const CREATE = '/fe-co-api/order/condition_create'
const CANCEL = '/fe-co-api/order/condition_cancel'
const contracts = new Map([
  ['BTCUSDT', BTCUSDT],
  ['ETHUSDT', ETHUSDT],
])

/** The long's take-profit at 52,000 (a trigger closing the position on a rise of the mark). */
const TP: TriggerOrder = positionTrigger({ triggerId: '7' })

async function renderTable(positions: PositionView[], triggers: TriggerOrder[] = []) {
  renderWithApp(
    <>
      <PositionsTable positions={positions} contracts={contracts} available={() => '100'} closable={(p) => p.volume} layout="table" triggers={triggers} />
      <Toaster />
    </>,
  )
  await screen.findByTestId('futures-positions')
}

const field = (dialog: HTMLElement, id: string) => within(dialog).getByTestId(id) as HTMLInputElement

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  serve({
    '/fe-co-api/market/ticker': (b: Record<string, unknown>) => ({ open: '1', high: '1', low: '1', close: b.symbol === 'ethusdtperp' ? '3095.00' : '50100.0', vol: '1', amount: '1', rose: '0' }),
    [CREATE]: (b: Record<string, unknown>) => ({ ...TP, triggerId: `new-${String(b.triggerPrice)}`, triggerPrice: b.triggerPrice }),
    [CANCEL]: (b: Record<string, unknown>) => ({ ...TP, triggerId: b.triggerId, status: 'CANCELED' }),
  })
})

afterEach(() => {
  act(() => toaster.remove())
})

describe('TP/SL of a position', () => {
  it("shows the position's waiting take-profit and stop-loss in its row", async () => {
    await renderTable([LONG, SHORT], [TP])
    const [long, short] = screen.getAllByTestId('position-row')
    expect(within(long).getByTestId('position-tp').textContent).toBe('TP 52,000.0')
    expect(within(long).getByTestId('position-sl').textContent).toBe('SL —')
    // The long's take-profit is not the short's.
    expect(within(short).getByTestId('position-tp').textContent).toBe('TP —')
  })

  it('sets a stop-loss and moves the take-profit: on the tick and the right side of the mark, with the PnL at each price', async () => {
    await renderTable([LONG], [TP])
    fireEvent.click(screen.getByRole('button', { name: 'Set the take-profit and stop-loss of the BTCUSDT position' }))
    const dialog = await screen.findByTestId('tpsl-dialog')
    expect(within(dialog).getByText('TP/SL of the BTCUSDT Long position')).toBeTruthy()
    // The current take-profit to start with; the mark price it is checked against.
    await waitFor(() => expect(field(dialog, 'tpsl-tp').value).toBe('52000.0'))
    expect(within(dialog).getByTestId('tpsl-reference').textContent).toBe('50,000.0')
    // 10 Cont of 0.001 BTC from 48,750: +32.5 at 52,000.
    expect(within(dialog).getByTestId('tpsl-tp-pnl').textContent).toBe('+32.5000 USDT')
    expect(within(dialog).getByTestId('tpsl-by-mark').getAttribute('aria-pressed')).toBe('true')

    fireEvent.change(field(dialog, 'tpsl-sl'), { target: { value: '50500' } })
    // The field keeps the contract's price places (its tick is 0.1).
    fireEvent.change(field(dialog, 'tpsl-tp'), { target: { value: '53000.05' } })
    expect(field(dialog, 'tpsl-tp').value).toBe('53000.0')
    fireEvent.change(field(dialog, 'tpsl-tp'), { target: { value: '49999' } })
    fireEvent.click(within(dialog).getByTestId('tpsl-dialog-confirm'))
    expect((await within(dialog).findByTestId('tpsl-sl-error')).textContent).toBe('Must be below the mark price (50,000.0)')
    expect(within(dialog).getByTestId('tpsl-tp-error').textContent).toBe('Must be above the mark price (50,000.0)')
    expect(sentTo(CREATE)).toHaveLength(0)

    fireEvent.change(field(dialog, 'tpsl-tp'), { target: { value: '53000' } })
    fireEvent.change(field(dialog, 'tpsl-sl'), { target: { value: '47000' } })
    expect(within(dialog).getByTestId('tpsl-sl-pnl').textContent).toBe('-17.5000 USDT')
    expect(within(dialog).queryByTestId('tpsl-sl-error')).toBeNull()
    fireEvent.click(within(dialog).getByTestId('tpsl-dialog-confirm'))
    await waitFor(() => expect(screen.queryByTestId('tpsl-dialog')).toBeNull())
    // One call per price: the new take-profit is armed before the old one is cancelled; then the stop-loss.
    const calls = requests.filter((r) => r.path === CREATE || r.path === CANCEL).map((r) => [r.path.split('/').pop(), r.body.triggerPrice ?? r.body.triggerId])
    expect(calls).toEqual([
      ['condition_create', '53000'],
      ['condition_cancel', '7'],
      ['condition_create', '47000'],
    ])
    expect(sentTo(CREATE)[0]).toMatchObject({ symbol: 'BTCUSDT', triggerPrice: '53000', triggerBy: 'MARK', closePosition: true })
    expect(sentTo(CREATE)[1]).toMatchObject({ symbol: 'BTCUSDT', triggerPrice: '47000', triggerBy: 'MARK', closePosition: true })
    expect(await screen.findByText('TP/SL of BTCUSDT saved')).toBeTruthy()
  })

  it("checks a short's take-profit against the last price when it watches the last, and cancels an emptied one", async () => {
    const shortTp: TriggerOrder = { ...TP, triggerId: '8', symbol: 'ETHUSDT', triggerPrice: '2900.00', triggerBy: 'LAST', direction: 'FALL' }
    await renderTable([SHORT], [shortTp])
    fireEvent.click(screen.getByTestId('position-tpsl-edit'))
    const dialog = await screen.findByTestId('tpsl-dialog')
    await waitFor(() => expect(field(dialog, 'tpsl-tp').value).toBe('2900.00'))
    expect(within(dialog).getByTestId('tpsl-by-last').getAttribute('aria-pressed')).toBe('true')
    await waitFor(() => expect(within(dialog).getByTestId('tpsl-reference').textContent).toBe('3,095.00'))
    // A short's stop-loss is above the last price.
    fireEvent.change(field(dialog, 'tpsl-sl'), { target: { value: '3000' } })
    fireEvent.click(within(dialog).getByTestId('tpsl-dialog-confirm'))
    expect((await within(dialog).findByTestId('tpsl-sl-error')).textContent).toBe('Must be above the last price (3,095.00)')
    fireEvent.change(field(dialog, 'tpsl-sl'), { target: { value: '' } })
    fireEvent.change(field(dialog, 'tpsl-tp'), { target: { value: '' } })
    fireEvent.click(within(dialog).getByTestId('tpsl-dialog-confirm'))
    await waitFor(() => expect(sentTo(CANCEL)).toEqual([expect.objectContaining({ triggerId: '8' })]))
    expect(sentTo(CREATE)).toHaveLength(0)
  })

  it("keeps the dialog open with the server's words when it refuses a price", async () => {
    answer({ [CREATE]: refuse('18021', 'The trigger price would trigger at once') })
    await renderTable([LONG])
    fireEvent.click(screen.getByTestId('position-tpsl-edit'))
    const dialog = await screen.findByTestId('tpsl-dialog')
    fireEvent.change(field(dialog, 'tpsl-tp'), { target: { value: '50000.1' } })
    fireEvent.click(within(dialog).getByTestId('tpsl-dialog-confirm'))
    expect(await screen.findByText('The trigger price would trigger at once')).toBeTruthy()
    expect(screen.getByTestId('tpsl-dialog')).toBeTruthy()
    expect(sentTo(CANCEL)).toHaveLength(0)
  })
})
