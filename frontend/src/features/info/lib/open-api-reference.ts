/**
 * The facts of the Open API page that stay the same in every language:
 * endpoints, access types, weights, order types, statuses, Binance's error
 * messages, the WebSocket streams, frames and methods, the user data
 * events and the examples (README, "Open API: API keys and the
 * Binance-compatible API"; internal/binance registers the routes and
 * serves the WebSockets: ws_names.go, ws_frames.go, wsapi.go, userdata.go).
 */

/** Binance's security types, as the endpoints need them. */
export type Access = 'NONE' | 'MARKET_DATA' | 'USER_STREAM' | 'USER_DATA' | 'TRADE'
export const ACCESS_TYPES: readonly Access[] = ['NONE', 'MARKET_DATA', 'USER_STREAM', 'USER_DATA', 'TRADE']

/** One endpoint: method, path, access and request weight (a range when it depends on the parameters). */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  access: Access
  weight: string
}

/** Endpoint groups of the table. */
export type EndpointGroupId = 'public' | 'signed' | 'userStream' | 'wallet' | 'clients'

export const ENDPOINT_GROUPS: readonly { id: EndpointGroupId; endpoints: readonly Endpoint[] }[] = [
  {
    id: 'public',
    endpoints: [
      { method: 'GET', path: '/api/v3/ping', access: 'NONE', weight: '1' },
      { method: 'GET', path: '/api/v3/time', access: 'NONE', weight: '1' },
      { method: 'GET', path: '/api/v3/exchangeInfo', access: 'NONE', weight: '20' },
      { method: 'GET', path: '/api/v3/depth', access: 'NONE', weight: '5–250' },
      { method: 'GET', path: '/api/v3/trades', access: 'NONE', weight: '25' },
      { method: 'GET', path: '/api/v3/historicalTrades', access: 'NONE', weight: '25' },
      { method: 'GET', path: '/api/v3/aggTrades', access: 'NONE', weight: '4' },
      { method: 'GET', path: '/api/v3/klines', access: 'NONE', weight: '2' },
      { method: 'GET', path: '/api/v3/uiKlines', access: 'NONE', weight: '2' },
      { method: 'GET', path: '/api/v3/avgPrice', access: 'NONE', weight: '2' },
      { method: 'GET', path: '/api/v3/ticker/24hr', access: 'NONE', weight: '2–80' },
      { method: 'GET', path: '/api/v3/ticker/price', access: 'NONE', weight: '2–4' },
      { method: 'GET', path: '/api/v3/ticker/bookTicker', access: 'NONE', weight: '2–4' },
      { method: 'GET', path: '/api/v3/ticker', access: 'NONE', weight: '4–200' },
    ],
  },
  {
    id: 'signed',
    endpoints: [
      { method: 'GET', path: '/api/v3/account', access: 'USER_DATA', weight: '20' },
      { method: 'GET', path: '/api/v3/account/commission', access: 'USER_DATA', weight: '20' },
      { method: 'POST', path: '/api/v3/order', access: 'TRADE', weight: '1' },
      { method: 'POST', path: '/api/v3/order/test', access: 'TRADE', weight: '1' },
      { method: 'GET', path: '/api/v3/order', access: 'USER_DATA', weight: '4' },
      { method: 'DELETE', path: '/api/v3/order', access: 'TRADE', weight: '1' },
      { method: 'GET', path: '/api/v3/openOrders', access: 'USER_DATA', weight: '6–80' },
      { method: 'DELETE', path: '/api/v3/openOrders', access: 'TRADE', weight: '1' },
      { method: 'GET', path: '/api/v3/allOrders', access: 'USER_DATA', weight: '20' },
      { method: 'GET', path: '/api/v3/myTrades', access: 'USER_DATA', weight: '20' },
    ],
  },
  {
    id: 'userStream',
    endpoints: [
      { method: 'POST', path: '/api/v3/userDataStream', access: 'USER_STREAM', weight: '2' },
      { method: 'PUT', path: '/api/v3/userDataStream', access: 'USER_STREAM', weight: '2' },
      { method: 'DELETE', path: '/api/v3/userDataStream', access: 'USER_STREAM', weight: '2' },
    ],
  },
  {
    id: 'wallet',
    endpoints: [
      { method: 'GET', path: '/sapi/v1/capital/config/getall', access: 'USER_DATA', weight: '10' },
      { method: 'GET', path: '/sapi/v1/capital/deposit/address', access: 'USER_DATA', weight: '10' },
      { method: 'GET', path: '/sapi/v1/capital/deposit/hisrec', access: 'USER_DATA', weight: '1' },
      { method: 'POST', path: '/sapi/v1/capital/withdraw/apply', access: 'USER_DATA', weight: '1' },
      { method: 'GET', path: '/sapi/v1/capital/withdraw/history', access: 'USER_DATA', weight: '1' },
    ],
  },
  {
    id: 'clients',
    endpoints: [
      { method: 'GET', path: '/fapi/v1/exchangeInfo', access: 'NONE', weight: '1' },
      { method: 'GET', path: '/dapi/v1/exchangeInfo', access: 'NONE', weight: '1' },
      { method: 'GET', path: '/sapi/v1/margin/allPairs', access: 'MARKET_DATA', weight: '1' },
      { method: 'GET', path: '/sapi/v1/margin/isolated/allPairs', access: 'MARKET_DATA', weight: '10' },
    ],
  },
]

/** Permissions of a key, in the order the key form shows them. */
export const PERMISSIONS = ['read', 'spot', 'margin', 'futures', 'withdraw'] as const

/** Order types with their parameters (timeInForce values in parentheses). */
export const ORDER_TYPES: readonly { type: string; params: readonly string[] }[] = [
  { type: 'LIMIT', params: ['timeInForce (GTC, IOC, FOK)', 'quantity', 'price'] },
  { type: 'MARKET', params: ['quantity', 'quoteOrderQty'] },
  { type: 'LIMIT_MAKER', params: ['quantity', 'price'] },
  { type: 'STOP_LOSS_LIMIT', params: ['timeInForce (GTC)', 'quantity', 'price', 'stopPrice'] },
]

export const ORDER_STATUSES = [
  'NEW',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'EXPIRED',
  'EXPIRED_IN_MATCH',
  'REJECTED',
] as const

/** Error codes with their HTTP statuses and Binance's messages (English in every language). */
export const ERROR_CODES: readonly { code: number; http: string; messages: readonly string[] }[] = [
  {
    code: -1003,
    http: '429, 418',
    messages: [
      'Too much request weight used; current limit is 6000 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
      'Way too much request weight used; IP banned until %s. Please use WebSocket Streams for live updates to avoid bans.',
    ],
  },
  {
    code: -1013,
    http: '400',
    messages: ['Filter failure: PRICE_FILTER', 'Filter failure: LOT_SIZE', 'Filter failure: NOTIONAL'],
  },
  { code: -1014, http: '400', messages: ['Unsupported order combination.'] },
  {
    code: -1015,
    http: '429',
    messages: [
      'Too many new orders; current limit is 100 orders per 10 SECOND.',
      'Too many new orders; current limit is 200000 orders per 1 DAY.',
    ],
  },
  {
    code: -1021,
    http: '400',
    messages: [
      'Timestamp for this request is outside of the recvWindow.',
      "Timestamp for this request was 1000ms ahead of the server's time.",
    ],
  },
  { code: -1022, http: '400', messages: ['Signature for this request is not valid.'] },
  { code: -1102, http: '400', messages: ["Mandatory parameter '%s' was not sent, was empty/null, or malformed."] },
  { code: -1121, http: '400', messages: ['Invalid symbol.'] },
  { code: -1125, http: '400', messages: ['This listenKey does not exist.'] },
  {
    code: -2010,
    http: '400',
    messages: [
      'Account has insufficient balance for requested action.',
      'Order would immediately match and take.',
      'Duplicate order sent.',
    ],
  },
  { code: -2011, http: '400', messages: ['Unknown order sent.'] },
  { code: -2013, http: '400', messages: ['Order does not exist.'] },
  { code: -2014, http: '401', messages: ['API-key format invalid.'] },
  { code: -2015, http: '401', messages: ['Invalid API-key, IP, or permissions for action.'] },
]

/** curl example: a signed LIMIT buy with openssl's HMAC-SHA256 (README). */
export function curlExample(origin: string): string {
  return [
    'q="symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&timestamp=$(date +%s000)"',
    `sig=$(printf %s "$q" | openssl dgst -sha256 -hmac "$SECRET" | cut -d' ' -f2)`,
    `curl -H "X-MBX-APIKEY: $KEY" -d "$q&signature=$sig" ${origin}/api/v3/order`,
  ].join('\n')
}

/** CCXT example: the binance class with its URLs pointed at this site (README, e2e/ccxt.e2e.ts). */
export function ccxtExample(origin: string): string {
  return [
    "import ccxt from 'ccxt'",
    '',
    'const ex = new ccxt.binance({ apiKey, secret })',
    'for (const [name, url] of Object.entries(ex.urls.api))',
    `  if (typeof url === 'string') ex.urls.api[name] = '${origin}' + new URL(url).pathname`,
    'await ex.loadMarkets()',
    "await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000)",
  ].join('\n')
}

/** The WebSocket origin of the page's origin: https → wss, http → ws. */
export function wsOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws')
}

/** Where the WebSocket API is served. */
export const WS_API_PATH = '/ws-api/v3'

/** How many streams one connection may listen to (binance.MaxStreamsPerConn). */
export const MAX_STREAMS_PER_CONNECTION = 1024

/** Kline intervals served (binance.IntervalNames). */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const

/** Market streams (ws_names.go): text id, name pattern and the shape of the payload. */
export const STREAMS: readonly { id: string; name: string; payload: string }[] = [
  { id: 'trade', name: '<symbol>@trade', payload: '"e":"trade"' },
  { id: 'aggTrade', name: '<symbol>@aggTrade', payload: '"e":"aggTrade"' },
  { id: 'depth', name: '<symbol>@depth[@100ms]', payload: '"e":"depthUpdate"' },
  { id: 'partialDepth', name: '<symbol>@depth<5|10|20>[@100ms]', payload: '{"lastUpdateId","bids","asks"}' },
  { id: 'kline', name: '<symbol>@kline_<interval>', payload: '"e":"kline"' },
  { id: 'ticker', name: '<symbol>@ticker', payload: '"e":"24hrTicker"' },
  { id: 'miniTicker', name: '<symbol>@miniTicker', payload: '"e":"24hrMiniTicker"' },
  { id: 'bookTicker', name: '<symbol>@bookTicker', payload: '{"u","s","b","B","a","A"}' },
  { id: 'allTickers', name: '!ticker@arr', payload: '[{"e":"24hrTicker"},…]' },
  { id: 'allMini', name: '!miniTicker@arr', payload: '[{"e":"24hrMiniTicker"},…]' },
]

/** Binance's subscription frames with their answers (ws_frames.go). */
export const STREAM_FRAMES: readonly { frame: string; answer: string }[] = [
  {
    frame: '{"method":"SUBSCRIBE","params":["btcusdt@trade","btcusdt@depth@100ms"],"id":1}',
    answer: '{"result":null,"id":1}',
  },
  { frame: '{"method":"UNSUBSCRIBE","params":["btcusdt@depth@100ms"],"id":2}', answer: '{"result":null,"id":2}' },
  { frame: '{"method":"LIST_SUBSCRIPTIONS","id":3}', answer: '{"result":["btcusdt@trade"],"id":3}' },
  { frame: '{"method":"SET_PROPERTY","params":["combined",true],"id":4}', answer: '{"result":null,"id":4}' },
  { frame: '{"method":"GET_PROPERTY","params":["combined"],"id":5}', answer: '{"result":true,"id":5}' },
]

const RATE_LIMITS_EXAMPLE = '"rateLimits":[{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE","intervalNum":1,"limit":6000,"count":'

/** A WebSocket API request with its answer, and one refused (wsapi.go). */
export const WS_API_EXAMPLES: readonly { request: string; answer: string }[] = [
  {
    request: '{"id":"p1","method":"ticker.price","params":{"symbol":"BTCUSDT"}}',
    answer: `{"id":"p1","status":200,"result":{"symbol":"BTCUSDT","price":"50000.00"},${RATE_LIMITS_EXAMPLE}4}]}`,
  },
  {
    request: '{"id":"p2","method":"ticker.price","params":{"symbol":"NOSUCH"}}',
    answer: `{"id":"p2","status":400,"error":{"code":-1121,"msg":"Invalid symbol."},${RATE_LIMITS_EXAMPLE}6}]}`,
  },
]

/** WebSocket API methods that run a REST endpoint (wsapi.go apiMethods), and the endpoint. */
export const WS_API_METHODS: readonly { name: string; method: Endpoint['method']; path: string }[] = [
  { name: 'ping', method: 'GET', path: '/api/v3/ping' },
  { name: 'time', method: 'GET', path: '/api/v3/time' },
  { name: 'exchangeInfo', method: 'GET', path: '/api/v3/exchangeInfo' },
  { name: 'depth', method: 'GET', path: '/api/v3/depth' },
  { name: 'trades.recent', method: 'GET', path: '/api/v3/trades' },
  { name: 'trades.historical', method: 'GET', path: '/api/v3/historicalTrades' },
  { name: 'trades.aggregate', method: 'GET', path: '/api/v3/aggTrades' },
  { name: 'klines', method: 'GET', path: '/api/v3/klines' },
  { name: 'uiKlines', method: 'GET', path: '/api/v3/uiKlines' },
  { name: 'avgPrice', method: 'GET', path: '/api/v3/avgPrice' },
  { name: 'ticker.24hr', method: 'GET', path: '/api/v3/ticker/24hr' },
  { name: 'ticker.price', method: 'GET', path: '/api/v3/ticker/price' },
  { name: 'ticker.book', method: 'GET', path: '/api/v3/ticker/bookTicker' },
  { name: 'ticker', method: 'GET', path: '/api/v3/ticker' },
  { name: 'order.place', method: 'POST', path: '/api/v3/order' },
  { name: 'order.test', method: 'POST', path: '/api/v3/order/test' },
  { name: 'order.status', method: 'GET', path: '/api/v3/order' },
  { name: 'order.cancel', method: 'DELETE', path: '/api/v3/order' },
  { name: 'openOrders.status', method: 'GET', path: '/api/v3/openOrders' },
  { name: 'openOrders.cancelAll', method: 'DELETE', path: '/api/v3/openOrders' },
  { name: 'allOrders', method: 'GET', path: '/api/v3/allOrders' },
  { name: 'myTrades', method: 'GET', path: '/api/v3/myTrades' },
  { name: 'account.status', method: 'GET', path: '/api/v3/account' },
  { name: 'account.commission', method: 'GET', path: '/api/v3/account/commission' },
]

/** The REST endpoint a WebSocket API method mirrors, from the endpoint table. */
export function mirroredEndpoint(m: { method: Endpoint['method']; path: string }): Endpoint | undefined {
  for (const g of ENDPOINT_GROUPS) {
    const e = g.endpoints.find((x) => x.method === m.method && x.path === m.path)
    if (e) return e
  }
  return undefined
}

/** The WebSocket API's session and user data methods (text id), each of weight 2. */
export const WS_SESSION_METHODS: readonly { name: string; id: string }[] = [
  { name: 'session.logon', id: 'logon' },
  { name: 'session.status', id: 'status' },
  { name: 'session.logout', id: 'logout' },
  { name: 'session.subscriptions', id: 'subscriptions' },
  { name: 'userDataStream.subscribe', id: 'subscribe' },
  { name: 'userDataStream.subscribe.signature', id: 'subscribeSignature' },
  { name: 'userDataStream.unsubscribe', id: 'unsubscribe' },
]
export const WS_SESSION_WEIGHT = '2'

/** Most requests of one WebSocket API connection served at once. */
export const WS_API_IN_FLIGHT = 32

/** User data events (userdata.go, listenkey.go). */
export const USER_EVENTS = [
  'executionReport',
  'outboundAccountPosition',
  'eventStreamTerminated',
  'listenKeyExpired',
] as const

/** executionReport's execution types (x). */
export const EXECUTION_TYPES = ['NEW', 'TRADE', 'CANCELED', 'EXPIRED', 'TRADE_PREVENTION', 'REPLACED', 'REJECTED'] as const

/** executionReport fields the page explains: Binance's short name and the text id. */
export const EXECUTION_FIELDS: readonly { field: string; id: string }[] = [
  { field: 'x', id: 'execType' },
  { field: 'X', id: 'status' },
  { field: 'i', id: 'orderId' },
  { field: 'c', id: 'clientOrderId' },
  { field: 'l', id: 'lastQty' },
  { field: 'z', id: 'cumQty' },
  { field: 'L', id: 'lastPrice' },
  { field: 'Y', id: 'lastQuote' },
  { field: 'Z', id: 'cumQuote' },
  { field: 'n', id: 'commission' },
  { field: 'N', id: 'commissionAsset' },
  { field: 't', id: 'tradeId' },
  { field: 'm', id: 'maker' },
  { field: 'T', id: 'time' },
  { field: 'r', id: 'reject' },
]

/** An executionReport of a fill, as the WebSocket API delivers it. */
export const EXECUTION_REPORT_EXAMPLE = [
  '{"subscriptionId":0,"event":{',
  '  "e":"executionReport","E":1767225600123,"s":"BTCUSDT","c":"my-order-1","S":"BUY","o":"LIMIT","f":"GTC",',
  '  "q":"0.00100000","p":"50000.00000000","P":"0.00000000","F":"0.00000000","g":-1,"C":"",',
  '  "x":"TRADE","X":"FILLED","r":"NONE","i":42,"l":"0.00100000","z":"0.00100000","L":"50000.00000000",',
  '  "n":"0.00000100","N":"BTC","T":1767225600120,"t":1234,"I":0,"w":false,"m":false,"M":false,',
  '  "O":1767225590000,"Z":"50.00000000","Y":"50.00000000","Q":"0.00000000","W":1767225590000,"V":"EXPIRE_TAKER"',
  '}}',
].join('\n')

/** Node.js example: an order placed on the WebSocket API, signed with HMAC-SHA256. */
export function wsApiExample(origin: string): string {
  return [
    "import crypto from 'node:crypto'",
    '',
    'const params = {',
    "  symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC',",
    "  quantity: '0.001', price: '50000', apiKey: KEY, timestamp: Date.now(),",
    '}',
    "const text = Object.keys(params).sort().map((k) => k + '=' + params[k]).join('&')",
    "params.signature = crypto.createHmac('sha256', SECRET).update(text).digest('hex')",
    '',
    `const ws = new WebSocket('${wsOrigin(origin)}${WS_API_PATH}')`,
    "ws.onopen = () => ws.send(JSON.stringify({ id: 'order-1', method: 'order.place', params }))",
    'ws.onmessage = (msg) => console.log(msg.data)',
  ].join('\n')
}

/**
 * CCXT Pro example: the binance class with its REST URLs, its stream URLs
 * and its WebSocket API URL pointed at this site, watching the account's
 * orders (e2e/ccxt.e2e.ts, proClient). Node.js takes ws:// URLs only once
 * loadHttpProxyAgent has run; wss:// needs nothing.
 */
export function ccxtProExample(origin: string): string {
  const ws = wsOrigin(origin)
  return [
    "import ccxt from 'ccxt'",
    '',
    'const ex = new ccxt.pro.binance({ apiKey, secret })',
    'const api = ex.urls.api',
    'for (const [name, url] of Object.entries(api))',
    `  if (typeof url === 'string') api[name] = '${origin}' + new URL(url).pathname`,
    'for (const name of Object.keys(api.ws))',
    `  if (typeof api.ws[name] === 'string') api.ws[name] = '${ws}/ws'`,
    `api.ws['ws-api'] = { spot: '${ws}${WS_API_PATH}' }`,
    ...(ws.startsWith('ws://') ? ['await ex.loadHttpProxyAgent() // ws:// in Node.js'] : []),
    'while (true) {',
    "  const orders = await ex.watchOrders('BTC/USDT')",
    '  console.log(orders)',
    '}',
  ].join('\n')
}
