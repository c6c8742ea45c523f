import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { getBundledTexts } from '@/lib/bundled-texts'
import { translate } from '@/lib/i18n'
import { fetchHistory } from '../api/security-api'
import { HistoryTable } from './history-table'

vi.mock('../api/security-api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/security-api')>()),
  fetchHistory: vi.fn(),
}))

const t = (key: string, vars?: Record<string, string | number>) => translate('security', 'en_US', getBundledTexts('security', 'en-US'), key, vars)

describe('login history', () => {
  it('names the device from its browser and system, keeps the device id for entries without one, and lists cards on a phone', async () => {
    vi.mocked(fetchHistory).mockResolvedValue({
      count: 2,
      list: [
        { time: 1_765_000_000_000, ip: '10.1.2.3', device: 'd-7f3a', deviceName: 'Safari 18 on iOS', action: 'Signed in' },
        { time: 1_764_000_000_000, ip: '10.1.2.4', device: 'd-older', action: 'Signed out' },
      ],
    })
    // jsdom matches no media query: Chakra takes the narrowest breakpoint, a phone.
    renderWithApp(<HistoryTable kind="login" t={t} lan="en_US" />)
    const list = await screen.findByTestId('login-history')
    expect(list.getAttribute('data-layout')).toBe('cards')
    expect(list.textContent).toContain('Safari 18 on iOS')
    expect(list.textContent).toContain('d-older')
    expect(within(list).getAllByText('Signed in').length).toBe(1)
    expect(list.textContent).toContain('10.1.2.3')
  })
})
