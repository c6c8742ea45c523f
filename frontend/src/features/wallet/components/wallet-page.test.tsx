import { fireEvent, screen } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { WalletPage } from './wallet-page'

// The views' data never arrives: these tests are about the page's own header and tabs.
const api = vi.hoisted(() => {
  const pending = () => new Promise<never>(() => {})
  return { getRates: vi.fn(pending), getOverview: vi.fn(pending), getFuturesStats: vi.fn(pending) }
})
vi.mock('../api/wallet-api', async (orig) => ({ ...(await orig<typeof import('../api/wallet-api')>()), ...api }))

function renderPage() {
  return renderWithApp(<WalletPage search={{ view: 'overview' }} onSearch={() => {}} />)
}

describe('WalletPage', () => {
  beforeEach(() => {
    document.cookie = 'lan=mn_MN; path=/'
  })

  it('phones: the three actions put the icon above the label, so "Шилжүүлэх" fits a third of 390 px', async () => {
    renderPage()
    // jsdom applies the base (phone) styles; the sm-and-up row layout lives in a media query.
    for (const id of ['open-deposit', 'open-withdraw', 'open-transfer']) {
      const style = getComputedStyle(await screen.findByTestId(id))
      expect(style.flexDirection).toBe('column')
      expect(style.height).toBe('auto')
      // 0.25rem a side instead of the small button's 0.875rem.
      expect(style.paddingInline).toBe('var(--chakra-spacing-1)')
      expect(style.minWidth).toBe('0')
    }
    expect(screen.getByTestId('open-transfer').textContent).toBe('Шилжүүлэх')
  })

  it('the scrolling tab row leaves room for a focused tab ring (the scroll box clips what overflows it)', async () => {
    renderPage()
    const scroll = await screen.findByTestId('wallet-tabs-scroll')
    const style = getComputedStyle(scroll)
    expect(style.overflowX).toBe('auto')
    expect(style.padding).toBe('var(--chakra-spacing-1)')
    // Pulled back by as much, so the tabs do not move.
    expect(style.margin).toBe('calc(var(--chakra-spacing-1) * -1)')
  })

  it('the balance toggle keeps its name and says with aria-pressed whether balances are hidden', async () => {
    document.cookie = 'lan=en_US; path=/'
    renderPage()
    const toggle = await screen.findByTestId('balance-hide')
    expect(toggle.getAttribute('aria-label')).toBe('Hide balances')
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-label')).toBe('Hide balances')
    expect(toggle.getAttribute('aria-pressed')).toBe('true')
    expect(document.cookie).toContain('balance-hide=1')
  })
})
