import { Box, Button, Center, Container, Heading, HStack, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuArrowLeft } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { CoinIcon } from '@/features/wallet/components/shared'
import { loginHref } from '@/lib/auth-guard'
import { formatCut, formatFixed, groupThousands } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { launchDetailQuery, type LaunchView } from '../api/launchpad-api'
import { oversubscribed } from '../lib/phase'
import { launchpadTexts } from '../lib/texts'
import { AllocationReport } from './allocation-report'
import { CommitDialog } from './commit-dialog'
import { quoted } from './launchpad-page'
import { Countdown, PhaseBadge, PhaseTimeline } from './phase-parts'

/** One figure of the sale: its label over its value. */
function Figure({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string }) {
  return (
    <Stack gap="0.5" minW="0" borderWidth="1px" rounded="md" p="3" bg="bg.panel">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontWeight="semibold" fontVariantNumeric="tabular-nums" overflowWrap="anywhere" data-testid={testId}>
        {value}
      </Text>
      {note ? (
        <Text fontSize="xs" color="fg.muted" data-testid={`${testId}-note`}>
          {note}
        </Text>
      ) : null}
    </Stack>
  )
}

function SaleFigures({ t, sale }: { t: TranslateFn; sale: LaunchView }) {
  const over = oversubscribed(sale.subscribedPercent)
  return (
    <SimpleGrid columns={{ base: 2, md: 4 }} gap="3" data-testid="launch-figures-detail">
      <Figure label={t('detail.price')} value={`${quoted(sale.price, 18)} ${sale.commitCoin}`} testId="launch-price" />
      <Figure label={t('detail.offered')} value={`${quoted(sale.tokensOffered, sale.tokenPrecision)} ${sale.token}`} testId="launch-offered" />
      <Figure
        label={t('detail.cap')}
        value={sale.maxPerUser ? `${quoted(sale.maxPerUser, sale.tokenPrecision)} ${sale.token}` : t('detail.noCap')}
        testId="launch-cap"
      />
      <Figure label={t('detail.minCommit')} value={`${quoted(sale.minCommit, sale.commitPrecision)} ${sale.commitCoin}`} testId="launch-min" />
      <Figure label={t('detail.totalCommitted')} value={`${formatCut(sale.totalCommitted, sale.commitPrecision)} ${sale.commitCoin}`} testId="launch-total" />
      <Figure label={t('detail.participants')} value={groupThousands(String(sale.participants))} testId="launch-participants" />
      <Figure
        label={t('detail.subscribed')}
        value={`${formatFixed(sale.subscribedPercent, 2)}%`}
        note={over ? t('detail.oversubscribed', { x: over }) : t('detail.notOversubscribed')}
        testId="launch-subscribed"
      />
    </SimpleGrid>
  )
}

/**
 * /launchpad/<id>: one sale (newcoin_project_detailV2): the token, price,
 * offer, cap and minimum, the phase timeline upcoming → subscription →
 * calculation → distribution → ended with the countdown, the total
 * committed and how oversubscribed it is; Commit during the subscription;
 * for a signed-in user the allocation report.
 */
export function LaunchDetailPage({ projectId }: { projectId: string }) {
  const { t, ready } = launchpadTexts.useTexts()
  const common = useTexts('common')
  const { isSignedIn, isLoading: userLoading } = useUserInfo()
  const detail = useQuery({ ...launchDetailQuery(projectId, isSignedIn), enabled: !userLoading, refetchInterval: 30_000 })
  const [committing, setCommitting] = useState(false)

  if (!ready || userLoading || detail.isPending) {
    return (
      <Center py="24" gap="2" role="status" data-testid="launch-detail-loading">
        <Spinner size="sm" />
        <Text color="fg.muted">{common.t('loading')}</Text>
      </Center>
    )
  }

  const back = (
    <Button asChild size="sm" variant="ghost" alignSelf="flex-start" ms="-2">
      <AppLink href="/launchpad" data-testid="launch-back">
        <LuArrowLeft aria-hidden="true" />
        {t('detail.back')}
      </AppLink>
    </Button>
  )

  if (detail.isError) {
    return (
      <Container maxW="6xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }}>
        <Stack gap="4">
          {back}
          <Stack align="center" py="8" gap="3" role="alert" data-testid="launch-detail-error">
            <Text color="fg.error">{detail.error.message || t('detail.error')}</Text>
            <Button size="sm" variant="outline" onClick={() => void detail.refetch()}>
              {common.t('retry')}
            </Button>
          </Stack>
        </Stack>
      </Container>
    )
  }

  const sale = detail.data
  const subscription = sale.phase === 'subscription'
  return (
    <Container maxW="6xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid="launch-detail">
      <Stack gap={{ base: '5', md: '7' }}>
        {back}
        <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'stretch', md: 'flex-start' }} gap="4">
          <Stack gap="2" minW="0">
            <HStack gap="3" flexWrap="wrap">
              <CoinIcon coin={sale.token} src={sale.tokenLogo} size="sm" />
              <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
                {sale.name}
              </Heading>
              <PhaseBadge t={t} phase={sale.phase} testId="launch-phase" />
            </HStack>
            <Text color="fg.muted" maxW="3xl">
              {sale.description}
            </Text>
            <Countdown t={t} sale={sale} testId="launch-countdown" />
          </Stack>
          <Box flexShrink={0} minW={{ md: '56' }}>
            {!isSignedIn ? (
              <Button asChild colorPalette="brand" w="full">
                <AppLink href={loginHref(`/launchpad/${encodeURIComponent(sale.id)}`)} data-testid="launch-signin">
                  {t('detail.signIn')}
                </AppLink>
              </Button>
            ) : (
              <Stack gap="1">
                <Button colorPalette="brand" w="full" disabled={!subscription} onClick={() => setCommitting(true)} data-testid="launch-commit">
                  {t('detail.commit', { coin: sale.commitCoin })}
                </Button>
                {!subscription ? (
                  <Text fontSize="xs" color="fg.muted" textAlign="center" data-testid="launch-commit-closed">
                    {t(`detail.commitClosed.${sale.phase}`)}
                  </Text>
                ) : null}
              </Stack>
            )}
          </Box>
        </Stack>

        <Box as="section" aria-labelledby="launch-timeline-title">
          <Heading as="h2" size="md" id="launch-timeline-title" mb="3">
            {t('timeline.title')}
          </Heading>
          <PhaseTimeline t={t} sale={sale} />
        </Box>

        <Box as="section" aria-labelledby="launch-figures-title">
          <Heading as="h2" size="md" id="launch-figures-title" mb="3">
            {t('detail.figures')}
          </Heading>
          <SaleFigures t={t} sale={sale} />
        </Box>

        {isSignedIn && sale.mine ? <AllocationReport t={t} sale={sale} report={sale.mine} /> : null}
      </Stack>
      {isSignedIn ? <CommitDialog open={committing} sale={sale} onClose={() => setCommitting(false)} /> : null}
    </Container>
  )
}
