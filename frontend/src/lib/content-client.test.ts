import { describe, expect, it, vi } from 'vitest'
import { fetchPageTexts, PAGE_QUERY, toContentLocale, UNKNOWN_TRANSPORT_ERROR } from './content-client'

function fakeFetch(body: unknown, ok = true) {
  return vi.fn(async () => ({ ok, json: async () => body }) as Response)
}

describe('content locale', () => {
  it('replaces the underscore of lan with a hyphen, en-US by default', () => {
    expect(toContentLocale('mn_MN')).toBe('mn-MN')
    expect(toContentLocale('en_US')).toBe('en-US')
    expect(toContentLocale('zh_CN')).toBe('zh-CN')
    expect(toContentLocale(undefined)).toBe('en-US')
    expect(toContentLocale('')).toBe('en-US')
  })
})

describe('fetchPageTexts', () => {
  it('posts the page query with id and locale and returns translations', async () => {
    const f = fakeFetch({ data: { page: { id: 'home', locale: 'mn-MN', translations: { hero: { title: 'Сайн' } } } } })
    const texts = await fetchPageTexts('home', 'mn-MN', { endpoint: 'http://x/graphql', fetchImpl: f })
    expect(texts).toEqual({ hero: { title: 'Сайн' } })
    const [url, init] = f.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('http://x/graphql')
    expect(init.method).toBe('POST')
    expect(JSON.parse(init.body as string)).toEqual({ query: PAGE_QUERY, variables: { id: 'home', locale: 'mn-MN' } })
  })

  it('accepts translations sent as a JSON string', async () => {
    const f = fakeFetch({ data: { page: { id: 'a', locale: 'en-US', translations: '{"k":"v"}' } } })
    await expect(fetchPageTexts('a', 'en-US', { endpoint: '/g', fetchImpl: f })).resolves.toEqual({ k: 'v' })
  })

  it('rejects an empty id without calling the service', async () => {
    const f = fakeFetch({})
    await expect(fetchPageTexts('', 'en-US', { endpoint: '/g', fetchImpl: f })).rejects.toThrow(/empty/)
    await expect(fetchPageTexts('  ', 'en-US', { endpoint: '/g', fetchImpl: f })).rejects.toThrow(/empty/)
    expect(f).not.toHaveBeenCalled()
  })

  it('raises the first server error message', async () => {
    const f = fakeFetch({ errors: [{ message: 'page not found: nope' }, { message: 'second' }], data: null })
    await expect(fetchPageTexts('nope', 'en-US', { endpoint: '/g', fetchImpl: f })).rejects.toThrow('page not found: nope')
  })

  it("raises 'Unknown transport error' when the answer cannot be used", async () => {
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(fetchPageTexts('home', 'en-US', { endpoint: '/g', fetchImpl: failing })).rejects.toThrow(
      UNKNOWN_TRANSPORT_ERROR,
    )
    const notJson = vi.fn(async () => ({ json: async () => Promise.reject(new SyntaxError('x')) }) as unknown as Response)
    await expect(fetchPageTexts('home', 'en-US', { endpoint: '/g', fetchImpl: notJson })).rejects.toThrow(
      UNKNOWN_TRANSPORT_ERROR,
    )
    await expect(fetchPageTexts('home', 'en-US', { endpoint: '/g', fetchImpl: fakeFetch({ data: { page: null } }) })).rejects.toThrow(
      UNKNOWN_TRANSPORT_ERROR,
    )
    await expect(fetchPageTexts('home', 'en-US', { endpoint: '/g', fetchImpl: fakeFetch({ errors: [{}] }) })).rejects.toThrow(
      UNKNOWN_TRANSPORT_ERROR,
    )
    expect(UNKNOWN_TRANSPORT_ERROR).toBe('Unknown transport error')
  })
})
