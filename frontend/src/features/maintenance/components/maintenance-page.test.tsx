import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { MAINTENANCE_AREAS } from '@/components/layout/link-target'
import { getBundledTexts } from '@/lib/bundled-texts'
import { lookup } from '@/lib/i18n'
import { renderWithApp } from '@/test/render'
import { maintenanceArea, MaintenancePage } from './maintenance-page'

function setLanguage(lan: 'en_US' | 'mn_MN') {
  document.cookie = `lan=${lan}; path=/`
}

describe('maintenanceArea', () => {
  it('keeps the futures message without an area or for futures, and the generic one for unknown areas', () => {
    expect(maintenanceArea(undefined)).toBeUndefined()
    expect(maintenanceArea('')).toBeUndefined()
    expect(maintenanceArea('futures')).toBeUndefined()
    expect(maintenanceArea('p2p')).toBe('p2p')
    expect(maintenanceArea('apiKeys')).toBe('apiKeys')
    expect(maintenanceArea('nope')).toBe('page')
    expect(maintenanceArea(42)).toBe('page')
  })
})

describe('maintenance texts', () => {
  it('has its own title and body for every area in both languages', () => {
    for (const locale of ['en-US', 'mn-MN']) {
      const texts = getBundledTexts('maintenance', locale)
      const titles = new Set<string>()
      for (const area of MAINTENANCE_AREAS) {
        const title = lookup(texts, `areas.${area}.title`)
        const body = lookup(texts, `areas.${area}.body`)
        expect(title, `${locale} areas.${area}.title`).toBeTruthy()
        expect(body, `${locale} areas.${area}.body`).toBeTruthy()
        titles.add(title!)
      }
      // Every area says something specific, not one shared sentence.
      expect(titles.size).toBe(MAINTENANCE_AREAS.length)
      for (const key of ['available.title', 'available.wallet', 'available.markets', 'available.deposit', 'fundsSafe', 'back']) {
        expect(lookup(texts, key), `${locale} ${key}`).toBeTruthy()
      }
    }
  })
})

describe('MaintenancePage', () => {
  it.each([
    ['en_US', 'p2p', 'P2P trading is not yet live on Tenger'],
    ['mn_MN', 'p2p', 'P2P арилжаа Тэнгэр дээр хараахан нээгдээгүй байна'],
    ['en_US', 'spot', 'Spot trading is not yet live on Tenger'],
    ['mn_MN', 'spot', 'Спот арилжаа Тэнгэр дээр хараахан нээгдээгүй байна'],
    ['en_US', 'orders', 'Order history is not yet available on Tenger'],
    ['mn_MN', 'staking', 'Стейкинг Тэнгэр дээр хараахан нээгдээгүй байна'],
    ['en_US', 'futuresCompetition', 'The futures competition is not yet open on Tenger'],
    ['mn_MN', 'apiKeys', 'API түлхүүр Тэнгэр дээр хараахан нээгдээгүй байна'],
  ] as const)('in %s shows the %s message, what is available now and a way back', async (lan, area, title) => {
    setLanguage(lan)
    renderWithApp(<MaintenancePage />, { path: `/maintenance?area=${area}` })
    const page = await screen.findByTestId('maintenance-page')
    expect(page.getAttribute('data-area')).toBe(area)
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe(title)
    const locale = lan === 'en_US' ? 'en-US' : 'mn-MN'
    const texts = getBundledTexts('maintenance', locale)
    expect(screen.getByTestId('maintenance-body').textContent).toBe(lookup(texts, `areas.${area}.body`))
    expect(page.textContent).toContain(lookup(texts, 'available.title'))
    expect(screen.getByTestId('maintenance-available-wallet').getAttribute('href')).toBe('/wallet')
    expect(screen.getByTestId('maintenance-available-markets').getAttribute('href')).toBe('/market')
    expect(screen.getByTestId('maintenance-available-deposit').getAttribute('href')).toBe('/wallet?modal=deposit')
    expect(screen.getByTestId('maintenance-available-wallet').textContent).toContain(lookup(texts, 'available.wallet'))
    expect(screen.getByTestId('maintenance-back').getAttribute('href')).toBe('/')
    expect(screen.getByTestId('maintenance-back').textContent).toBe(lookup(texts, 'back'))
    // Area pages do not advertise the futures competition.
    expect(page.textContent).not.toContain(lookup(texts, 'competition'))
  })

  it.each([
    ['en_US', 'Futures trading is not live yet'],
    ['mn_MN', 'Фьючерс арилжаа хараахан нээгдээгүй байна'],
  ] as const)('keeps the futures message without an area (%s)', async (lan, title) => {
    setLanguage(lan)
    renderWithApp(<MaintenancePage />, { path: '/maintenance' })
    const page = await screen.findByTestId('maintenance-page')
    expect(page.getAttribute('data-area')).toBe('futures')
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe(title)
    const texts = getBundledTexts('maintenance', lan === 'en_US' ? 'en-US' : 'mn-MN')
    // The test router serves every path, so the competition page counts as open and is offered.
    expect(within(page).getByText(lookup(texts, 'competition')!).closest('a')?.getAttribute('href')).toBe('/futureBonus')
  })

  it('shows the generic message for an unknown area', async () => {
    setLanguage('en_US')
    renderWithApp(<MaintenancePage />, { path: '/maintenance?area=somethingElse' })
    const page = await screen.findByTestId('maintenance-page')
    expect(page.getAttribute('data-area')).toBe('page')
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe('This part of Tenger is not live yet')
  })
})
