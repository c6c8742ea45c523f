import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithApp } from '@/test/render'
import { FeaturesSection } from './features-section'

describe('home feature cards', () => {
  it('sell only what is live: no card is marked Soon now that flexible savings are live', async () => {
    renderWithApp(<FeaturesSection />)
    const card = async (id: string) => screen.findByTestId(`feature-${id}`)
    for (const id of ['mnt', 'trade', 'security', 'support', 'p2p', 'earn']) {
      expect(within(await card(id)).queryByTestId('soon-badge')).toBeNull()
    }
    // The earn card sells what is live: savings, staking, the launchpad and crypto loans.
    expect((await card('earn')).textContent).toContain('Flexible savings')
    expect((await card('earn')).textContent).toContain('crypto loans')
    // The spot card does not promise leverage that cannot be used yet.
    expect((await card('trade')).textContent).toContain('Spot trading')
    expect((await card('trade')).textContent).toContain('on the way')
  })
})
