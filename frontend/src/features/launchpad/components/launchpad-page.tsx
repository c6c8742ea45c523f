import { Box, Button, Center, Container, Heading, HStack, Progress, SimpleGrid, Skeleton, Spinner, Stack, Stat, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { AppLink } from '@/components/layout/app-link'
import { CoinIcon } from '@/features/wallet/components/shared'
import { formatFixed, groupThousands, truncateTrim } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { launchFooterQuery, launchListQuery, type LaunchView } from '../api/launchpad-api'
import { committedPercent, oversubscribed } from '../lib/phase'
import { launchpadTexts } from '../lib/texts'
import { Countdown, PhaseBadge } from './phase-parts'

/** An amount as quoted: grouped, without trailing zeros ('10,000', '2.2'). */
export function quoted(value: string, places: number): string {
  return groupThousands(truncateTrim(value, places) || '0')
}

/** The launchpad in figures: sales, commitments made, sales ended. */
function Figures({ t }: { t: TranslateFn }) {
  const q = useQuery(launchFooterQuery)
  const items = [
    { id: 'projects', value: q.data?.projects },
    { id: 'participants', value: q.data?.participants },
    { id: 'ended', value: q.data?.ended },
  ] as const
  return (
    <SimpleGrid columns={3} gap={{ base: '2', md: '4' }} data-testid="launch-figures">
      {items.map((i) => (
        <Stat.Root key={i.id} borderWidth="1px" rounded="lg" p={{ base: '2.5', md: '4' }} bg="bg.panel" minW="0">
          <Stat.Label fontSize={{ base: 'xs', md: 'sm' }}>{t(`figures.${i.id}`)}</Stat.Label>
          <Stat.ValueText fontSize={{ base: 'lg', md: '2xl' }} data-testid={`launch-figure-${i.id}`}>
            {q.data ? groupThousands(String(i.value ?? 0)) : '--'}
          </Stat.ValueText>
        </Stat.Root>
      ))}
    </SimpleGrid>
  )
}

/** One sale as a card: token, phase, price, offer, how much is committed, the countdown; its title leads to its page. */
function SaleCard({ t, sale }: { t: TranslateFn; sale: LaunchView }) {
  const pct = committedPercent(sale)
  const over = oversubscribed(sale.subscribedPercent)
  const href = `/launchpad/${encodeURIComponent(sale.id)}`
  return (
    <Box as="li" borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '4' }} display="flex" flexDirection="column" gap="3" data-testid={`launch-${sale.id}`}>
      <HStack justify="space-between" align="flex-start" gap="2">
        <HStack gap="2" minW="0">
          <CoinIcon coin={sale.token} src={sale.tokenLogo} size="sm" />
          <Stack gap="0" minW="0">
            <Heading as="h3" size="sm">
              <AppLink href={href} _hover={{ textDecoration: 'underline' }} data-testid={`launch-link-${sale.id}`}>
                {sale.name}
              </AppLink>
            </Heading>
            <Text fontSize="xs" color="fg.muted">
              {t('list.tokenFor', { token: sale.token, coin: sale.commitCoin })}
            </Text>
          </Stack>
        </HStack>
        <PhaseBadge t={t} phase={sale.phase} testId={`launch-phase-${sale.id}`} />
      </HStack>
      <Text fontSize="sm" color="fg.muted" lineClamp={2}>
        {sale.description}
      </Text>
      <SimpleGrid columns={2} gap="2" fontSize="sm">
        <Stack gap="0">
          <Text fontSize="xs" color="fg.muted">
            {t('detail.price')}
          </Text>
          <Text fontWeight="medium" fontVariantNumeric="tabular-nums">{`${quoted(sale.price, 18)} ${sale.commitCoin}`}</Text>
        </Stack>
        <Stack gap="0">
          <Text fontSize="xs" color="fg.muted">
            {t('detail.offered')}
          </Text>
          <Text fontWeight="medium" fontVariantNumeric="tabular-nums">{`${quoted(sale.tokensOffered, sale.tokenPrecision)} ${sale.token}`}</Text>
        </Stack>
      </SimpleGrid>
      <Progress.Root value={Math.min(100, Number(pct))} size="sm" colorPalette={over ? 'orange' : 'brand'}>
        <HStack justify="space-between" gap="2" mb="1" fontSize="xs">
          <Progress.Label color="fg.muted" fontWeight="normal">
            {t('detail.subscribed')}
          </Progress.Label>
          <Text color="fg.muted" fontVariantNumeric="tabular-nums" data-testid={`launch-subscribed-${sale.id}`}>
            {over ? t('detail.oversubscribed', { x: over }) : `${formatFixed(sale.subscribedPercent, 2)}%`}
          </Text>
        </HStack>
        <Progress.Track rounded="full">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Countdown t={t} sale={sale} testId={`launch-countdown-${sale.id}`} />
      <Button asChild size="sm" variant="outline" colorPalette="brand" mt="auto">
        <AppLink href={href} aria-label={t('list.viewOf', { name: sale.name })}>
          {t('list.view')}
        </AppLink>
      </Button>
    </Box>
  )
}

/**
 * /launchpad (spec §2 launchpad page): the sales with their phase, price,
 * offer, how much is committed and the countdown to the next phase, and
 * the launchpad in figures; each sale has its own page.
 */
export function LaunchpadPage() {
  const { t, ready } = launchpadTexts.useTexts()
  const common = useTexts('common')
  const list = useQuery({ ...launchListQuery, refetchInterval: 30_000 })

  if (!ready) {
    return (
      <Center py="24" gap="2" role="status" data-testid="launchpad-page-loading">
        <Spinner size="sm" />
        <Text color="fg.muted">{common.t('loading')}</Text>
      </Center>
    )
  }

  const sales = list.data ?? []
  return (
    <Container maxW="6xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid="launchpad-page">
      <Stack gap={{ base: '6', md: '8' }}>
        <Stack gap="2">
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
            {t('page.title')}
          </Heading>
          <Text color="fg.muted" maxW="3xl">
            {t('page.subtitle')}
          </Text>
        </Stack>
        <Figures t={t} />
        <Box as="section" aria-labelledby="launch-sales-title">
          <Heading as="h2" size="lg" id="launch-sales-title" mb="3">
            {t('list.title')}
          </Heading>
          {list.isLoading ? (
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" role="status" aria-label={common.t('loading')}>
              {[0, 1].map((i) => (
                <Skeleton key={i} h="72" rounded="lg" />
              ))}
            </SimpleGrid>
          ) : list.isError ? (
            <Stack align="center" py="8" gap="3" role="alert" data-testid="launch-list-error">
              <Text color="fg.error">{t('list.error')}</Text>
              <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
                {common.t('retry')}
              </Button>
            </Stack>
          ) : sales.length === 0 ? (
            <Center borderWidth="1px" borderStyle="dashed" rounded="lg" py="10" px="4" data-testid="launch-list-empty">
              <Text color="fg.muted">{t('list.empty')}</Text>
            </Center>
          ) : (
            <SimpleGrid as="ul" role="list" aria-label={t('list.label')} columns={{ base: 1, md: 2 }} gap="4" listStyleType="none" m="0" p="0" data-testid="launch-list">
              {sales.map((s) => (
                <SaleCard key={s.id} t={t} sale={s} />
              ))}
            </SimpleGrid>
          )}
        </Box>
      </Stack>
    </Container>
  )
}
