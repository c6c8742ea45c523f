// Deposits by chain and by bank transfer, credited on screen without a reload.
import { expect, test, type WebSocket } from '@playwright/test'
import { PHONE } from './support/browser'
import { dev, pickAsset, walletUser } from './wallet-support'

test('chain deposit: address from the modal, simulated transfer, blocks mined, credited live', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const w = await walletUser(page, request, 'deposit-chain')
  // The sockets that authenticate as the user: only the app-wide private one (the wallet opens none of its own).
  const authSockets = new Set<WebSocket>()
  const depositPushes: { status: string; confirmations: number }[] = []
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      if (String(frame.payload).includes('"event":"auth"')) authSockets.add(ws)
    })
    ws.on('framereceived', (frame) => {
      const msg = JSON.parse(String(frame.payload)) as { channel?: string; data?: { status: string; confirmations: number } }
      if (msg.channel === 'deposit' && msg.data) depositPushes.push(msg.data)
    })
  })
  const modal = page.getByTestId('deposit-modal')
  await page.goto('/')
  // With the walletLive flag on (tenger serve), the navbar's Deposit button opens the deposit modal.
  await page.getByTestId('desktop-navbar').getByRole('link', { name: 'Deposit' }).click()
  await expect(page).toHaveURL(/\/wallet\?modal=deposit/)
  await expect(modal).toBeVisible()
  // Escape in the asset search closes the list only, not the modal.
  await modal.getByTestId('asset-picker').click()
  await modal.getByTestId('asset-search').press('Escape')
  await expect(modal.getByTestId('asset-picker-list')).toHaveCount(0)
  await expect(modal).toBeVisible()
  await expect(page).toHaveURL(/\?modal=deposit/)
  // A coin on several networks starts with none chosen; a coin on one has it chosen.
  await pickAsset(page, modal, 'USDT')
  await expect(modal.getByTestId('deposit-choose-network')).toBeVisible()
  await expect(modal.getByTestId('chain-TRC20')).toHaveAttribute('aria-pressed', 'false')
  await expect(modal.getByTestId('deposit-address')).toHaveCount(0)
  await modal.getByTestId('chain-TRC20').click()
  await expect(modal.getByTestId('deposit-min')).toHaveText('Minimum deposit1 USDT')
  await expect(modal.getByTestId('deposit-confirmations')).toHaveText('Confirmations needed19')
  await pickAsset(page, modal, 'BTC')
  await expect(modal.getByTestId('chain-BTC')).toHaveAttribute('aria-pressed', 'true')
  await expect(modal.getByTestId('deposit-min')).toHaveText('Minimum deposit0.0001 BTC')
  await expect(modal.getByTestId('deposit-arrival')).toHaveText('Expected arrivalAbout 20 min')

  const shown = modal.getByTestId('deposit-address')
  await expect(shown).toBeVisible()
  const address = (await shown.getAttribute('data-address')) ?? ''
  expect(address).toMatch(/^bc1[02-9ac-hj-np-z]{11,71}$/)
  expect(await shown.textContent()).toBe(address.length > 37 ? `${address.slice(0, 28)}…${address.slice(-6)}` : address)
  await expect(modal.getByTestId('deposit-qr')).toBeVisible()
  if (address.length > 37) {
    // The whole address is a press away, and back.
    await modal.getByTestId('toggle-whole-address').click()
    await expect(shown).toHaveText(address)
    await modal.getByTestId('toggle-whole-address').click()
    await expect(shown).toHaveText(`${address.slice(0, 28)}…${address.slice(-6)}`)
  }

  // Copy shows the checkmark for 3 seconds and puts the full address on the clipboard.
  await modal.getByTestId('copy-address').click()
  await expect(modal.getByTestId('copy-address')).toHaveAttribute('data-copied', 'true')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)
  await expect(modal.getByTestId('copy-address')).not.toHaveAttribute('data-copied', 'true', { timeout: 5000 })

  await dev(request, '/dev/chain/deposit', { coin: 'BTC', chain: 'BTC', address, amount: '0.25' })
  await dev(request, '/dev/chain/mine', { chain: 'BTC', blocks: 1 })
  const recent = modal.getByTestId('recent-deposit').first()
  await expect(recent).toHaveAttribute('data-status', 'confirming', { timeout: 15_000 })
  await expect(recent.getByTestId('deposit-status')).toContainText('/2')

  await dev(request, '/dev/chain/mine', { chain: 'BTC', blocks: 2 })
  await expect(recent).toHaveAttribute('data-status', 'credited', { timeout: 15_000 })
  await expect(modal.getByTestId('deposit-available')).toContainText('0.25000000 BTC')
  expect(authSockets.size).toBe(1)

  // The history shows it too.
  await modal.getByTestId('deposit-history-link').click()
  await expect(page).toHaveURL(/\/wallet\/history\?tab=deposit/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deposit and withdrawal history')
  const row = page.getByTestId('deposit-row').first()
  await expect(row).toContainText('BTC')
  await expect(row.getByTestId('history-status')).toHaveAttribute('data-status', 'credited')
  await expect(row.getByTestId('tx-explorer-link')).toHaveAttribute('href', /^\/dev\/chain\/tx\?chain=BTC&txid=/)
  expect(authSockets.size).toBe(1)
  // The server told that socket about each step of the deposit.
  expect(depositPushes.map((d) => d.status)).toContain('confirming')
  expect(depositPushes.at(-1)?.status).toBe('credited')
  expect(w.uid).not.toBe('')
})

test('bank deposit: the bank block shows the user id as the reference; the transfer is credited live', async ({ page, request }) => {
  const w = await walletUser(page, request, 'deposit-bank')
  await page.goto('/wallet?view=spot')
  await expect(page.getByTestId('spot-view')).toBeVisible()
  await page.getByTestId('deposit-MNT').click()
  const modal = page.getByTestId('deposit-modal')
  await expect(modal.getByTestId('asset-picker')).toContainText('MNT')
  const block = modal.getByTestId('bank-block')
  await expect(block).toBeVisible()
  await expect(block.getByTestId('bank-reference')).toHaveText(w.uid)
  await expect(block.getByTestId('bank-account-no')).not.toBeEmpty()

  await dev(request, '/dev/bank/incoming', { amount: '250000', reference: w.uid, bankTxId: `bank-e2e-${w.uid}` })
  await expect(modal.getByTestId('recent-deposit').first()).toHaveAttribute('data-status', 'credited', { timeout: 15_000 })
  await expect(modal.getByTestId('deposit-available')).toContainText('250,000.00 MNT')
  await modal.getByTestId('modal-close').click()
  await expect(page.getByTestId('spot-row-MNT').getByTestId('spot-available')).toHaveText('250,000.00')
})

test('phone: the header Deposit button opens the deposit modal; balances can be hidden', async ({ page, request }) => {
  await page.setViewportSize(PHONE)
  await walletUser(page, request, 'deposit-phone')
  await page.goto('/')
  const button = page.getByTestId('mobile-deposit')
  await expect(page.getByTestId('mobile-header')).toBeVisible()
  await button.click()
  await expect(page.getByTestId('deposit-modal')).toBeVisible()
  await page.getByTestId('modal-close').click()
  await expect(page).toHaveURL(/\/wallet$/)

  // The balance-hide toggle masks every amount and is kept in the balance-hide cookie.
  await expect(page.getByTestId('total-balance')).toContainText('0.00000000 BTC')
  await page.getByTestId('balance-hide').click()
  await expect(page.getByTestId('total-balance')).toContainText('******')
  await page.reload()
  await expect(page.getByTestId('total-balance')).toContainText('******')
  expect((await page.context().cookies()).find((c) => c.name === 'balance-hide')?.value).toBe('1')
})
