import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithApp } from '@/test/render'
import { FeaturesSection } from './features-section'

describe('home feature cards', () => {
  it('sell only what is live: earn is marked Soon, spot trading, P2P and the rest are not', async () => {
    renderWithApp(<FeaturesSection />)
    const card = async (id: string) => screen.findByTestId(`feature-${id}`)
    for (const id of ['earn']) {
      expect(within(await card(id)).getByTestId('soon-badge').textContent).toBe('Soon')
    }
    for (const id of ['mnt', 'trade', 'security', 'support', 'p2p']) {
      expect(within(await card(id)).queryByTestId('soon-badge')).toBeNull()
    }
    // The spot card does not promise leverage that cannot be used yet.
    expect((await card('trade')).textContent).toContain('Spot trading')
    expect((await card('trade')).textContent).toContain('on the way')
  })
})
