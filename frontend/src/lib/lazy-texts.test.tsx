import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { lazyPageTexts } from './lazy-texts'

function files(load = vi.fn()) {
  return {
    '/texts/en-US/demo.json': () => {
      load('en-US')
      return Promise.resolve({ title: 'Hello {name}', only: { en: 'English only' } })
    },
    '/texts/mn-MN/demo.json': () => {
      load('mn-MN')
      return Promise.resolve({ title: 'Сайн уу {name}' })
    },
  }
}

const wrap = (ui: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>
)

describe('lazily loaded page texts', () => {
  it('loads a locale once, then en-US after it, and keeps each apart', async () => {
    const load = vi.fn()
    const texts = lazyPageTexts('demo', files(load))
    await Promise.all([texts.loadFor('mn_MN'), texts.loadFor('mn_MN')])
    expect(texts.bundled('mn-MN')).toEqual({ title: 'Сайн уу {name}' })
    await waitFor(() => expect(texts.bundled('en-US')).toHaveProperty('title', 'Hello {name}'))
    expect(load.mock.calls).toEqual([['mn-MN'], ['en-US']])
  })

  it('gives `t` the active locale, falls back to en-US and re-renders when the texts arrive', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    const texts = lazyPageTexts('demo', files())
    function Page() {
      const { t, ready } = texts.useTexts()
      return (
        <p data-testid="out" data-ready={ready}>
          {t('title', { name: 'Бат' })}|{t('only.en')}|{t('missing')}
        </p>
      )
    }
    render(wrap(<Page />))
    await waitFor(() => expect(screen.getByTestId('out').textContent).toBe('Сайн уу Бат|English only|'))
    expect(screen.getByTestId('out').getAttribute('data-ready')).toBe('true')
  })

  it('lets a failed load be tried again', async () => {
    let fail = true
    const texts = lazyPageTexts('demo', {
      '/texts/en-US/demo.json': () => (fail ? Promise.reject(new Error('offline')) : Promise.resolve({ title: 'Hi' })),
    })
    await expect(texts.load('en-US')).rejects.toThrow('offline')
    fail = false
    await texts.load('en-US')
    expect(texts.bundled('en-US')).toEqual({ title: 'Hi' })
  })
})
