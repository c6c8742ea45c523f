// Acceptance of the Binance-compatible API with the real client: CCXT's
// stock `binance` class, with only its URLs pointed at the `tenger serve`
// under test, loads the markets and currencies, reads the book, trades,
// candles, tickers and the balance, places limit, market (by cost) and
// post-only orders (one refused for crossing), reads them back with the
// user's trades, and cancels; a key with the withdraw permission, bound to
// the test's address, reads deposits and the deposit address, withdraws
// and finds the withdrawal in its history.
// CCXT Pro watches the book, trades and candles on the market streams, and
// the user's own orders, fills and balance on the WebSocket API
// (userDataStream.subscribe.signature), where it also places and cancels.
// No browser: the accounts are made through the API, funded through the
// dev chain simulator, and the API key is created as the profile screen
// creates it (create_open_api with the e-mail code).
import { expect, test, type APIRequestContext } from '@playwright/test'
import ccxt from 'ccxt'
import { apiOk, baseURL, latestCode, loginToken, registerUser } from './support/server-api'
import { fundByChain, type WalletUser } from './wallet-support'

const OP_WITHDRAW_EMAIL = 17

/** A funded account with an API key (spot trading by default). */
async function trader(
  request: APIRequestContext,
  tag: string,
  coin: string,
  chain: string,
  amount: string,
  confirmations: number,
  permissions = ['spot'],
  ips: string[] = [],
) {
  const user = await registerUser(request, tag)
  const token = await loginToken(request, user)
  const info = await apiOk<{ id: string | number }>(request, '/common/user_info', {}, token)
  const w: WalletUser = { user, token, uid: String(info.id) }
  await fundByChain(request, w, coin, chain, amount, confirmations)
  await apiOk(request, '/v4/common/emailValidCode', { operationType: OP_WITHDRAW_EMAIL }, token)
  const emailCode = await latestCode(request, user.email, OP_WITHDRAW_EMAIL)
  const key = await apiOk<{ apiKey: string; secretKey: string }>(
    request,
    '/openapi/create_open_api',
    { label: 'ccxt', permissions, ips, emailCode },
    token,
  )
  return key
}

/** CCXT's binance class with every REST URL moved to the server under test. */
function client(key: { apiKey: string; secretKey: string }) {
  const ex = new ccxt.binance({ apiKey: key.apiKey, secret: key.secretKey, enableRateLimit: false })
  const api = ex.urls.api as Record<string, unknown>
  for (const [name, url] of Object.entries(api)) {
    if (typeof url === 'string' && url.startsWith('https://')) {
      api[name] = baseURL + new URL(url).pathname
    }
  }
  return ex
}

test('CCXT binance: markets, market data, balance, limit, market and post-only orders, queries and cancel', async ({ request }) => {
  test.setTimeout(90_000)
  const sellerKey = await trader(request, 'ccxt-s', 'BTC', 'BTC', '0.05', 2)
  const buyerKey = await trader(request, 'ccxt-b', 'USDT', 'BEP20', '2000', 15)
  const seller = client(sellerKey)
  const buyer = client(buyerKey)

  const markets = await buyer.loadMarkets()
  const m = markets['BTC/USDT']
  expect(m, 'BTC/USDT among the markets').toBeTruthy()
  expect(m.spot).toBe(true)
  expect(m.precision.price).toBeGreaterThan(0)
  expect(buyer.currencies['USDT']?.networks, 'USDT networks from capital/config/getall').toBeTruthy()

  const book = await buyer.fetchOrderBook('BTC/USDT', 10)
  expect(book.bids.length + book.asks.length).toBeGreaterThan(0)
  const ticker = await buyer.fetchTicker('BTC/USDT')
  expect(ticker.last).toBeGreaterThan(0)
  const tickers = await buyer.fetchTickers(['BTC/USDT', 'ETH/USDT'])
  expect(Object.keys(tickers)).toContain('ETH/USDT')
  const candles = await buyer.fetchOHLCV('BTC/USDT', '1m', undefined, 10)
  expect(candles.length).toBeGreaterThan(0)
  expect(candles[0]).toHaveLength(6)
  await buyer.fetchTrades('BTC/USDT', undefined, 5)

  const balance = await buyer.fetchBalance()
  expect(balance.free['USDT']).toBe(2000)

  // The seller offers 0.01 BTC far above the market: it rests.
  const price = Number(buyer.priceToPrecision('BTC/USDT', (ticker.last ?? 0) * 1.5))
  const limit = await seller.createOrder('BTC/USDT', 'limit', 'sell', 0.01, price)
  expect(limit.id).toBeTruthy()
  expect(limit.status).toBe('open')
  const open = await seller.fetchOpenOrders('BTC/USDT')
  expect(open.map((o) => o.id)).toContain(limit.id)

  // A post-only buy at the seller's price would take: refused as Binance refuses it.
  await expect(buyer.createOrder('BTC/USDT', 'limit', 'buy', 0.01, price, { postOnly: true })).rejects.toThrow(/immediately match/)
  // A post-only buy far below rests.
  const maker = await buyer.createOrder('BTC/USDT', 'limit', 'buy', 0.001, Number(buyer.priceToPrecision('BTC/USDT', price / 3)), {
    postOnly: true,
  })
  expect(maker.status).toBe('open')

  // A market buy by cost takes from the asks.
  const market = await buyer.createMarketBuyOrderWithCost('BTC/USDT', 50)
  expect(market.status).toBe('closed')
  expect(market.filled).toBeGreaterThan(0)
  expect(market.cost).toBeLessThanOrEqual(50)
  const fetched = await buyer.fetchOrder(market.id, 'BTC/USDT')
  expect(fetched.status).toBe('closed')
  expect(fetched.filled).toBeCloseTo(market.filled ?? 0, 8)
  const myTrades = await buyer.fetchMyTrades('BTC/USDT')
  expect(myTrades.length).toBeGreaterThan(0)
  expect(myTrades.every((t) => t.order === market.id && t.side === 'buy' && t.takerOrMaker === 'taker')).toBe(true)
  const bought = myTrades.reduce((sum, t) => sum + (t.amount ?? 0), 0)
  expect(bought).toBeCloseTo(market.filled ?? 0, 8)

  const resting = await seller.fetchOrder(limit.id, 'BTC/USDT')
  expect(resting.status).toBe('open')
  expect(resting.filled).toBe(0)
  const cancelled = await seller.cancelOrder(limit.id, 'BTC/USDT')
  expect(cancelled.status).toBe('canceled')
  await expect(seller.cancelOrder(limit.id, 'BTC/USDT')).rejects.toThrow(ccxt.OrderNotFound)
  await buyer.cancelOrder(maker.id, 'BTC/USDT')
  expect(await buyer.fetchOpenOrders('BTC/USDT')).toHaveLength(0)

  const after = await buyer.fetchBalance()
  expect(after.free['BTC']).toBeGreaterThan(0)
  expect(after.used['USDT'] ?? 0).toBe(0)
})

test('CCXT binance: deposit address and history, a withdrawal by a key bound to this address, its history', async ({ request }) => {
  test.setTimeout(60_000)
  const key = await trader(request, 'ccxt-w', 'USDT', 'BEP20', '100', 15, ['withdraw'], ['127.0.0.1', '::1'])
  const ex = client(key)
  await ex.loadMarkets()
  const deposits = await ex.fetchDeposits('USDT')
  expect(deposits).toHaveLength(1)
  expect(deposits[0].amount).toBe(100)
  expect(deposits[0].status).toBe('ok')
  const address = await ex.fetchDepositAddress('USDT', { network: 'BEP20' })
  expect(address.address).toMatch(/^0x[0-9a-fA-F]{40}$/)

  const sent = await ex.withdraw('USDT', 20, '0x52908400098527886E0F7030069857D2E4169EE7', undefined, { network: 'BEP20' })
  expect(sent.id).toBeTruthy()
  const withdrawals = await ex.fetchWithdrawals('USDT')
  expect(withdrawals.map((w) => w.id)).toContain(sent.id)
  const balance = await ex.fetchBalance()
  expect(balance.total['USDT']).toBe(100)
  expect(balance.used['USDT']).toBe(20)
})

test('CCXT Pro binance: watch the order book (kept equal to REST depth by its own procedure), trades and candles', async () => {
  test.setTimeout(60_000)
  const ex = new ccxt.pro.binance({ enableRateLimit: false })
  const api = ex.urls.api as Record<string, unknown>
  for (const [name, url] of Object.entries(api)) {
    if (typeof url === 'string' && url.startsWith('https://')) api[name] = baseURL + new URL(url).pathname
  }
  const ws = api.ws as Record<string, unknown>
  for (const name of Object.keys(ws)) if (typeof ws[name] === 'string') ws[name] = baseURL.replace(/^http/, 'ws') + '/ws'
  // CCXT takes ws:// (not wss://) in Node only once this is loaded.
  await ex.loadHttpProxyAgent()
  try {
    await ex.loadMarkets()
    const book = await ex.watchOrderBook('BTC/USDT')
    expect(book.bids.length + book.asks.length).toBeGreaterThan(0)
    expect(book.nonce).toBeGreaterThan(0)
    // The market maker trades BTC/USDT in --dev: trades and candles arrive.
    const trades = await ex.watchTrades('BTC/USDT')
    expect(trades.length).toBeGreaterThan(0)
    expect(trades[0].price).toBeGreaterThan(0)
    const candles = await ex.watchOHLCV('BTC/USDT', '1m')
    expect(candles.length).toBeGreaterThan(0)
    const again = await ex.watchOrderBook('BTC/USDT')
    expect(again.nonce).toBeGreaterThanOrEqual(book.nonce ?? 0)
  } finally {
    await ex.close()
  }
})

/** CCXT Pro's binance class with every REST and WebSocket URL moved to the server under test. */
async function proClient(key: { apiKey: string; secretKey: string }) {
  const ex = new ccxt.pro.binance({ apiKey: key.apiKey, secret: key.secretKey, enableRateLimit: false })
  const api = ex.urls.api as Record<string, unknown>
  for (const [name, url] of Object.entries(api)) {
    if (typeof url === 'string' && url.startsWith('https://')) api[name] = baseURL + new URL(url).pathname
  }
  const ws = api.ws as Record<string, unknown>
  const wsBase = baseURL.replace(/^http/, 'ws')
  for (const name of Object.keys(ws)) if (typeof ws[name] === 'string') ws[name] = wsBase + '/ws'
  ws['ws-api'] = { spot: wsBase + '/ws-api/v3' }
  await ex.loadHttpProxyAgent()
  return ex
}

test('CCXT Pro binance: own orders, fills and balance watched over the WebSocket API, orders placed and cancelled over it', async ({
  request,
}) => {
  test.setTimeout(90_000)
  const seller = await proClient(await trader(request, 'ccxtpro-s', 'BTC', 'BTC', '0.05', 2))
  try {
    await seller.loadMarkets()
    const last = (await seller.fetchTicker('BTC/USDT')).last ?? 0
    // Subscribed first (watchOrders resolves on the next update), then an
    // order far above the market placed over the WebSocket API.
    const watched = seller.watchOrders('BTC/USDT')
    const price = Number(seller.priceToPrecision('BTC/USDT', last * 1.5))
    const placed = await seller.createOrderWs('BTC/USDT', 'limit', 'sell', 0.01, price)
    expect(placed.id).toBeTruthy()
    const updates = await watched
    const seen = updates.find((o) => o.id === placed.id)
    expect(seen?.status).toBe('open')
    expect(seen?.amount).toBe(0.01)
    expect(seen?.price).toBe(price)

    // Cancelled over the WebSocket API; the stream tells it.
    const cancelledUpdate = seller.watchOrders('BTC/USDT')
    const cancelled = await seller.cancelOrderWs(placed.id, 'BTC/USDT')
    expect(cancelled.status).toBe('canceled')
    const after = await cancelledUpdate
    expect(after.filter((o) => o.id === placed.id).pop()?.status).toBe('canceled')

    // A sell at the best bid takes it (the market maker's bid): the seller
    // sees the fill, with the trade id REST's myTrades gives, and the balance.
    const fills = seller.watchMyTrades('BTC/USDT')
    const balance = seller.watchBalance()
    const bid = (await seller.fetchOrderBook('BTC/USDT', 5)).bids[0][0] ?? 0
    const taken = await seller.createOrderWs('BTC/USDT', 'limit', 'sell', 0.001, bid, { timeInForce: 'IOC' })
    const trades = await fills
    const fill = trades.find((t) => t.order === taken.id)
    expect(fill?.price).toBe(bid)
    expect(fill?.amount).toBeGreaterThan(0)
    expect(fill?.takerOrMaker).toBe('taker')
    expect(Number(fill?.id)).toBeGreaterThan(0)
    const mine = await seller.fetchMyTrades('BTC/USDT')
    expect(mine.map((t) => t.id)).toContain(fill?.id)
    const bal = await balance
    expect(Object.keys(bal.total).length).toBeGreaterThan(0)
  } finally {
    await seller.close()
  }
})
