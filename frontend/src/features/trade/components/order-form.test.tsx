import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import { useLiveUserUpdates } from '@/features/live-updates/use-live-user-updates'
import { FakeSocket } from '@/test/fake-socket'
import { getMarketSocket } from '@/lib/market-socket'
import type { OrderView } from '../api/trade-api'
import { isFinal } from '../lib/order-outcome'
import { BTC_USDT } from '../test-pair'
import { contrast, themeColor } from '@/test/contrast'
import { OrderForm, SIDE_COLORS } from './order-form'

const apiData = vi.hoisted(() => vi.fn())
vi.mock('@/lib/request-client', async (orig) => ({ ...(await orig<typeof import('@/lib/request-client')>()), apiData }))
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 1 }, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const pair = BTC_USDT

describe('OrderForm available balance', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance'))
        return { coinList: [{ coin: 'USDT', normal: '586.048883', freeze: '0' }, { coin: 'BTC', normal: '0.05374069', freeze: '0' }] }
      if (path.endsWith('/order/create')) return { order_id: '1' }
      return {}
    })
  })

  it('shows what may be spent cut to the pair places, never rounded up, and lets all of it be sold', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    // 586.048883 USDT is 586.04 to spend, not 586.05.
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('586.04 USDT'))
    fireEvent.click(screen.getByTestId('side-sell'))
    expect(screen.getByTestId('available-balance').textContent).toBe('0.053740 BTC')

    // Selling exactly the amount shown passes the balance check and is sent.
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.053740' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(apiData).toHaveBeenCalledWith('/fe-ex-api/order/create', expect.objectContaining({ side: 'SELL', type: 'MARKET', volume: '0.053740' })))
    expect(screen.queryByTestId('amount-input-error')).toBeNull()
  })

  it('keeps keyboard focus on the submit button through the sending, which disables it', async () => {
    let release!: () => void
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return { coinList: [{ coin: 'USDT', normal: '586.048883', freeze: '0' }] }
      if (path.endsWith('/order/create')) {
        await new Promise<void>((resolve) => (release = resolve))
        return { order_id: '1' }
      }
      return {}
    })
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('586.04 USDT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '90000' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.0001' } })
    const submit = screen.getByTestId('order-submit')
    submit.focus()
    fireEvent.click(submit)
    await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(true))
    // What the browser does to a focused button that becomes disabled: focus falls to the body.
    const elsewhere = document.body.appendChild(document.createElement('input'))
    elsewhere.focus()
    elsewhere.remove()
    expect(document.activeElement).toBe(document.body)
    await act(async () => release())
    await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(false))
    expect(document.activeElement).toBe(submit)
  })

  it("shows the paying coin's balance at the coin's places, grouped, still cut", async () => {
    apiData.mockImplementation(async (path: string) =>
      path.endsWith('/finance/v5/account_balance')
        ? { coinList: [{ coin: 'MNT', normal: '9606546.529', freeze: '0' }, { coin: 'USDT', normal: '1234.5678919', freeze: '0' }] }
        : {},
    )
    // USDT/MNT prices have 1 place; MNT itself has 2 and USDT 6 (the coin list's showPrecision).
    const usdtMnt = {
      ...pair,
      symbol: 'usdtmnt',
      routeSymbol: 'USDT_MNT',
      showName: 'USDT/MNT',
      base: 'USDT',
      quote: 'MNT',
      pricePrecision: 1,
      priceTick: '0.1',
      lotSize: '0.01',
      minNotional: '5000',
      basePlaces: 6,
      quotePlaces: 2,
    }
    renderWithApp(<OrderForm pair={usdtMnt} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('9,606,546.52 MNT'))
    expect(screen.getByTestId('min-notional').textContent).toBe('Minimum order value: 5,000 MNT')
    fireEvent.click(screen.getByTestId('side-sell'))
    expect(screen.getByTestId('available-balance').textContent).toBe('1,234.567891 USDT')
  })
})

describe('OrderForm totals on an MNT pair', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) =>
      path.endsWith('/finance/v5/account_balance') ? { coinList: [{ coin: 'MNT', normal: '100000000.55', freeze: '0' }, { coin: 'BTC', normal: '1', freeze: '0' }] } : {},
    )
  })

  // BTC/MNT prices have no decimals; its totals are tugriks with MNT's 2 places (they were cut to whole tugriks).
  it("computes and takes the total at the quote coin's places", async () => {
    const btcMnt = { ...pair, symbol: 'btcmnt', routeSymbol: 'BTC_MNT', showName: 'BTC/MNT', quote: 'MNT', pricePrecision: 0, priceTick: '1', minNotional: '5000', basePlaces: 8, quotePlaces: 2 }
    renderWithApp(<OrderForm pair={btcMnt} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('100,000,000.55 MNT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '334884288' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.123457' } })
    expect((screen.getByTestId('total-input') as HTMLInputElement).value).toBe('41343809.54')
    // A market buy's total takes tugriks to 2 places, no more.
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '5000.555' } })
    expect((screen.getByTestId('total-input') as HTMLInputElement).value).toBe('5000.55')
  })
})

const balances = { coinList: [{ coin: 'USDT', normal: '1000.559', freeze: '0' }, { coin: 'BTC', normal: '0.05374069', freeze: '0' }] }

const thumb = () => screen.getByRole('slider')
/** Presses a key on the focused slider thumb; the slider reports its change after the event, so each press settles first. */
async function press(key: string, times = 1) {
  act(() => thumb().focus())
  for (let i = 0; i < times; i++) {
    fireEvent.keyDown(thumb(), { key })
    await act(async () => {})
  }
}
const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value

describe('OrderForm when the exchange cannot be reached', () => {
  // Toasts of earlier tests would otherwise still be on screen.
  beforeEach(() => {
    act(() => toaster.remove())
  })
  afterEach(() => {
    act(() => toaster.remove())
    document.cookie = 'lan=en_US; path=/'
  })

  it('says the order may not have been placed (the server is down), keeps what was typed, and stays quiet about a refused order', async () => {
    let createError: Error = new Error('Error: Network error')
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/create')) throw createError
      return {}
    })
    renderWithApp(
      <>
        <OrderForm pair={pair} />
        <Toaster />
      </>,
    )
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect(await screen.findByText(/could not be reached, so the order may not have been placed/)).toBeTruthy()
    expect(screen.queryByText('Order placed')).toBeNull()
    expect((screen.getByTestId('amount-input') as HTMLInputElement).value).toBe('0.001')

    // Sent again unchanged after no answer, it carries the same
    // clientOrderId, so the exchange places it at most once.
    act(() => toaster.remove())
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(apiData.mock.calls.filter((c) => c[0] === '/fe-ex-api/order/create')).toHaveLength(2))
    const ids = () => apiData.mock.calls.filter((c) => c[0] === '/fe-ex-api/order/create').map((c) => (c[1] as { clientOrderId?: string }).clientOrderId)
    expect(ids()[0]).toMatch(/^[A-Za-z0-9-]{8,64}$/)
    expect(ids()[1]).toBe(ids()[0])

    // A refused order: the request client has shown the server's message; no second toast.
    act(() => toaster.remove())
    const { ApiError } = await import('@/lib/request-client')
    createError = new ApiError({ code: '14003', msg: 'Insufficient balance', data: null })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(apiData.mock.calls.filter((c) => c[0] === '/fe-ex-api/order/create')).toHaveLength(3))
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(screen.queryByText(/could not be reached/)).toBeNull()
    // The same order again after a refusal, or a changed one, is a new order with a new key.
    expect(ids()[2]).toBe(ids()[0])
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(ids()).toHaveLength(4))
    expect(new Set(ids()).size).toBe(2)
  })

  it('says it in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/create')) throw new Error('Error: Network error')
      return {}
    })
    renderWithApp(
      <>
        <OrderForm pair={pair} />
        <Toaster />
      </>,
    )
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect(await screen.findByText(/Биржтэй холбогдож чадсангүй/)).toBeTruthy()
  })
})

describe('OrderForm percentage slider', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/finance/v5/account_balance') ? balances : {}))
  })

  it('is a labelled, keyboard-driven slider with marks at 0/25/50/75/100 %', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    expect(thumb().getAttribute('aria-valuemin')).toBe('0')
    expect(thumb().getAttribute('aria-valuemax')).toBe('100')
    expect(thumb().getAttribute('aria-valuenow')).toBe('0')
    // Named by its visible label.
    expect(screen.getByRole('slider', { name: 'Share of the available balance' })).toBe(thumb())
    const marks = screen.getByTestId('percent-slider').querySelectorAll('[data-part="marker"]')
    expect(Array.from(marks, (m) => m.textContent)).toEqual(['0%', '25%', '50%', '75%', '100%'])
    // The old quick buttons are gone: the marks do their job.
    expect(screen.queryByTestId('percent-25')).toBeNull()
  })

  it('fills a sell amount from the base balance, cut to the lot, by keyboard', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.click(screen.getByTestId('side-sell'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    await press('End')
    expect(thumb().getAttribute('aria-valuenow')).toBe('100')
    expect(thumb().getAttribute('aria-valuetext')).toBe('100%')
    // 0.05374069 BTC on a 0.000001 lot: 0.053740, never 0.053741.
    expect(value('amount-input')).toBe('0.053740')
    expect(value('total-input')).toBe('1612.20')
    await press('Home')
    await press('PageUp', 5)
    expect(screen.getByTestId('percent-value').textContent).toBe('50%')
    expect(value('amount-input')).toBe('0.026870')
    await press('ArrowLeft')
    expect(value('amount-input')).toBe('0.026332')
    // A tap on a mark's label sets that share exactly.
    fireEvent.click(screen.getByTestId('percent-mark-75'))
    await waitFor(() => expect(thumb().getAttribute('aria-valuenow')).toBe('75'))
    expect(value('amount-input')).toBe('0.040305')
  })

  it('fills a limit buy amount at the price and a market buy total', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    await press('PageUp', 2)
    await press('ArrowRight', 5)
    // 25% of 1000.559 USDT = 250.13 USDT buys 0.008337 BTC (250.11 USDT).
    expect(value('amount-input')).toBe('0.008337')
    expect(value('total-input')).toBe('250.11')
    // A lower price keeps the share and buys more.
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '25000' } })
    expect(value('amount-input')).toBe('0.010005')
    expect(screen.getByTestId('percent-value').textContent).toBe('25%')
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    expect(screen.queryByTestId('amount-input')).toBeNull()
    expect(value('total-input')).toBe('250.13')
    await press('End')
    expect(value('total-input')).toBe('1000.55')
  })

  it('moves to the share a typed amount or total comes to', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '20000' } })
    // 0.025 BTC at 20000 is 500 of 1000.559 USDT.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.025' } })
    expect(thumb().getAttribute('aria-valuenow')).toBe('50')
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '750' } })
    expect(thumb().getAttribute('aria-valuenow')).toBe('75')
    // More than there is pins it at 100 % (and the form says the balance is short).
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '1' } })
    expect(thumb().getAttribute('aria-valuenow')).toBe('100')
    fireEvent.click(screen.getByTestId('side-sell'))
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.01343517' } })
    expect(thumb().getAttribute('aria-valuenow')).toBe('25')
  })

  it("sets a mark's share on the press, which the slider's own drag does not take over, right after a failed submit", async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    // A submit without an amount shows its error under the field; the share that fills the amount removes it
    // and moves the layout, so the label under the pointer may never see the click.
    fireEvent.click(screen.getByTestId('order-submit'))
    expect(await screen.findByTestId('amount-input-error')).toBeTruthy()
    fireEvent.pointerDown(screen.getByTestId('percent-mark-25'), { button: 0, buttons: 1, pointerType: 'mouse', clientX: 1, clientY: 1 })
    await waitFor(() => expect(screen.getByTestId('percent-value').textContent).toBe('25%'))
    expect(value('amount-input')).toBe('0.008337')
    fireEvent.pointerUp(document, { button: 0, pointerType: 'mouse' })
    await act(async () => {})
    expect(screen.getByTestId('percent-value').textContent).toBe('25%')
  })

  it('is disabled without a balance to share', async () => {
    apiData.mockImplementation(async (path: string) => (path.endsWith('/finance/v5/account_balance') ? { coinList: [] } : {}))
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('0.00 USDT'))
    expect(thumb().getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(screen.getByTestId('percent-mark-50'))
    expect(value('amount-input')).toBe('')
  })
})

describe('OrderForm market buy by amount', () => {
  let usdt: string
  beforeEach(() => {
    usdt = '1000.559'
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return { coinList: [{ coin: 'USDT', normal: usdt, freeze: '0' }, { coin: 'BTC', normal: '0.05374069', freeze: '0' }] }
      if (path.endsWith('/order/create')) return { order_id: '7' }
      return {}
    })
  })
  // The "Order placed" toasts wait in the app's toaster (no Toaster is mounted here); later tests must not inherit them.
  afterEach(() => act(() => toaster.remove()))
  const pressed = (testId: string) => screen.getByTestId(testId).getAttribute('aria-pressed')
  const creates = () => apiData.mock.calls.filter(([p]) => p === '/fe-ex-api/order/create').map(([, body]) => body)

  it('offers Total or Amount for a market buy only, Total first', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    expect(screen.queryByTestId('market-by')).toBeNull()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    expect(screen.getByRole('group', { name: 'Market buy by' })).toBe(screen.getByTestId('market-by'))
    expect(screen.getByTestId('market-by-total').textContent).toBe('Total (USDT)')
    expect(screen.getByTestId('market-by-amount').textContent).toBe('Amount (BTC)')
    expect(pressed('market-by-total')).toBe('true')
    expect(pressed('market-by-amount')).toBe('false')
    expect(screen.queryByTestId('amount-input')).toBeNull()
    fireEvent.click(screen.getByTestId('side-sell'))
    expect(screen.queryByTestId('market-by')).toBeNull()
  })

  it('switches the fields, clears what was entered, disables the slider at 0 % and sends the volume', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    await press('PageUp', 5)
    expect(value('total-input')).toBe('500.27')

    fireEvent.click(screen.getByTestId('market-by-amount'))
    expect(pressed('market-by-amount')).toBe('true')
    expect(pressed('market-by-total')).toBe('false')
    expect(screen.queryByTestId('total-input')).toBeNull()
    expect(value('amount-input')).toBe('')
    expect(screen.getByTestId('amount-input-hint').textContent).toBe('Holds your available USDT (at most the amount at the last price plus 50%) while it matches; what it does not spend comes back at once.')
    // The hint is read out with the field.
    expect(screen.getByTestId('amount-input').getAttribute('aria-describedby')).toContain(screen.getByTestId('amount-input-hint').id)
    expect(thumb().getAttribute('aria-disabled')).toBe('true')
    expect(thumb().getAttribute('aria-valuenow')).toBe('0')
    expect(screen.getByTestId('percent-value').textContent).toBe('0%')
    fireEvent.click(screen.getByTestId('percent-mark-50'))
    expect(value('amount-input')).toBe('')

    // Below the minimum quantity it is refused.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.000001' } })
    expect(thumb().getAttribute('aria-valuenow')).toBe('0')
    fireEvent.click(screen.getByTestId('order-submit'))
    expect(screen.getByTestId('amount-input-error').textContent).toBe('The minimum amount is 0.00001 BTC')
    expect(creates()).toEqual([])

    // More than the balance would buy at any sane price is still sent: the server spends what there is.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.5' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(creates()).toEqual([{ symbol: 'btcusdt', side: 'BUY', type: 'MARKET', volume: '0.5', clientOrderId: expect.any(String) }]))
    await waitFor(() => expect(value('amount-input')).toBe(''))
    // Still by amount for the next order.
    expect(pressed('market-by-amount')).toBe('true')

    // Back to Total: the amount goes, the slider works again and a total is sent as quoteVolume.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.01' } })
    fireEvent.click(screen.getByTestId('market-by-total'))
    expect(screen.queryByTestId('amount-input')).toBeNull()
    expect(value('total-input')).toBe('')
    expect(thumb().getAttribute('aria-disabled')).toBeNull()
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '50' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(creates()).toHaveLength(2))
    expect(creates()[1]).toEqual({ symbol: 'btcusdt', side: 'BUY', type: 'MARKET', quoteVolume: '50', clientOrderId: expect.any(String) })
  })

  it('keeps a limit amount but not the slider share when the type becomes a market buy by amount', async () => {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.click(screen.getByTestId('market-by-amount'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'LIMIT' } })
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    await press('PageUp', 5)
    expect(value('amount-input')).toBe('0.016675')
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    expect(pressed('market-by-amount')).toBe('true')
    expect(value('amount-input')).toBe('0.016675')
    expect(screen.getByTestId('percent-value').textContent).toBe('0%')
    expect(thumb().getAttribute('aria-disabled')).toBe('true')
  })

  it.each([
    ['a zero quote balance', () => void (usdt = '0')],
    [
      'a coin the account never held',
      () => apiData.mockImplementation(async (path: string) => (path.endsWith('/finance/v5/account_balance') ? { coinList: [] } : {})),
    ],
  ])('says the balance is short for a market buy by amount with %s', async (_, setUp) => {
    setUp()
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('0.00 USDT'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.click(screen.getByTestId('market-by-amount'))
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect(screen.getByTestId('amount-input-error').textContent).toBe('Insufficient balance')
    expect(creates()).toEqual([])
  })

  it('speaks Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    await waitFor(() => expect(screen.getByTestId('market-by-amount').textContent).toBe('Тоо хэмжээ (BTC)'))
    expect(screen.getByTestId('market-by-total').textContent).toBe('Нийт дүн (USDT)')
    fireEvent.click(screen.getByTestId('market-by-amount'))
    expect(screen.getByTestId('amount-input-hint').textContent).toContain('боломжит USDT үлдэгдлийг')
  })
})

describe('OrderForm follows orders that can end at once', () => {
  const RealWebSocket = globalThis.WebSocket
  let detail: Partial<OrderView>
  /** What the server pushes about order 42 while /order/create runs (a push can beat the answer). */
  let pushOnCreate: Partial<OrderView>[]
  beforeEach(() => {
    // The form listens to the book on the app's one socket, which outlives a test's components: each test starts a line of its own.
    getMarketSocket().close()
    FakeSocket.instances = []
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket
    document.cookie = 'token=tok-1; path=/'
    detail = {}
    pushOnCreate = []
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/create')) {
        for (const o of pushOnCreate) pushOrder(o)
        return { order_id: '42' }
      }
      if (path.endsWith('/order/detail')) return { order_id: '42', deal_volume: '0', ...detail }
      return {}
    })
  })
  afterEach(() => {
    act(() => toaster.remove())
    globalThis.WebSocket = RealWebSocket
  })

  const detailCalls = () => apiData.mock.calls.filter(([p]) => p === '/fe-ex-api/order/detail').length
  const sleep = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)))
  /** The app's private socket as the root layout keeps it (features/live-updates). */
  function LiveUpdates() {
    useLiveUserUpdates()
    return null
  }
  const socket = () => FakeSocket.instances[0]
  /** Pushes a user_orders message about order 42 as internal/userfeed sends it. */
  function pushOrder(o: Partial<OrderView> & { event?: string }) {
    socket().push({ channel: 'user_orders', ts: 1, data: { event: isFinal(o.status ?? 1) ? 'done' : 'placed', order_id: '42', symbol: 'btcusdt', deal_volume: '0', status: 1, ...o } })
  }

  async function place(
    type: string,
    { side = 'buy', placed = 'Order placed', live = true, byAmount = false }: { side?: 'buy' | 'sell'; placed?: string; live?: boolean; byAmount?: boolean } = {},
  ) {
    renderWithApp(
      <>
        {live && <LiveUpdates />}
        <OrderForm pair={pair} follow={{ fallbackMs: 150, timeoutMs: 600 }} />
        <Toaster />
      </>,
    )
    if (live) {
      await waitFor(() => expect(FakeSocket.instances).toHaveLength(1))
      act(() => socket().open())
      act(() => socket().push({ event_rep: 'auth', status: 'ok' }))
    }
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    if (side === 'sell') fireEvent.click(screen.getByTestId('side-sell'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: type } })
    if (type !== 'MARKET') fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    if (type === 'STOP_LIMIT') fireEvent.change(screen.getByTestId('stop-price-input'), { target: { value: '29000' } })
    if (byAmount) fireEvent.click(screen.getByTestId('market-by-amount'))
    if (type === 'MARKET' && side === 'buy' && !byAmount) fireEvent.change(screen.getByTestId('total-input'), { target: { value: '50' } })
    else fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await screen.findByText(placed)
  }

  it('replaces "Order placed" with a warning when the push says a post-only order would have taken, without looking it up', async () => {
    // The rejection is pushed before /order/create answers.
    pushOnCreate = [{ type: 'POST_ONLY' }, { status: 5, type: 'POST_ONLY', end_reason: 'post_only_would_take' }]
    await place('POST_ONLY')
    expect(await screen.findByText('Post-only order not placed')).toBeTruthy()
    expect(screen.getByText(/would have taken liquidity/)).toBeTruthy()
    await waitFor(() => expect(screen.queryByText('Order placed')).toBeNull())
    await sleep(700)
    expect(detailCalls()).toBe(0)
  })

  it('warns when the push says a fill-or-kill could not fill', async () => {
    detail = { status: 1, type: 'FOK' } // what a look-up would see; the push must tell
    pushOnCreate = [{ type: 'FOK' }]
    await place('FOK', { side: 'sell' })
    act(() => pushOrder({ status: 4, type: 'FOK', end_reason: 'fok_not_filled' }))
    expect(await screen.findByText('Fill-or-kill order cancelled')).toBeTruthy()
    expect(screen.getByText(/could not be filled completely/)).toBeTruthy()
    expect(detailCalls()).toBe(0)
  })

  it('stays quiet about an IOC that filled in part', async () => {
    pushOnCreate = [{ type: 'IOC' }]
    await place('IOC')
    act(() => pushOrder({ status: 4, type: 'IOC', deal_volume: '0.0004', end_reason: 'ioc_remainder' }))
    await sleep(700)
    expect(screen.queryByText(/order cancelled/)).toBeNull()
    expect(screen.getByText('Order placed')).toBeTruthy()
    expect(detailCalls()).toBe(0)
  })

  it('says so in Mongolian', async () => {
    // The test setup clears cookies after each test.
    document.cookie = 'lan=mn_MN; path=/'
    pushOnCreate = [{ type: 'MARKET', price: '0' }, { status: 4, type: 'MARKET', price: '0', end_reason: 'ioc_remainder' }]
    await place('MARKET', { placed: 'Захиалга амжилттай үүслээ' })
    expect(await screen.findByText('Зах зээлийн захиалга цуцлагдлаа')).toBeTruthy()
    expect(screen.getByText(/биелүүлэх захиалга байгаагүй/)).toBeTruthy()
    expect(detailCalls()).toBe(0)
  })

  it('warns when a market buy by amount finds nothing to buy', async () => {
    pushOnCreate = [{ type: 'MARKET', price: '0' }, { status: 4, type: 'MARKET', price: '0', end_reason: 'ioc_remainder' }]
    await place('MARKET', { byAmount: true })
    expect(apiData).toHaveBeenCalledWith('/fe-ex-api/order/create', { symbol: 'btcusdt', side: 'BUY', type: 'MARKET', volume: '0.001', clientOrderId: expect.any(String) })
    expect(await screen.findByText('Market order cancelled')).toBeTruthy()
    expect(detailCalls()).toBe(0)
  })

  it('warns when a market buy by amount is worth less than the minimum at the best ask', async () => {
    pushOnCreate = [{ status: 5, type: 'MARKET', price: '0', end_reason: 'below_min_notional' }]
    await place('MARKET', { byAmount: true })
    expect(await screen.findByText('Market order not placed')).toBeTruthy()
    expect(screen.getByText(/less than the pair's minimum order value/)).toBeTruthy()
  })

  it('says what a market buy by amount traded when its funds ran out after a part filled', async () => {
    pushOnCreate = [{ type: 'MARKET', price: '0' }]
    await place('MARKET', { byAmount: true })
    act(() => pushOrder({ status: 4, type: 'MARKET', price: '0', deal_volume: '0.0004', end_reason: 'ioc_remainder' }))
    expect(await screen.findByText('Market order partly filled')).toBeTruthy()
    expect(screen.getByText(/^0\.000400 BTC was traded/)).toBeTruthy()
  })

  it('still warns when the host closes the form once the order is placed (the phone sheet)', async () => {
    function Sheet() {
      const [open, setOpen] = useState(true)
      return open ? <OrderForm pair={pair} follow={{ fallbackMs: 150, timeoutMs: 600 }} onPlaced={() => setOpen(false)} /> : null
    }
    pushOnCreate = [{ type: 'POST_ONLY' }]
    renderWithApp(
      <>
        <LiveUpdates />
        <Sheet />
        <Toaster />
      </>,
    )
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(1))
    act(() => socket().open())
    act(() => socket().push({ event_rep: 'auth', status: 'ok' }))
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'POST_ONLY' } })
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await screen.findByText('Order placed')
    await waitFor(() => expect(screen.queryByTestId('order-form')).toBeNull())
    act(() => pushOrder({ status: 5, type: 'POST_ONLY', end_reason: 'post_only_would_take' }))
    expect(await screen.findByText('Post-only order not placed')).toBeTruthy()
  })

  it('never looks up a limit order that rests, and stays quiet about it', async () => {
    detail = { status: 1, type: 'LIMIT' }
    pushOnCreate = [{ type: 'LIMIT' }]
    await place('LIMIT')
    act(() => pushOrder({ event: 'accepted', type: 'LIMIT' }))
    await sleep(900)
    expect(detailCalls()).toBe(0)
    expect(screen.queryByTestId('toast-warning')).toBeNull()
    expect(screen.getByText('Order placed')).toBeTruthy()
  })

  it('looks the order up once when no push comes (no socket), and warns from what it reads', async () => {
    detail = { status: 5, type: 'STOP_LIMIT' }
    await place('STOP_LIMIT', { live: false })
    expect(await screen.findByText('Stop-limit order not placed')).toBeTruthy()
    expect(apiData).toHaveBeenCalledWith('/fe-ex-api/order/detail', { order_id: '42' }, expect.objectContaining({ silent: true }))
    await sleep(700)
    expect(detailCalls()).toBe(1)
  })

  it('looks once, not repeatedly, when the socket is up but says nothing about the order', async () => {
    detail = { status: 1, type: 'LIMIT' }
    await place('LIMIT')
    await waitFor(() => expect(detailCalls()).toBe(1))
    await sleep(900)
    expect(detailCalls()).toBe(1)
    expect(screen.queryByTestId('toast-warning')).toBeNull()
    expect(screen.getByText('Order placed')).toBeTruthy()
  })
})

describe('OrderForm stop-limit against the last price', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/market/ticker')) return { close: '30000', open: '29000', high: '30500', low: '28000', vol: '1', amount: '30000', rose: '0.03' }
      if (path.endsWith('/order/create')) return { order_id: '7' }
      return {}
    })
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })
  const creates = () => apiData.mock.calls.filter(([p]) => p === '/fe-ex-api/order/create')
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

  async function fill(side: 'buy' | 'sell', stop: string) {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    await waitFor(() => expect(apiData).toHaveBeenCalledWith('/fe-ex-api/market/ticker', { symbol: 'btcusdt' }, expect.anything()))
    if (side === 'sell') fireEvent.click(screen.getByTestId('side-sell'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'STOP_LIMIT' } })
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30100' } })
    fireEvent.change(screen.getByTestId('stop-price-input'), { target: { value: stop } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
  }

  it('says before the submit that a buy stop at or below the last price is already reached, and sends nothing', async () => {
    await fill('buy', '30000')
    // Shown as soon as it is typed, in the words of the engine's rejection.
    const error = await screen.findByTestId('stop-price-input-error')
    expect(error.textContent).toBe('The last price 30,000.00 has already reached this stop price: a buy stop must be above the last price')
    fireEvent.click(screen.getByTestId('order-submit'))
    await pause(50)
    expect(creates()).toHaveLength(0)
    // A stop above the last price may be sent.
    fireEvent.change(screen.getByTestId('stop-price-input'), { target: { value: '30000.01' } })
    await waitFor(() => expect(screen.queryByTestId('stop-price-input-error')).toBeNull())
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(creates()).toHaveLength(1))
    expect(creates()[0][1]).toMatchObject({ side: 'BUY', type: 'STOP_LIMIT', stopPrice: '30000.01' })
  })

  it('says it in Mongolian for a sell stop at or above the last price', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await fill('sell', '30500')
    const error = await screen.findByTestId('stop-price-input-error')
    expect(error.textContent).toBe('Сүүлийн үнэ 30,000.00 энэ стоп үнэд аль хэдийн хүрсэн: зарах стоп үнэ сүүлийн үнээс доогуур байх ёстой')
    fireEvent.click(screen.getByTestId('order-submit'))
    await pause(50)
    expect(creates()).toHaveLength(0)
  })
})

describe('OrderForm minimum value of a market order by amount', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return { coinList: [{ coin: 'USDT', normal: '1000', freeze: '0' }, { coin: 'BTC', normal: '0.5', freeze: '0' }] }
      if (path.endsWith('/order/create')) return { order_id: '9' }
      return {}
    })
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })
  const creates = () => apiData.mock.calls.filter(([p]) => p === '/fe-ex-api/order/create')
  const best = { bid: '97000.00', ask: '97010.00' }

  async function marketSell(amount: string, at?: typeof best) {
    renderWithApp(<OrderForm pair={pair} best={at} />)
    fireEvent.click(await screen.findByTestId('side-sell'))
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('0.500000 BTC'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: amount } })
    fireEvent.click(screen.getByTestId('order-submit'))
  }

  it('says under the amount that a market sell worth less than the minimum at the best bid is too small, and sends nothing', async () => {
    // 0.00001 BTC at 97,000 is about 1 USDT against the 5 USDT minimum.
    await marketSell('0.00001', best)
    expect((await screen.findByTestId('amount-input-error')).textContent).toBe('The order value must be at least 5 USDT')
    await new Promise((r) => setTimeout(r, 50))
    expect(creates()).toHaveLength(0)
    // Enough at the best bid (0.0001 BTC is 9.70 USDT): sent.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.0001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(creates()).toHaveLength(1))
    expect(creates()[0][1]).toMatchObject({ side: 'SELL', type: 'MARKET', volume: '0.0001' })
  })

  it('says it in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await marketSell('0.00001', best)
    expect((await screen.findByTestId('amount-input-error')).textContent).toBe('Захиалгын дүн хамгийн багадаа 5 USDT байх ёстой')
  })

  it('values a market buy by amount at the best ask', async () => {
    renderWithApp(<OrderForm pair={pair} best={best} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.00 USDT'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.click(screen.getByTestId('market-by-amount'))
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.00004' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect((await screen.findByTestId('amount-input-error')).textContent).toBe('The order value must be at least 5 USDT')
    expect(creates()).toHaveLength(0)
  })

  it('leaves the value to the server without a price in the book', async () => {
    await marketSell('0.00001')
    await waitFor(() => expect(creates()).toHaveLength(1))
    expect(screen.queryByTestId('amount-input-error')).toBeNull()
  })
})

describe('OrderForm says why it changed what was typed', () => {
  beforeEach(() => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/create')) return { order_id: '3' }
      return {}
    })
  })
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })
  const creates = () => apiData.mock.calls.filter(([p]) => p === '/fe-ex-api/order/create')
  const input = (id: string) => screen.getByTestId(id) as HTMLInputElement

  async function open() {
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
  }

  it('keeps only the number of a paste with letters and signs, and says so under the field and out loud', async () => {
    await open()
    fireEvent.change(input('price-input'), { target: { value: 'abc-1e5' } })
    expect(input('price-input').value).toBe('15')
    const notice = screen.getByTestId('price-input-notice')
    expect(notice.textContent).toBe('Only digits and one decimal point')
    // The field is described by it (its helper text), and a live region that is always there reads it out.
    const hint = screen.getByTestId('price-input-hint')
    await waitFor(() => expect(input('price-input').getAttribute('aria-describedby')).toBe(hint.id))
    const live = screen.getByTestId('price-input-notice-live')
    expect(live.getAttribute('aria-live')).toBe('polite')
    expect(live.textContent).toBe('Only digits and one decimal point')
    // A letter typed at the end leaves the number as it was and says why.
    fireEvent.change(input('price-input'), { target: { value: '15e' } })
    expect(input('price-input').value).toBe('15')
    expect(screen.getByTestId('price-input-notice').textContent).toBe('Only digits and one decimal point')
    // The next clean change ends it; the live region stays, empty.
    fireEvent.change(input('price-input'), { target: { value: '150' } })
    expect(screen.queryByTestId('price-input-notice')).toBeNull()
    expect(screen.queryByTestId('price-input-hint')).toBeNull()
    expect(screen.getByTestId('price-input-notice-live').textContent).toBe('')
    await waitFor(() => expect(input('price-input').hasAttribute('aria-describedby')).toBe(false))
  })

  it("says how many decimals the pair takes when it cuts the price's or the amount's", async () => {
    await open()
    fireEvent.change(input('price-input'), { target: { value: '97000.12345' } })
    expect(input('price-input').value).toBe('97000.12')
    expect(screen.getByTestId('price-input-notice').textContent).toBe('At most 2 decimals for this pair')
    fireEvent.change(input('amount-input'), { target: { value: '0.0012345678' } })
    expect(input('amount-input').value).toBe('0.001234')
    expect(screen.getByTestId('amount-input-notice').textContent).toBe('At most 6 decimals for this pair')
    // Each field keeps its own; no error is made of it (the numbers are valid) and nothing pops up.
    expect(screen.getByTestId('price-input-notice').textContent).toBe('At most 2 decimals for this pair')
    expect(screen.queryByTestId('price-input-error')).toBeNull()
    expect(screen.queryByRole('status')).toBeNull()
    // An amount set from elsewhere (the slider) is not the one the notice was about: it goes.
    fireEvent.click(screen.getByTestId('percent-mark-25'))
    expect(input('amount-input').value).not.toBe('0.001234')
    expect(screen.queryByTestId('amount-input-notice')).toBeNull()
    // Numbers kept as they were, spaces and thousands commas included, say nothing.
    fireEvent.change(input('price-input'), { target: { value: ' 97,000.5 ' } })
    expect(input('price-input').value).toBe('97000.5')
    expect(screen.queryByTestId('price-input-notice')).toBeNull()
  })

  it('says a pair without decimals takes whole numbers only', async () => {
    renderWithApp(<OrderForm pair={{ ...pair, lotSize: '1', minQty: '1' }} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    fireEvent.change(input('amount-input'), { target: { value: '3.5' } })
    expect(input('amount-input').value).toBe('3.')
    expect(screen.getByTestId('amount-input-notice').textContent).toBe('Whole numbers only for this pair')
    // The point stays while the field is being typed in, and goes when it is left.
    fireEvent.blur(input('amount-input'))
    expect(input('amount-input').value).toBe('3')
    fireEvent.change(input('price-input'), { target: { value: '97000.' } })
    fireEvent.blur(input('price-input'))
    expect(input('price-input').value).toBe('97000')
  })

  it('says a zero price or amount must be greater than 0, apart from an empty one', async () => {
    await open()
    fireEvent.change(input('price-input'), { target: { value: '0' } })
    fireEvent.change(input('amount-input'), { target: { value: '0' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect((await screen.findByTestId('price-input-error')).textContent).toBe('The price must be greater than 0')
    expect(screen.getByTestId('amount-input-error').textContent).toBe('The amount must be greater than 0')
    fireEvent.change(input('price-input'), { target: { value: '' } })
    expect(screen.getByTestId('price-input-error').textContent).toBe('Enter a price')
    await new Promise((r) => setTimeout(r, 50))
    expect(creates()).toHaveLength(0)
  })

  it('says it in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await open()
    fireEvent.change(input('price-input'), { target: { value: '-5' } })
    expect(screen.getByTestId('price-input-notice').textContent).toBe('Зөвхөн цифр болон нэг аравтын цэг оруулна уу')
    fireEvent.change(input('amount-input'), { target: { value: '0.0000001' } })
    expect(screen.getByTestId('amount-input-notice').textContent).toBe('Энэ хосод аравтын бутархай хамгийн ихдээ 6 оронтой байна')
    fireEvent.change(input('price-input'), { target: { value: '0' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    expect((await screen.findByTestId('price-input-error')).textContent).toBe('Үнэ 0-ээс их байх ёстой')
    expect(screen.getByTestId('amount-input-error').textContent).toBe('Тоо хэмжээ 0-ээс их байх ёстой')
  })
})

describe('OrderForm buy and sell colours', () => {
  const resolve = themeColor

  it.each(['light', 'dark'] as const)('reads the words on the buy and sell buttons at 4.5:1 at least (%s theme)', (mode) => {
    for (const side of ['BUY', 'SELL'] as const) {
      const { bg, color } = SIDE_COLORS[side]
      const ratio = contrast(resolve(bg, mode), resolve(color, mode))
      expect(ratio, `${side} in the ${mode} theme`).toBeGreaterThanOrEqual(4.5)
    }
  })

  // The light up green is #087f5b (5.0:1 on white): white words on the buy button read at 5.0:1, the old dark ones at 3.6:1.
  it('puts white words on the light buy button and dark ones on the dark one', () => {
    expect(resolve(SIDE_COLORS.BUY.bg, 'light')).toBe('#087f5b')
    expect(resolve(SIDE_COLORS.BUY.color, 'light')).toBe('#ffffff')
    expect(contrast(resolve(SIDE_COLORS.BUY.bg, 'light'), resolve(SIDE_COLORS.BUY.color, 'light'))).toBeCloseTo(5.0, 1)
    expect(resolve(SIDE_COLORS.BUY.bg, 'dark')).toBe('#20c997')
    expect(contrast(resolve(SIDE_COLORS.BUY.bg, 'dark'), resolve(SIDE_COLORS.BUY.color, 'dark'))).toBeGreaterThanOrEqual(4.5)
  })

  it('paints the chosen side and the submit with them', async () => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => (path.endsWith('/finance/v5/account_balance') ? balances : {}))
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    // White words on the light theme's darker up green (5.0:1; dark words on it were 3.6:1); dark ones in the dark theme.
    expect(getComputedStyle(screen.getByTestId('order-submit')).color).toContain('white')
    expect(getComputedStyle(screen.getByTestId('side-buy')).color).toContain('white')
    expect(SIDE_COLORS.BUY.color).toEqual({ _light: 'white', _dark: 'gray.950' })
  })
})

describe('OrderForm fee rates', () => {
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  it.each([
    ['en_US', 'Your fees: maker 0.075% · taker 0.1%'],
    ['mn_MN', 'Таны шимтгэл: мэйкер 0.075% · тэйкер 0.1%'],
  ])('shows the rates the next order gets (%s)', async (lan, text) => {
    document.cookie = `lan=${lan}; path=/`
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/fee_rate')) return { maker: '0.00075', taker: '0.001', volume30d: '0', feeCoin: false }
      return {}
    })
    renderWithApp(<OrderForm pair={pair} />)
    expect((await screen.findByTestId('fee-rates')).textContent).toBe(text)
  })

  it('shows no fee line while the rates are unknown', async () => {
    apiData.mockReset()
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/fee_rate')) throw new Error('Error: Network error')
      return {}
    })
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(screen.getByTestId('available-balance').textContent).toBe('1,000.55 USDT'))
    expect(screen.queryByTestId('fee-rates')).toBeNull()
  })
})

/** The book of the estimate and confirmation tests: thin top levels, then a deep one. */
const book = {
  asks: [
    ['30000', '0.001'],
    ['30300', '0.001'],
    ['30600', '1'],
  ],
  buys: [
    ['29900', '0.001'],
    ['29600', '0.001'],
    ['29000', '1'],
  ],
}
const ticker = { close: '30000', open: '29000', high: '30500', low: '28000', vol: '1', amount: '30000', rose: '0.03' }

/** An API whose book, ticker and balances the form reads; /order/create accepts. */
function mockMarket(depth: unknown = book) {
  apiData.mockReset()
  apiData.mockImplementation(async (path: string) => {
    if (path.endsWith('/finance/v5/account_balance')) return balances
    if (path.endsWith('/market/ticker')) return ticker
    if (path.endsWith('/market/depth')) return depth
    if (path.endsWith('/order/create')) return { order_id: '5' }
    return {}
  })
}
const orderCreates = () => apiData.mock.calls.filter(([p]) => p === '/fe-ex-api/order/create').map(([, body]) => body)
const text = (testId: string) => screen.getByTestId(testId).textContent
/** Renders the form and waits for its balances, the last price and the book. */
async function openForm(props: Partial<React.ComponentProps<typeof OrderForm>> = {}) {
  const r = renderWithApp(<OrderForm pair={pair} {...props} />)
  await waitFor(() => expect(screen.getByTestId('form-available-quote').textContent).toBe('1,000.55 USDT'))
  await waitFor(() => expect(apiData).toHaveBeenCalledWith('/fe-ex-api/market/ticker', { symbol: 'btcusdt' }, expect.anything()))
  await waitFor(() => expect(apiData).toHaveBeenCalledWith('/fe-ex-api/market/depth', expect.objectContaining({ symbol: 'btcusdt', step: 0 }), expect.anything()))
  return r
}

describe('OrderForm balances of both coins', () => {
  beforeEach(() => mockMarket())
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  it("shows both coins' balances at their places, the paying one marked, each with Deposit and Transfer shortcuts", async () => {
    const { router } = await openForm()
    expect(text('form-available-base')).toBe('0.053740 BTC')
    expect(text('form-available-quote')).toBe('1,000.55 USDT')
    // The paying coin's is the one the form always read out (a buy pays USDT, a sell BTC).
    expect(screen.getByTestId('form-available-quote').contains(screen.getByTestId('available-balance'))).toBe(true)
    fireEvent.click(screen.getByTestId('side-sell'))
    expect(screen.getByTestId('form-available-base').contains(screen.getByTestId('available-balance'))).toBe(true)

    // Each coin's shortcuts open the wallet's deposit or transfer with that coin chosen.
    expect(screen.getByTestId('form-funds-base').getAttribute('aria-label')).toBe('Deposit or transfer BTC')
    fireEvent.click(screen.getByTestId('form-funds-base'))
    expect((await screen.findByTestId('form-deposit')).getAttribute('href')).toBe('/wallet?modal=deposit&coin=BTC')
    expect(screen.getByTestId('form-deposit').textContent).toBe('Deposit BTC')
    expect(screen.getByTestId('form-transfer').getAttribute('href')).toBe('/wallet?modal=transfer&coin=BTC')
    fireEvent.keyDown(screen.getByTestId('form-deposit'), { key: 'Escape' })
    await waitFor(() => expect(screen.queryByTestId('form-deposit')).toBeNull())
    fireEvent.click(screen.getByTestId('form-funds-quote'))
    expect((await screen.findByTestId('form-transfer')).getAttribute('href')).toBe('/wallet?modal=transfer&coin=USDT')
    fireEvent.click(screen.getByTestId('form-deposit'))
    await waitFor(() => expect(router.state.location.href).toBe('/wallet?modal=deposit&coin=USDT'))
  })

  it('says them in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await openForm()
    expect(screen.getByTestId('form-funds-quote').getAttribute('aria-label')).toBe('USDT орлого хийх эсвэл шилжүүлэх')
    fireEvent.click(screen.getByTestId('form-funds-quote'))
    expect((await screen.findByTestId('form-deposit')).textContent).toBe('USDT орлого хийх')
    expect(screen.getByTestId('form-transfer').textContent).toBe('USDT шилжүүлэх')
  })
})

describe('OrderForm market estimate', () => {
  beforeEach(() => mockMarket())
  afterEach(() => {
    document.cookie = 'lan=en_US; path=/'
  })

  it('estimates a market buy by total across the asks as it is typed: the average price and the amount it buys', async () => {
    await openForm()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    expect(screen.queryByTestId('market-estimate')).toBeNull()
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '20' } })
    // Within the best level: its price.
    expect(text('est-avg')).toBe('Est. average price ≈ 30,000.00 USDT')
    expect(text('est-amount')).toBe('Est. amount ≈ 0.000666 BTC')
    // 30 USDT buys 0.001 at 30,000, 20 more 0.000660 at 30,300: 0.001660 for 49.998 USDT.
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '50' } })
    expect(text('est-avg')).toBe('Est. average price ≈ 30,119.28 USDT')
    expect(text('est-amount')).toBe('Est. amount ≈ 0.001660 BTC')
    expect(screen.queryByTestId('est-short')).toBeNull()
    // Limit orders have no estimate.
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'LIMIT' } })
    expect(screen.queryByTestId('market-estimate')).toBeNull()
  })

  it('estimates a market sell across the bids: the average price and the proceeds; and says when the book cannot fill it', async () => {
    await openForm()
    fireEvent.click(screen.getByTestId('side-sell'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    // 29.9 + 29.6 + 0.048 × 29,000 = 1,451.50 USDT for 0.05 BTC.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.05' } })
    expect(text('est-avg')).toBe('Est. average price ≈ 29,030.00 USDT')
    expect(text('est-total')).toBe('Est. total ≈ 1,451.50 USDT')
    // More than the book holds (1.002 BTC).
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '2' } })
    expect(text('est-short')).toBe('Not enough in the book: only ≈ 1.002000 BTC would fill now')
    expect(text('est-total')).toBe('Est. total ≈ 29,059.50 USDT')
  })

  it('estimates the cost of a market buy by amount', async () => {
    await openForm()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.click(screen.getByTestId('market-by-amount'))
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.002' } })
    expect(text('est-avg')).toBe('Est. average price ≈ 30,150.00 USDT')
    expect(text('est-total')).toBe('Est. total ≈ 60.30 USDT')
  })

  it('says an empty book cannot fill it, in Mongolian too', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    mockMarket({ asks: [], buys: [] })
    await openForm()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '50' } })
    expect(text('est-short')).toBe('Дэвтэрт захиалга хүрэлцэхгүй: биелүүлэх захиалга алга')
    expect(screen.queryByTestId('est-avg')).toBeNull()
  })
})

describe('OrderForm confirmations', () => {
  beforeEach(() => mockMarket())
  afterEach(() => {
    act(() => toaster.remove())
    document.cookie = 'lan=en_US; path=/'
  })
  const dialog = () => screen.queryByTestId('order-confirm-dialog')

  async function limit(side: 'buy' | 'sell', price: string, type = 'LIMIT') {
    if (side === 'sell') fireEvent.click(screen.getByTestId('side-sell'))
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: type } })
    if (type === 'STOP_LIMIT') fireEvent.change(screen.getByTestId('stop-price-input'), { target: { value: side === 'buy' ? '30100' : '29900' } })
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: price } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
  }

  it('sends a limit buy exactly 5% above the last price without asking', async () => {
    await openForm()
    await limit('buy', '31500')
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(dialog()).toBeNull()
  })

  it('asks before a limit buy more than 5% above the last price; Confirm sends it once', async () => {
    await openForm()
    await limit('buy', '31600')
    const d = await screen.findByRole('alertdialog')
    expect(d).toBe(dialog())
    expect(text('order-confirm-warning')).toBe('Your buy price is 5.33% above the last price (30,000.00 USDT).')
    expect(text('order-confirm-summary')).toContain('BTC/USDT · Buy · Limit')
    expect(text('order-confirm-price')).toBe('31,600.00 USDT')
    expect(text('order-confirm-amount')).toBe('0.001000 BTC')
    expect(text('order-confirm-total')).toBe('31.60 USDT')
    expect(orderCreates()).toHaveLength(0)
    const confirm = screen.getByTestId('order-confirm')
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(orderCreates()[0]).toEqual({ symbol: 'btcusdt', side: 'BUY', type: 'LIMIT', price: '31600', volume: '0.001', clientOrderId: expect.any(String) })
    await waitFor(() => expect(dialog()).toBeNull())
    await new Promise((r) => setTimeout(r, 50))
    expect(orderCreates()).toHaveLength(1)
  })

  it('asks before a sell more than 5% below the last price; Cancel sends nothing and returns to the form', async () => {
    await openForm()
    await limit('sell', '28500')
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(dialog()).toBeNull()
    await waitFor(() => expect(value('amount-input')).toBe(''))
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '28499.99' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await screen.findByRole('alertdialog')
    expect(text('order-confirm-warning')).toBe('Your sell price is 5.00% below the last price (30,000.00 USDT).')
    fireEvent.click(screen.getByTestId('order-confirm-cancel'))
    await waitFor(() => expect(dialog()).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('order-submit')))
    expect(orderCreates()).toHaveLength(1)
    // What was typed is still there.
    expect(value('price-input')).toBe('28499.99')
    expect(value('amount-input')).toBe('0.001')
  })

  it.each(['POST_ONLY', 'FOK', 'IOC', 'STOP_LIMIT'])("checks the limit price of a %s order", async (type) => {
    await openForm()
    await limit('buy', '32000', type)
    await screen.findByRole('alertdialog')
    expect(text('order-confirm-warning')).toBe('Your buy price is 6.67% above the last price (30,000.00 USDT).')
    if (type === 'STOP_LIMIT') expect(text('order-confirm-stop')).toBe('30,100.00 USDT')
    fireEvent.click(screen.getByTestId('order-confirm'))
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(orderCreates()[0]).toMatchObject({ type, price: '32000' })
  })

  it('does not ask when the last price is unknown', async () => {
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/create')) return { order_id: '5' }
      return {}
    })
    renderWithApp(<OrderForm pair={pair} />)
    await waitFor(() => expect(text('available-balance')).toBe('1,000.55 USDT'))
    await limit('buy', '90000')
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(dialog()).toBeNull()
  })

  it('asks before a market order whose estimated average is more than 1% from the best price, not at exactly 1%', async () => {
    mockMarket({
      asks: [
        ['30000', '0.001'],
        ['30600', '0.001'],
        ['40000', '1'],
      ],
      buys: [],
    })
    await openForm()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.click(screen.getByTestId('market-by-amount'))
    // 0.002 BTC at 30,300 on average: exactly 1% above 30,000.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.002' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(dialog()).toBeNull()
    await waitFor(() => expect(value('amount-input')).toBe(''))
    // 0.000001 more takes a lot at 40,000: 30,304.85 on average, 1.02% above.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.002001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await screen.findByRole('alertdialog')
    expect(text('order-confirm-warning')).toBe('The estimated average price ≈ 30,304.85 USDT is 1.02% worse than the best price (30,000.00 USDT).')
    expect(text('order-confirm-summary')).toContain('BTC/USDT · Buy · Market')
    expect(text('order-confirm-amount')).toBe('0.002001 BTC')
    expect(text('order-confirm-avg')).toBe('30,304.85 USDT')
    expect(text('order-confirm-est-total')).toBe('60.64 USDT')
    fireEvent.click(screen.getByTestId('order-confirm'))
    await waitFor(() => expect(orderCreates()).toHaveLength(2))
    expect(orderCreates()[1]).toEqual({ symbol: 'btcusdt', side: 'BUY', type: 'MARKET', volume: '0.002001', clientOrderId: expect.any(String) })
  })

  it('asks before a market buy by total that walks deep into the book, and Cancel sends nothing', async () => {
    await openForm()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '400' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await screen.findByRole('alertdialog')
    expect(text('order-confirm-warning')).toMatch(/^The estimated average price ≈ 30,531\.\d\d USDT is 1\.77% worse than the best price \(30,000\.00 USDT\)\.$/)
    expect(text('order-confirm-total')).toBe('400.00 USDT')
    expect(text('order-confirm-est-amount')).toBe('0.013101 BTC')
    fireEvent.click(screen.getByTestId('order-confirm-cancel'))
    await waitFor(() => expect(dialog()).toBeNull())
    await new Promise((r) => setTimeout(r, 50))
    expect(orderCreates()).toHaveLength(0)
  })

  it('stops asking after "Don\'t ask again", and the gear turns it back on', async () => {
    await openForm()
    await limit('buy', '33000')
    await screen.findByRole('alertdialog')
    const dontAsk = screen.getByRole('checkbox', { name: "Don't ask again" }) as HTMLInputElement
    fireEvent.click(dontAsk)
    await waitFor(() => expect(screen.getByTestId('order-confirm-dont-ask').getAttribute('data-state')).toBe('checked'))
    fireEvent.click(screen.getByTestId('order-confirm'))
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(localStorage.getItem('tenger.trade.confirmFarLimit')).toBe('off')
    await waitFor(() => expect(value('amount-input')).toBe(''))

    // Not asked any more.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(orderCreates()).toHaveLength(2))
    expect(dialog()).toBeNull()

    // The settings say so, and turn it back on.
    fireEvent.click(screen.getByTestId('form-settings'))
    const far = (await screen.findByTestId('form-settings-farLimit')).querySelector('input')!
    expect(far.checked).toBe(false)
    expect((screen.getByTestId('form-settings-slippage').querySelector('input') as HTMLInputElement).checked).toBe(true)
    expect(screen.getByTestId('form-settings-panel').textContent).toContain('Order confirmations')
    fireEvent.click(far)
    await waitFor(() => expect(far.checked).toBe(true))
    expect(localStorage.getItem('tenger.trade.confirmFarLimit')).toBeNull()
    await waitFor(() => expect(value('amount-input')).toBe(''))
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await screen.findByRole('alertdialog')
    expect(orderCreates()).toHaveLength(2)
  })

  it('skips the slippage question when it is turned off in the settings, and remembers it', async () => {
    localStorage.setItem('tenger.trade.confirmSlippage', 'off')
    await openForm()
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '400' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(dialog()).toBeNull()
    // The far-limit question is still on.
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'LIMIT' } })
    await limit('buy', '33000')
    await screen.findByRole('alertdialog')
  })

  it('turns the slippage question off from the gear', async () => {
    await openForm()
    fireEvent.click(screen.getByTestId('form-settings'))
    const slip = (await screen.findByTestId('form-settings-slippage')).querySelector('input')!
    fireEvent.click(slip)
    await waitFor(() => expect(slip.checked).toBe(false))
    expect(localStorage.getItem('tenger.trade.confirmSlippage')).toBe('off')
    fireEvent.change(screen.getByTestId('order-type'), { target: { value: 'MARKET' } })
    fireEvent.change(screen.getByTestId('total-input'), { target: { value: '400' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(orderCreates()).toHaveLength(1))
    expect(dialog()).toBeNull()
  })

  it('asks in Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    await openForm()
    await limit('sell', '27000')
    await screen.findByRole('alertdialog')
    expect(text('order-confirm-warning')).toBe('Таны зарах үнэ сүүлийн үнээс (30,000.00 USDT) 10.00%-иар доогуур байна.')
    expect(screen.getByTestId('order-confirm').textContent).toBe('Баталгаажуулах')
    expect(screen.getByTestId('order-confirm-cancel').textContent).toBe('Цуцлах')
    expect(screen.getByRole('checkbox', { name: 'Дахиж асуухгүй' })).toBeTruthy()
  })
})

describe('OrderForm side and onPlaced props', () => {
  beforeEach(() => mockMarket())
  afterEach(() => act(() => toaster.remove()))
  const pressedSide = () => (screen.getByTestId('side-buy').getAttribute('aria-pressed') === 'true' ? 'BUY' : 'SELL')

  it('opens on the side it is given and switches when it changes', async () => {
    function Harness() {
      const [side, setSide] = useState<'BUY' | 'SELL'>('SELL')
      return (
        <>
          <button type="button" data-testid="bar-buy" onClick={() => setSide('BUY')} />
          <button type="button" data-testid="bar-sell" onClick={() => setSide('SELL')} />
          <OrderForm pair={pair} side={side} />
        </>
      )
    }
    renderWithApp(<Harness />)
    await waitFor(() => expect(text('available-balance')).toBe('0.053740 BTC'))
    expect(pressedSide()).toBe('SELL')
    expect(text('order-submit')).toBe('Sell BTC')
    fireEvent.click(screen.getByTestId('bar-buy'))
    await waitFor(() => expect(pressedSide()).toBe('BUY'))
    expect(text('available-balance')).toBe('1,000.55 USDT')
    // The form's own buttons still switch it.
    fireEvent.click(screen.getByTestId('side-sell'))
    expect(pressedSide()).toBe('SELL')
    fireEvent.click(screen.getByTestId('bar-sell'))
    fireEvent.click(screen.getByTestId('bar-buy'))
    await waitFor(() => expect(pressedSide()).toBe('BUY'))
  })

  it('calls onPlaced once an order is accepted, and not for a failed one', async () => {
    const onPlaced = vi.fn()
    await openForm({ onPlaced })
    fireEvent.change(screen.getByTestId('price-input'), { target: { value: '30000' } })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(onPlaced).toHaveBeenCalledTimes(1))
    apiData.mockImplementation(async (path: string) => {
      if (path.endsWith('/finance/v5/account_balance')) return balances
      if (path.endsWith('/order/create')) throw new Error('Error: Network error')
      return {}
    })
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '0.001' } })
    fireEvent.click(screen.getByTestId('order-submit'))
    await waitFor(() => expect(orderCreates()).toHaveLength(2))
    await new Promise((r) => setTimeout(r, 50))
    expect(onPlaced).toHaveBeenCalledTimes(1)
  })
})
