import { Box, Card, Container, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import type { IconType } from 'react-icons'
import { LuArrowLeftRight, LuBanknote, LuChartCandlestick, LuHeadphones, LuPiggyBank, LuShieldCheck } from 'react-icons/lu'
import { useTexts } from '@/lib/i18n'

const FEATURES: { id: string; icon: IconType }[] = [
  { id: 'mnt', icon: LuBanknote },
  { id: 'trade', icon: LuChartCandlestick },
  { id: 'p2p', icon: LuArrowLeftRight },
  { id: 'earn', icon: LuPiggyBank },
  { id: 'security', icon: LuShieldCheck },
  { id: 'support', icon: LuHeadphones },
]

/** Home feature cards. */
export function FeaturesSection() {
  const { t } = useTexts('home')
  return (
    <Box as="section" aria-labelledby="features-title" bg="bg.subtle" borderYWidth="1px">
      <Container maxW="6xl" py={{ base: '12', md: '16' }}>
        <Stack gap="2" mb="8" textAlign={{ md: 'center' }}>
          <Heading as="h2" id="features-title" size="2xl">
            {t('features.title')}
          </Heading>
          <Text color="fg.muted">{t('features.subtitle')}</Text>
        </Stack>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="5">
          {FEATURES.map((f) => (
            <Card.Root key={f.id} variant="elevated">
              <Card.Body gap="3">
                <Icon as={f.icon} boxSize="8" color="brand.fg" aria-hidden="true" />
                <Card.Title as="h3">{t(`features.items.${f.id}.title`)}</Card.Title>
                <Card.Description>{t(`features.items.${f.id}.body`)}</Card.Description>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  )
}
