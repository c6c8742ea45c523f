import { createFileRoute } from '@tanstack/react-router'
import { loadP2P, p2pPage } from '@/features/p2p/lib/routes'

/** The P2P sub-navigation and agreement notice around every /p2p/* page (its texts load with it); /p2p leads to the market. */
export const P2PLayout = p2pPage('Layout')

export const Route = createFileRoute('/p2p')({
  loader: loadP2P,
  component: P2PLayout,
})
