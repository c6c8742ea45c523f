import { Badge, Box, Card, Container, Heading, HStack, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import type { IconType } from 'react-icons'
import { LuArrowLeftRight, LuBanknote, LuChartCandlestick, LuHeadphones, LuPiggyBank, LuShieldCheck } from 'react-icons/lu'
import { isLive, type Capability } from '@/lib/capabilities'
import { useTexts } from '@/lib/i18n'

/** The cards; one that sells a capability names it, and is marked "Soon" while it is not live. */
const FEATURES: { id: string; icon: IconType; capability?: Capability }[] = [
  { id: 'mnt', icon: LuBanknote },
  { id: 'trade', icon: LuChartCandlestick, capability: 'spot' },
  { id: 'p2p', icon: LuArrowLeftRight, capability: 'p2p' },
  { id: 'earn', icon: LuPiggyBank, capability: 'savings' },
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
          {FEATURES.map((f) => {
            const soon = f.capability !== undefined && !isLive(f.capability)
            return (
              <Card.Root key={f.id} variant="elevated" data-testid={`feature-${f.id}`}>
                <Card.Body gap="3">
                  <Icon as={f.icon} boxSize="8" color={soon ? 'fg.muted' : 'brand.fg'} aria-hidden="true" />
                  <HStack gap="2">
                    <Card.Title as="h3">{t(`features.items.${f.id}.title`)}</Card.Title>
                    {soon && (
                      <Badge size="sm" variant="subtle" colorPalette="gray" data-testid="soon-badge">
                        {t('features.soon')}
                      </Badge>
                    )}
                  </HStack>
                  <Card.Description>{t(`features.items.${f.id}.body`)}</Card.Description>
                </Card.Body>
              </Card.Root>
            )
          })}
        </SimpleGrid>
      </Container>
    </Box>
  )
}
