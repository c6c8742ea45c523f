// Perpetual futures: a funded user opens a futures account, sets 10x
// isolated, opens a long of 1 BTC at market against the dev market maker,
// sees its liquidation price (the published formula, on the 0.1 grid); the
// index simulator (/dev/index) moves the mark below it and the position is
// liquidated: its loss and the liquidation fee (to the insurance fund) are
// exactly what its fills say; then a funding round (/dev/funding) moves
// exactly the computed amount from a new long, whose stop-loss (set from
// its row) closes it when the mark falls to it.
// Screenshots: frontend/test-results/screenshots/futures/.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import path from 'node:path'
import { DESKTOP, PHONE, setCookies } from './support/browser'
import { apiOk, baseURL } from './support/server-api'
import { dev, fundByChain, walletUser, type WalletUser } from './wallet-support'

const OUT = path.join(import.meta.dirname, '..', 'test-results', 'screenshots', 'futures')
const USDT = 100_000_000n // engine units of 1 USDT

/** POSTs to /fe-co-api{path} and returns data (fails the test on a non-zero code). */
/** Moves the simulator's BTCUSDT index to price and waits until the maker quotes both sides around it. */
async function indexAt(request: APIRequestContext, price: number) {
  await dev(request, '/dev/index', { symbol: 'BTCUSDT', price: String(price) })
  await expect
    .poll(async () => {
      const d = await co<{ asks: [string, string][]; bids: [string, string][] }>(request, '/common/depth_map', { symbol: 'BTCUSDT', limit: 1 })
      return d.asks.length > 0 && d.bids.length > 0 && Math.abs(Number(d.asks[0][0]) - price) < 100
    }, { timeout: 30_000 })
    .toBe(true)
}

async function co<T = unknown>(request: APIRequestContext, p: string, body: Record<string, unknown>, token?: string): Promise<T> {
  const headers: Record<string, string> = { 'exchange-client': 'pc', 'exchange-language': 'en_US', 'futures-version': '101' }
  if (token) headers['exchange-token'] = token
  const res = await request.post(`${baseURL}/fe-co-api${p}`, { headers, data: body })
  expect(res.status(), `HTTP status of ${p}`).toBeLessThan(500)
  const answer = (await res.json()) as { code: string | number; msg: string; data: T }
  expect(String(answer.code), `${p}: ${answer.msg}`).toBe('0')
  return answer.data
}

interface Position {
  side: string
  positionSide: string
  volume: number
  openPrice: string
  liquidationPrice: string
  margin: string
}
interface Assets {
  accountList: { walletBalance: string }[]
  positionList: Position[]
}
interface Fill {
  orderId: string
  price: string
  volume: number
  fee: string
  realizedPnl: string
  liquidation: boolean
  side: string
}
interface MarketInfo {
  markPrice: string
  insuranceFund: string
  lastFundingRate: string
}

/** A decimal string in engine units (8 decimals) as a BigInt. */
function units(s: string): bigint {
  const neg = s.startsWith('-')
  const [i, f = ''] = s.replace('-', '').split('.')
  const v = BigInt(i) * USDT + BigInt((f + '00000000').slice(0, 8))
  return neg ? -v : v
}

/** Price text (1 decimal on BTCUSDT's 0.1 grid) in ticks. */
function ticks(s: string): bigint {
  const [i, f = '0'] = s.replace(/,/g, '').split('.')
  return BigInt(i) * 10n + BigInt(f.slice(0, 1))
}

/**
 * The published liquidation price of an isolated long (1 BTC, 0.4% MMR and
 * no cum in BTCUSDT's first tier): (entry - margin/qty) / (1 - mmr), the
 * highest 0.1 tick at or below it.
 */
function longLiquidation(entryTicks: bigint, marginUnits: bigint): bigint {
  // In units of 1e-8 USDT per BTC: entry × 1e8 / 10 per tick.
  const entry = (entryTicks * USDT) / 10n
  const exact = ((entry - marginUnits) * 1000n) / 996n // ÷ (1 − 0.004)
  return (exact * 10n) / USDT // down to the tick
}

async function assets(request: APIRequestContext, w: WalletUser): Promise<Assets> {
  return co<Assets>(request, '/position/get_assets_list', {}, w.token)
}

async function shoot(page: Page, name: string, theme: 'light' | 'dark', size: { width: number; height: number }) {
  await setCookies(page.context(), { cusSkin: theme === 'dark' ? '1' : '2', stickyBar: '1' })
  await page.setViewportSize(size)
  await page.reload()
  await expect(page.locator('html')).toHaveClass(new RegExp(theme))
  await expect(page.getByTestId('futures-header')).toBeVisible()
  await expect(page.getByTestId(size.width < 500 ? 'futures-mobile-bar' : 'futures-order-form')).toBeVisible()
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`), fullPage: size.width < 500 })
}

test('futures: a 10x isolated long liquidated by the index, a funding round, a stop-loss, and hedge mode', async ({ page, request }) => {
  test.setTimeout(180_000)
  const w = await walletUser(page, request, 'futures')
  await fundByChain(request, w, 'USDT', 'BEP20', '12000', 15)
  await apiOk(request, '/wallet/futures_to_contract', { amount: '10000', coinSymbol: 'USDT' }, w.token)
  // The maker quotes around the new mark before the user trades.
  await indexAt(request, 50000)

  await setCookies(page.context(), { cusSkin: '2', stickyBar: '1' })
  await page.setViewportSize(DESKTOP)
  await page.goto('/futures/BTCUSDT')
  await expect(page.getByTestId('futures-header')).toBeVisible({ timeout: 30_000 })
  await expect(page).toHaveTitle(/BTCUSDT/)
  // A new futures account is opened first.
  await page.getByTestId('futures-open-account-button').click()
  await expect(page.getByTestId('futures-open-account')).toHaveCount(0)
  await expect(page.getByTestId('futures-available')).toContainText('10,000')

  // Isolated, 10x.
  await page.getByTestId('futures-margin-mode').click()
  await page.getByTestId('margin-mode-isolated').click()
  await page.getByTestId('margin-mode-confirm').click()
  await expect(page.getByTestId('margin-mode-dialog')).toBeHidden()
  await page.getByTestId('futures-leverage').click()
  await page.getByTestId('leverage-input').fill('10')
  await page.getByTestId('leverage-confirm').click()
  await expect(page.getByTestId('leverage-dialog')).toBeHidden()
  await expect(page.getByTestId('futures-leverage')).toContainText('10')
  const cfg = await co<{ leverage: number; marginMode: number }>(request, '/user/get_user_config', { symbol: 'BTCUSDT' }, w.token)
  expect(cfg).toMatchObject({ leverage: 10, marginMode: 2 })

  // A long of 1 BTC (1,000 contracts of 0.001) at market.
  await page.getByTestId('futures-type-market').click()
  await page.getByTestId('futures-volume').fill('1000')
  await page.getByTestId('futures-submit-buy').click()
  const confirm = page.getByTestId('futures-confirm')
  if (await confirm.isVisible().catch(() => false)) await page.getByTestId('futures-confirm-send').click()
  const row = page.getByTestId('position-row')
  await expect(row).toHaveCount(1, { timeout: 15_000 })
  await expect(row.getByTestId('position-size')).toContainText('1,000')

  // Its liquidation price: the formula on the entry and the margin, shown as the server has it.
  const pos = (await assets(request, w)).positionList[0]
  expect(pos).toMatchObject({ side: 'LONG', volume: 1000 })
  const entry = ticks(pos.openPrice)
  const margin = units(pos.margin)
  // The entry shown is the fills' average rounded to the tick, so the formula
  // on it can land one tick off the engine's exact boundary.
  const liq = ticks(pos.liquidationPrice)
  const formula = longLiquidation(entry, margin)
  expect(liq >= formula - 1n && liq <= formula + 1n, `liquidation ${liq}, formula ${formula}`).toBe(true)
  await expect(row.getByTestId('position-liquidation')).toContainText(Number(pos.liquidationPrice).toLocaleString('en-US', { minimumFractionDigits: 1 }))
  const fundBefore = units((await co<MarketInfo>(request, '/common/public_market_info', { symbol: 'BTCUSDT' })).insuranceFund)
  const walletBefore = units((await assets(request, w)).accountList[0].walletBalance)

  for (const theme of ['light', 'dark'] as const) {
    await shoot(page, 'desktop', theme, DESKTOP)
    await shoot(page, 'phone', theme, PHONE)
  }
  await page.setViewportSize(DESKTOP)

  // The index falls to 10 USDT above the liquidation price and the maker's
  // book follows it; then 1 USDT below it: the mark follows at once and the
  // position is liquidated into the bids there.
  const price = (t: bigint) => `${t / 10n}.${t % 10n}`
  await dev(request, '/dev/index', { symbol: 'BTCUSDT', price: price(liq + 100n) })
  await expect
    .poll(async () => {
      const d = await co<{ bids: [string, string][] }>(request, '/common/depth_map', { symbol: 'BTCUSDT', limit: 1 })
      return d.bids.length > 0 && ticks(d.bids[0][0]) < liq + 200n
    }, { timeout: 30_000 })
    .toBe(true)
  expect((await assets(request, w)).positionList).toHaveLength(1)
  await dev(request, '/dev/index', { symbol: 'BTCUSDT', price: price(liq - 10n) })
  await expect(page.getByTestId('futures-positions-empty')).toBeVisible({ timeout: 20_000 })
  expect((await assets(request, w)).positionList).toHaveLength(0)

  // The liquidation's fills: sold no lower than the bankruptcy price (the
  // entry less the margin per BTC); what the book did not take went to the
  // insurance fund at that price. The closed position's record has the
  // whole realized PnL and every fee it paid.
  const fills = (await co<{ tradeList: Fill[] }>(request, '/order/his_trade_list', { symbol: 'BTCUSDT', pageSize: 50 }, w.token)).tradeList
  const opening = fills.filter((f) => !f.liquidation && f.side === 'BUY')
  const liqFills = fills.filter((f) => f.liquidation)
  const value = (f: Fill) => (ticks(f.price) * USDT * BigInt(f.volume)) / 10_000n // price × volume × 0.001 BTC
  const cost = opening.reduce((sum, f) => sum + value(f), 0n)
  const openFee = opening.reduce((sum, f) => sum + units(f.fee), 0n)
  expect(opening.reduce((n, f) => n + f.volume, 0)).toBe(1000)
  let sold = 0
  let exitValue = 0n
  let liqFees = 0n
  for (const f of liqFills) {
    expect(f.side).toBe('SELL')
    expect((ticks(f.price) * USDT) / 10n).toBeGreaterThanOrEqual(cost - margin)
    sold += f.volume
    exitValue += value(f)
    liqFees += units(f.fee)
  }
  const closed = (await co<{ positionList: { realizedPnl: string; fee: string; liquidated: boolean; side: string }[] }>(
    request, '/position/history_position_list', { symbol: 'BTCUSDT' }, w.token)).positionList[0]
  expect(closed).toMatchObject({ side: 'LONG', liquidated: true })
  const realized = units(closed.realizedPnl)
  // The isolated position loses no more than its margin: it pays the
  // liquidation fee and its loss as far as the margin goes; the insurance
  // fund gets the fee and covers what the margin lacked.
  const loss = realized < 0n ? -realized : 0n
  const paid = [margin, liqFees + loss].reduce((a, b) => (a < b ? a : b))
  if (sold === 1000) {
    // Sold whole through the book: the PnL is the exit less the entry; the
    // fee, 1.25% of each fill's notional as far as the margin left went.
    expect(realized).toBe(exitValue - cost)
    const feeCap = liqFills.reduce((sum, f) => sum + (value(f) * 125n + 9_999n) / 10_000n, 0n)
    expect(liqFees > 0n && liqFees <= feeCap && liqFees <= margin, `liquidation fees ${liqFees}, at most ${feeCap} and ${margin}`).toBe(true)
    await expect
      .poll(async () => units((await co<MarketInfo>(request, '/common/public_market_info', { symbol: 'BTCUSDT' })).insuranceFund) - fundBefore, {
        timeout: 10_000,
      })
      .toBe(paid - loss)
  }
  expect(units(closed.fee)).toBe(openFee + liqFees)
  const walletAfter = units((await assets(request, w)).accountList[0].walletBalance)
  expect(walletAfter).toBe(realized < 0n ? walletBefore - paid : walletBefore + realized - liqFees)
  // Shown at 4 places, rounded half up.
  const shown = (walletAfter + 5000n) / 10000n
  await expect(page.getByTestId('account-wallet-balance')).toContainText(
    `${(shown / 10000n).toLocaleString('en-US')}.${String(shown % 10000n).padStart(4, '0')}`,
  )
  // The order history shows the liquidation order.
  await page.getByTestId('futures-tab-history').click()
  await expect(page.getByTestId('futures-order-history').getByTestId('futures-order-row').first()).toBeVisible()

  // A funding round: a new long of 0.1 BTC pays the round's rate on its value at the mark.
  await indexAt(request, 50000)
  await co(request, '/order/order_create', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', volume: '100' }, w.token)
  const beforeFunding = units((await assets(request, w)).accountList[0].walletBalance)
  await dev(request, '/dev/funding', { symbol: 'BTCUSDT' })
  const mi = await co<MarketInfo>(request, '/common/public_market_info', { symbol: 'BTCUSDT' })
  const rate = units(mi.lastFundingRate) // rate × 1e8
  const mark = ticks(mi.markPrice)
  // 100 contracts × 10,000 units a tick × the mark; a payer rounds up, a receiver down.
  const posValue = 100n * 10_000n * mark
  const due = rate >= 0n ? (posValue * rate + USDT - 1n) / USDT : -((posValue * -rate) / USDT)
  await expect.poll(async () => beforeFunding - units((await assets(request, w)).accountList[0].walletBalance), { timeout: 10_000 }).toBe(due)

  // A stop-loss on that long, set from its row: the mark falling to it closes the position at market.
  await page.getByTestId('futures-tab-positions').click()
  const longRow = page.getByTestId('position-row')
  await expect(longRow).toHaveCount(1, { timeout: 15_000 })
  await longRow.getByTestId('position-tpsl-edit').click()
  await expect(page.getByTestId('tpsl-dialog')).toBeVisible()
  await page.getByTestId('tpsl-sl').fill('49000.0')
  await expect(page.getByTestId('tpsl-sl-pnl')).toContainText('-')
  await page.getByTestId('tpsl-dialog-confirm').click()
  await expect(page.getByTestId('tpsl-dialog')).toBeHidden()
  const waiting = await co<{ triggerList: { triggerId: string; triggerPrice: string; direction: string; closePosition: boolean }[] }>(
    request, '/order/trigger_order_list', { symbol: 'BTCUSDT' }, w.token)
  expect(waiting.triggerList).toHaveLength(1)
  expect(waiting.triggerList[0]).toMatchObject({ triggerPrice: '49000.0', direction: 'FALL', closePosition: true })
  await dev(request, '/dev/index', { symbol: 'BTCUSDT', price: '48900' })
  await expect(page.getByTestId('futures-positions-empty')).toBeVisible({ timeout: 20_000 })
  const fired = await co<{ triggerList: { triggerId: string; status: string }[] }>(request, '/order/history_trigger_order_list', { symbol: 'BTCUSDT' }, w.token)
  expect(fired.triggerList.find((x) => x.triggerId === waiting.triggerList[0].triggerId)?.status).toBe('TRIGGERED')

  // Hedge mode, with nothing open: a long and a short of the contract at once, two rows; the short closed from its row.
  await indexAt(request, 50000)
  await page.getByTestId('futures-position-mode').click()
  await page.getByTestId('position-mode-hedge').click()
  await page.getByTestId('position-mode-confirm').click()
  await expect(page.getByTestId('position-mode-dialog')).toBeHidden()
  expect((await co<{ positionMode: number }>(request, '/user/get_user_config', { symbol: 'BTCUSDT' }, w.token)).positionMode).toBe(2)
  const send = async (side: 'buy' | 'sell', volume: string) => {
    await page.getByTestId('futures-type-market').click()
    await page.getByTestId('futures-volume').fill(volume)
    await page.getByTestId(`futures-submit-${side}`).click()
    const c = page.getByTestId('futures-confirm')
    if (await c.isVisible().catch(() => false)) await page.getByTestId('futures-confirm-send').click()
    await expect(page.getByTestId('futures-volume')).toHaveValue('', { timeout: 15_000 })
  }
  await send('buy', '100')
  await send('sell', '50')
  await page.getByTestId('futures-tab-positions').click()
  const rows = page.getByTestId('position-row')
  await expect(rows).toHaveCount(2, { timeout: 15_000 })
  const bySide = Object.fromEntries(
    (await assets(request, w)).positionList.map((p) => [p.positionSide, p.volume]),
  )
  expect(bySide).toEqual({ LONG: 100, SHORT: 50 })
  const shortRow = rows.filter({ has: page.locator('[data-testid="position-side"][data-side="SHORT"]') })
  await shortRow.getByTestId('position-close-market').click()
  const ask = page.getByTestId('market-close-confirm')
  if (await ask.isVisible().catch(() => false)) await page.getByTestId('market-close-confirm-button').click()
  await expect(rows).toHaveCount(1, { timeout: 15_000 })
  await expect(rows.getByTestId('position-side')).toHaveAttribute('data-side', 'LONG')
})
