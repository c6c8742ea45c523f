import { Container } from '@chakra-ui/react'
import { MarketOverview } from './market-overview'

/** /market: the full market list; `favourites` opens the favourites tab. */
export function MarketsPage({ favourites }: { favourites: boolean }) {
  return (
    <Container maxW="6xl" py={{ base: '8', md: '12' }}>
      <MarketOverview as="page" initialTab={favourites ? 'favourites' : undefined} key={favourites ? 'fav' : 'all'} />
    </Container>
  )
}
