import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { isInfoSlug } from '../lib/info-slugs'
import {
  ENDPOINT_GROUPS,
  ERROR_CODES,
  mirroredEndpoint,
  STREAMS,
  WS_API_METHODS,
  WS_SESSION_METHODS,
} from '../lib/open-api-reference'
import { bundledOpenApiTexts, loadOpenApiTexts } from '../lib/open-api-texts'
import { InfoPage } from './info-page'

const ENDPOINT_COUNT = ENDPOINT_GROUPS.reduce((n, g) => n + g.endpoints.length, 0)

function flatten(texts: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(texts)) {
    if (typeof v === 'string') out[prefix + k] = v
    else Object.assign(out, flatten(v as object, `${prefix}${k}.`))
  }
  return out
}

async function renderApiPage(lan: 'en_US' | 'mn_MN') {
  document.cookie = `lan=${lan}; path=/`
  const result = renderWithApp(<InfoPage slug="api" />, { path: `/${lan}/api` })
  const page = await screen.findByTestId('info-page-api')
  return { ...result, page }
}

describe('Open API page', () => {
  // The app loads these with the page's chunk; both are needed here.
  beforeAll(() => Promise.all([loadOpenApiTexts('en-US'), loadOpenApiTexts('mn-MN')]))

  it('is an information page slug', () => {
    expect(isInfoSlug('api')).toBe(true)
    expect(isInfoSlug('apis')).toBe(false)
  })

  it('has the same text keys in Mongolian and English, the Mongolian written in Cyrillic', () => {
    const en = flatten(bundledOpenApiTexts('en-US'))
    const mn = flatten(bundledOpenApiTexts('mn-MN'))
    expect(Object.keys(en).length).toBeGreaterThan(50)
    expect(Object.keys(mn).sort()).toEqual(Object.keys(en).sort())
    const cyrillic = Object.values(mn).filter((v) => /[\u0400-\u04FF]/.test(v))
    expect(cyrillic.length / Object.keys(mn).length).toBeGreaterThan(0.9)
  })

  it('documents the API in English: sections, endpoint table, error table, key link', async () => {
    const { page } = await renderApiPage('en_US')
    // Role queries are slow on a page this long in jsdom: the headings are read directly.
    expect(page.querySelector('h1')?.textContent).toBe('Open API')
    const h2 = [...page.querySelectorAll('h2')].map((h) => h.textContent)
    for (const name of ['Getting an API key', 'Permissions and IP restriction', 'Base URL', 'Endpoints', 'Signing a request', 'Error codes', 'Examples']) {
      expect(h2).toContain(name)
    }

    const endpoints = screen.getByTestId('open-api-endpoints')
    expect(within(endpoints).getAllByTestId('open-api-endpoint')).toHaveLength(ENDPOINT_COUNT)
    expect(within(endpoints).getByText('Public market data')).toBeTruthy()
    for (const path of ['/api/v3/exchangeInfo', '/api/v3/order/test', '/sapi/v1/capital/withdraw/apply', '/fapi/v1/exchangeInfo']) {
      expect(within(endpoints).getByText(path)).toBeTruthy()
    }
    // POST, GET and DELETE /api/v3/order: three rows.
    expect(within(endpoints).getAllByText('/api/v3/order')).toHaveLength(3)
    // The listen key calls: POST, PUT and DELETE, in their own group.
    const userStream = screen.getByTestId('open-api-endpoints-userStream')
    expect(within(userStream).getAllByText('/api/v3/userDataStream')).toHaveLength(3)
    expect(within(userStream).getAllByTestId('open-api-endpoint').map((r) => r.textContent)).toEqual([
      'POST/api/v3/userDataStreamUSER_STREAM2',
      'PUT/api/v3/userDataStreamUSER_STREAM2',
      'DELETE/api/v3/userDataStreamUSER_STREAM2',
    ])

    const errors = screen.getByTestId('open-api-errors')
    const rows = within(errors).getAllByTestId('open-api-error')
    expect(rows.map((r) => r.querySelector('td')?.textContent)).toEqual(ERROR_CODES.map((e) => String(e.code)))
    expect(within(errors).getByText('Invalid API-key, IP, or permissions for action.')).toBeTruthy()
    expect(within(errors).getByText('Timestamp for this request is outside of the recvWindow.')).toBeTruthy()
    expect(within(errors).getByText('This listenKey does not exist.')).toBeTruthy()

    // Signing facts and limits.
    expect(page.textContent).toContain('X-MBX-APIKEY')
    expect(page.textContent).toContain('The default is 5000 and the maximum 60000')
    expect(page.textContent).toContain('X-MBX-USED-WEIGHT-1M')
    expect(page.textContent).toContain('6000 per minute')
    expect(page.textContent).toContain('X-MBX-ORDER-COUNT-10S')
    expect(page.textContent).toContain('100 new orders per 10 seconds and 200000 per UTC day')
    expect(within(errors).getByText('Too many new orders; current limit is 100 orders per 10 SECOND.')).toBeTruthy()

    expect(screen.getByTestId('open-api-keys-link').getAttribute('href')).toBe('/profile/api')
    const toc = screen.getByTestId('open-api-toc')
    expect(within(toc).getByText('Signing a request').closest('a')?.getAttribute('href')).toBe('#signing')
    expect(document.getElementById('signing')).not.toBeNull()
  })

  it('lists WebSocket API methods that mirror endpoints of the table', () => {
    for (const m of WS_API_METHODS) expect(mirroredEndpoint(m), m.name).toBeDefined()
    const names = [...WS_API_METHODS, ...WS_SESSION_METHODS].map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('documents the WebSocket streams, the WebSocket API and the user data streams in English', async () => {
    const { page } = await renderApiPage('en_US')
    const ws = window.location.origin.replace(/^http/, 'ws')
    expect(ws).toMatch(/^wss?:\/\//)
    const h2 = [...page.querySelectorAll('h2')].map((h) => h.textContent)
    expect(h2).toEqual(expect.arrayContaining(['WebSocket market streams', 'WebSocket API', 'User data streams']))
    // Section headings come in page order, each followed by its h3s.
    expect(h2.indexOf('WebSocket market streams')).toBeLessThan(h2.indexOf('WebSocket API'))
    expect(h2.indexOf('WebSocket API')).toBeLessThan(h2.indexOf('User data streams'))
    const h3 = [...page.querySelectorAll('#websocket-api h3')].map((h) => h.textContent)
    expect(h3).toEqual(['Requests and answers', 'Methods', 'Session and user data methods', 'Signing on the WebSocket API', 'session.logon'])

    // URLs built from the page's origin.
    expect(screen.getByTestId('open-api-ws-url').querySelector('pre')?.textContent).toBe(ws)
    expect(screen.getByTestId('open-api-ws-api-url').querySelector('pre')?.textContent).toBe(`${ws}/ws-api/v3`)
    const streamsSection = document.getElementById('websocket-streams')!
    expect(streamsSection.textContent).toContain(`${ws}/stream?streams=<stream1>/<stream2>`)
    expect(streamsSection.textContent).toContain('1m, 5m, 15m, 30m, 1h, 4h, 1d, 1w, 1M')
    expect(streamsSection.textContent).toContain('at most 1024 streams')

    // Stream names, frames and the local order book.
    const streams = screen.getByTestId('open-api-streams')
    expect(within(streams).getAllByTestId('open-api-stream')).toHaveLength(STREAMS.length)
    expect(within(streams).getByText('<symbol>@depth[@100ms]')).toBeTruthy()
    expect(within(streams).getByText('!miniTicker@arr')).toBeTruthy()
    expect(streams.querySelector('caption')?.textContent).toBe('Market streams')
    const frames = screen.getByTestId('open-api-stream-frames')
    expect(within(frames).getByText('{"method":"LIST_SUBSCRIPTIONS","id":3}')).toBeTruthy()
    expect(streamsSection.textContent).toContain('GET /api/v3/depth?symbol=BTCUSDT&limit=200')

    // The methods: each with the REST endpoint it mirrors and its weight.
    const methods = screen.getByTestId('open-api-ws-api-methods')
    expect(within(methods).getAllByTestId('open-api-ws-api-method')).toHaveLength(WS_API_METHODS.length)
    const place = within(methods).getByText('order.place').closest('tr')!
    expect(place.textContent).toBe('order.placePOST/api/v3/order1')
    const depth = within(methods).getByText('depth').closest('tr')!
    expect(depth.textContent).toBe('depthGET/api/v3/depth5–250')
    const session = screen.getByTestId('open-api-ws-api-session')
    expect(within(session).getAllByTestId('open-api-ws-api-method')).toHaveLength(WS_SESSION_METHODS.length)
    expect(within(session).getByText('userDataStream.subscribe.signature')).toBeTruthy()
    const apiSection = document.getElementById('websocket-api')!
    expect(apiSection.textContent).toContain('Only Ed25519 keys can log on')
    expect(apiSection.textContent).toContain('sorted by name')
    expect(apiSection.textContent).toContain(`${ws}/ws-api/v3?returnRateLimits=false`)
    expect(screen.getByTestId('open-api-example-ws-api').textContent).toContain(`new WebSocket('${ws}/ws-api/v3')`)

    // User data: listen keys, events, executionReport and CCXT Pro.
    const userData = document.getElementById('user-data')!
    expect(userData.textContent).toContain(`${ws}/ws/<listenKey>`)
    expect(userData.textContent).toContain('A listen key lives 60 minutes')
    const events = screen.getByTestId('open-api-user-events')
    for (const e of ['executionReport', 'outboundAccountPosition', 'eventStreamTerminated', 'listenKeyExpired']) {
      expect(within(events).getByText(e)).toBeTruthy()
    }
    expect(within(screen.getByTestId('open-api-execution-types')).getByText('TRADE_PREVENTION')).toBeTruthy()
    expect(within(screen.getByTestId('open-api-execution-fields')).getByText('N')).toBeTruthy()
    const pro = screen.getByTestId('open-api-example-ccxt-pro').textContent
    expect(pro).toContain("api.ws['ws-api'] = { spot: '" + ws + "/ws-api/v3' }")
    expect(pro).toContain(`api.ws[name] = '${ws}/ws'`)
    expect(pro).toContain("await ex.watchOrders('BTC/USDT')")

    // Every new section is in the table of contents.
    const toc = screen.getByTestId('open-api-toc')
    for (const [name, id] of [
      ['WebSocket market streams', 'websocket-streams'],
      ['WebSocket API', 'websocket-api'],
      ['User data streams', 'user-data'],
    ]) {
      expect(within(toc).getByText(name).closest('a')?.getAttribute('href')).toBe(`#${id}`)
      expect(document.getElementById(id)).not.toBeNull()
    }
  })

  it('documents the API in Mongolian, keeping paths and Binance messages as they are', async () => {
    const { page } = await renderApiPage('mn_MN')
    expect(page.querySelector('h1')?.textContent).toBe('Нээлттэй API')
    expect([...page.querySelectorAll('h2')].map((h) => h.textContent)).toContain('Хүсэлтэд гарын үсэг зурах')

    const endpoints = screen.getByTestId('open-api-endpoints')
    expect(within(endpoints).getAllByTestId('open-api-endpoint')).toHaveLength(ENDPOINT_COUNT)
    expect([...endpoints.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Арга', 'Зам', 'Хандалт', 'Жин'])
    expect(within(endpoints).getByText('/api/v3/myTrades')).toBeTruthy()
    expect(screen.getByTestId('open-api-endpoints-userStream').querySelector('th')?.textContent).toBe(
      'Хэрэглэгчийн өгөгдлийн урсгал (listen key: USER_STREAM)',
    )
    expect([...page.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['WebSocket зах зээлийн урсгал', 'WebSocket API', 'Хэрэглэгчийн өгөгдлийн урсгал']),
    )
    expect(within(screen.getByTestId('open-api-ws-api-methods')).getByText('order.cancel')).toBeTruthy()

    const errors = screen.getByTestId('open-api-errors')
    expect(within(errors).getAllByTestId('open-api-error')).toHaveLength(ERROR_CODES.length)
    expect(within(errors).getByText('Invalid symbol.')).toBeTruthy()
    expect(within(errors).getByText('Duplicate order sent.')).toBeTruthy()
    expect(within(errors).getByText('Асуусан захиалга байхгүй.')).toBeTruthy()
    expect(screen.getByTestId('open-api-example-curl').textContent).toContain('X-MBX-APIKEY: $KEY')
  })

  it('copies the base URL and both examples, with this site as their origin', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await renderApiPage('en_US')
    const origin = window.location.origin

    fireEvent.click(screen.getByTestId('open-api-base-url-copy'))
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(origin))

    const curlCopy = screen.getByTestId('open-api-example-curl-copy')
    expect(curlCopy.getAttribute('aria-label')).toBe('Copy: curl (HMAC)')
    fireEvent.click(curlCopy)
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2))
    const curl = (writeText.mock.calls[1] as unknown as [string])[0]
    expect(curl).toContain('openssl dgst -sha256 -hmac "$SECRET"')
    expect(curl).toContain(`-d "$q&signature=$sig" ${origin}/api/v3/order`)
    await waitFor(() => expect(curlCopy.textContent).toBe('Copied'))

    fireEvent.click(screen.getByTestId('open-api-tab-ccxt'))
    fireEvent.click(screen.getByTestId('open-api-example-ccxt-copy'))
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(3))
    const ccxt = (writeText.mock.calls[2] as unknown as [string])[0]
    expect(ccxt).toContain('new ccxt.binance({ apiKey, secret })')
    expect(ccxt).toContain(`ex.urls.api[name] = '${origin}' + new URL(url).pathname`)
    expect(ccxt).toContain("await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000)")
  })
})
