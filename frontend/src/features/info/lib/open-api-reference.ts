/**
 * The facts of the Open API page that stay the same in every language:
 * endpoints, access types, weights, order types, statuses, Binance's error
 * messages and the examples (README, "Open API: API keys and the
 * Binance-compatible API"; internal/binance registers the routes).
 */

/** Binance's security types, as the endpoints need them. */
export type Access = 'NONE' | 'MARKET_DATA' | 'USER_DATA' | 'TRADE'
export const ACCESS_TYPES: readonly Access[] = ['NONE', 'MARKET_DATA', 'USER_DATA', 'TRADE']

/** One endpoint: method, path, access and request weight (a range when it depends on the parameters). */
export interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  access: Access
  weight: string
}

/** Endpoint groups of the table. */
export type EndpointGroupId = 'public' | 'signed' | 'wallet' | 'clients'

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
