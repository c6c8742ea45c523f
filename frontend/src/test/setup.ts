import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { loadBundledTexts } from '@/lib/bundled-texts'

// The app loads the active language's bundled texts before its first
// render; tests render components directly, with both languages loaded.
await Promise.all([loadBundledTexts('en-US'), loadBundledTexts('mn-MN')])

// findBy*/waitFor wait up to 10 s: a Chakra tree renders slowly in jsdom on
// a busy 2-core machine, and a 1 s default turns that into false failures.
configure({ asyncUtilTimeout: 10_000 })

afterEach(() => {
  cleanup()
  // Each test starts without cookies or storage left by another.
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
  localStorage.clear()
  sessionStorage.clear()
})

// jsdom lacks a few browser APIs Chakra (Ark/zag) touches.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  ;(window as unknown as { ResizeObserver: typeof ResizeObserverStub }).ResizeObserver = ResizeObserverStub
}
if (!Element.prototype.scrollTo) Element.prototype.scrollTo = () => {}
window.scrollTo = (() => {}) as typeof window.scrollTo

// No test talks to a real server: the content service is unreachable, so
// pages fall back to the bundled texts unless a test passes its own fetch.
vi.stubGlobal(
  'fetch',
  vi.fn(async () => {
    throw new TypeError('network disabled in unit tests')
  }),
)
