import { Box, Button, Container, Heading, HStack, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { Link, useSearch } from '@tanstack/react-router'
import type { IconType } from 'react-icons'
import { LuArrowLeft, LuChartLine, LuConstruction, LuTrophy, LuWallet, LuWalletCards } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { isMaintenanceArea, useLinkResolver, type MaintenanceArea } from '@/components/layout/link-target'
import { useTexts } from '@/lib/i18n'

/**
 * Which message the page shows for a raw `area` search value: undefined
 * (and 'futures') keep the futures message of spec §2; an unknown value gets
 * the generic 'page' message.
 */
export function maintenanceArea(raw: unknown): Exclude<MaintenanceArea, 'futures'> | undefined {
  if (raw === undefined || raw === null || raw === '' || raw === 'futures') return undefined
  return isMaintenanceArea(raw) ? (raw as Exclude<MaintenanceArea, 'futures'>) : 'page'
}

const AVAILABLE: { id: 'wallet' | 'markets' | 'deposit'; href: string; icon: IconType }[] = [
  { id: 'wallet', href: '/wallet', icon: LuWallet },
  { id: 'markets', href: '/market', icon: LuChartLine },
  { id: 'deposit', href: '/wallet?modal=deposit', icon: LuWalletCards },
]

/**
 * /maintenance: a product area that is not live yet. Futures links (except the
 * competition) land here without `area`; links to pages that have no route yet
 * land here with `?area=<id>` and get that area's message.
 */
export function MaintenancePage() {
  const { t } = useTexts('maintenance')
  const resolve = useLinkResolver()
  const search = useSearch({ strict: false }) as { area?: unknown }
  const area = maintenanceArea(search.area)
  const competitionHref = resolve('/futureBonus')
  const competitionOpen = competitionHref === '/futureBonus'
  return (
    <Container maxW="3xl" py={{ base: '14', md: '24' }}>
      <Stack
        gap="5"
        align="center"
        textAlign="center"
        data-testid="maintenance-page"
        data-area={area ?? 'futures'}
      >
        <Icon as={LuConstruction} boxSize="16" color="orange.500" aria-hidden="true" />
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} data-testid="maintenance-title">
          {area ? t(`areas.${area}.title`) : t('title')}
        </Heading>
        <Text fontSize="lg" data-testid="maintenance-body">
          {area ? t(`areas.${area}.body`) : t('body')}
        </Text>
        <Text color="fg.muted">{area ? t('fundsSafe') : t('details')}</Text>
        {!area && competitionOpen ? <Text color="fg.muted">{t('competitionHint')}</Text> : null}
        <Box w="full" pt="4" as="section" aria-labelledby="maintenance-available">
          <Heading as="h2" size="md" mb="3" id="maintenance-available">
            {t('available.title')}
          </Heading>
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3" data-testid="maintenance-available">
            {AVAILABLE.map((item) => (
              <AppLink
                key={item.id}
                href={resolve(item.href)}
                display="flex"
                flexDirection="column"
                alignItems="center"
                gap="1"
                p="4"
                borderWidth="1px"
                rounded="lg"
                _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
                data-testid={`maintenance-available-${item.id}`}
              >
                <Icon as={item.icon} boxSize="6" color="brand.fg" aria-hidden="true" />
                <Text fontWeight="semibold">{t(`available.${item.id}`)}</Text>
                <Text textStyle="xs" color="fg.muted">
                  {t(`available.${item.id}Desc`)}
                </Text>
              </AppLink>
            ))}
          </SimpleGrid>
        </Box>
        <HStack gap="3" wrap="wrap" justify="center" pt="2">
          <Button asChild colorPalette="brand">
            <Link to="/" data-testid="maintenance-back">
              <LuArrowLeft aria-hidden="true" />
              {t('back')}
            </Link>
          </Button>
          {!area && competitionOpen ? (
            <Button asChild variant="outline">
              <AppLink href={competitionHref}>
                <LuTrophy aria-hidden="true" />
                {t('competition')}
              </AppLink>
            </Button>
          ) : null}
        </HStack>
      </Stack>
    </Container>
  )
}
