import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { isInfoSlug } from '../lib/info-slugs'
import { ENDPOINT_GROUPS, ERROR_CODES } from '../lib/open-api-reference'
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

    const errors = screen.getByTestId('open-api-errors')
    const rows = within(errors).getAllByTestId('open-api-error')
    expect(rows.map((r) => r.querySelector('td')?.textContent)).toEqual(ERROR_CODES.map((e) => String(e.code)))
    expect(within(errors).getByText('Invalid API-key, IP, or permissions for action.')).toBeTruthy()
    expect(within(errors).getByText('Timestamp for this request is outside of the recvWindow.')).toBeTruthy()

    // Signing facts and limits.
    expect(page.textContent).toContain('X-MBX-APIKEY')
    expect(page.textContent).toContain('The default is 5000 and the maximum 60000')
    expect(page.textContent).toContain('X-MBX-USED-WEIGHT-1M')
    expect(page.textContent).toContain('6000 per minute')

    expect(screen.getByTestId('open-api-keys-link').getAttribute('href')).toBe('/profile/api')
    const toc = screen.getByTestId('open-api-toc')
    expect(within(toc).getByText('Signing a request').closest('a')?.getAttribute('href')).toBe('#signing')
    expect(document.getElementById('signing')).not.toBeNull()
  })

  it('documents the API in Mongolian, keeping paths and Binance messages as they are', async () => {
    const { page } = await renderApiPage('mn_MN')
    expect(page.querySelector('h1')?.textContent).toBe('Нээлттэй API')
    expect([...page.querySelectorAll('h2')].map((h) => h.textContent)).toContain('Хүсэлтэд гарын үсэг зурах')

    const endpoints = screen.getByTestId('open-api-endpoints')
    expect(within(endpoints).getAllByTestId('open-api-endpoint')).toHaveLength(ENDPOINT_COUNT)
    expect([...endpoints.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Арга', 'Зам', 'Хандалт', 'Жин'])
    expect(within(endpoints).getByText('/api/v3/myTrades')).toBeTruthy()

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
