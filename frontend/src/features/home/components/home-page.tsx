import { Box, Container } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { DownloadSection } from './download-section'
import { FeaturesSection } from './features-section'
import { Hero, type HeroFigures } from './hero'

/**
 * The home page (/): hero, market overview, features, download block. The
 * market overview belongs to the markets feature, so the route passes it in.
 */
export function HomePage({ figures, markets }: { figures?: HeroFigures; markets: ReactNode }) {
  return (
    <>
      <Hero figures={figures} />
      <Box id="markets" scrollMarginTop="20">
        <Container maxW="6xl" py={{ base: '10', md: '14' }}>
          {markets}
        </Container>
      </Box>
      <FeaturesSection />
      <DownloadSection />
    </>
  )
}
