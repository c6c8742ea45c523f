import { Badge, Box, Button, Container, Grid, Heading, HStack, Icon, Skeleton, Stack, Table, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSearch } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { LuTrophy, LuUsers } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { formatDateTime } from '@/lib/date-time'
import { fixed } from '@/lib/decimal'
import { useUserInfo } from '@/lib/session'
import {
  competitionDetailQuery,
  competitionKeys,
  currentCompetitionQuery,
  userConditionQuery,
  userRankQuery,
  type Competition,
  type CompetitionState,
} from '../api/competition-api'
import { AMOUNT_PLACES, clockText, countdownTarget, phaseAt, rankRange, timeLeft } from '../lib/format'
import { competitionTexts } from '../lib/texts'
import { JoinCard } from './join-card'
import { MyRankCard, RankingTable } from './ranking'

/** A competition id as the server makes them (the address may name one: /futureBonus?id=…). */
const ID = /^[A-Za-z0-9_-]{1,64}$/

/** Badge colours of the phases. */
const PHASE_COLORS: Record<CompetitionState, string> = { upcoming: 'blue', running: 'green', ended: 'orange', settled: 'gray' }

/** The server's clock now, ticking each second: the client's clock moved by how far the server's was when it answered. */
function useServerNow(serverTime: number | undefined, answeredAt: number): number {
  const offset = serverTime ? serverTime - answeredAt : 0
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(timer)
  }, [])
  return now + offset
}

/** The countdown to the start or the end, as days and HH:MM:SS (a timer: not read out every second). */
function Countdown({ target, now, phase }: { target: number | undefined; now: number; phase: CompetitionState }) {
  const { t } = competitionTexts.useTexts()
  if (target === undefined) {
    return (
      <Text fontWeight="semibold" data-testid="competition-countdown">
        {t(phase === 'settled' ? 'countdown.settled' : 'countdown.ended')}
      </Text>
    )
  }
  const left = timeLeft(target, now)
  return (
    <Stack gap="0.5">
      <Text fontSize="xs" color="fg.muted">
        {t(phase === 'upcoming' ? 'countdown.startsIn' : 'countdown.endsIn')}
      </Text>
      <Text role="timer" fontSize={{ base: 'xl', md: '2xl' }} fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid="competition-countdown">
        {left.days > 0 ? `${t('countdown.days', { n: left.days })} ` : ''}
        {clockText(left)}
      </Text>
    </Stack>
  )
}

/** The prize table: each rank range and what each rank in it wins. */
function Prizes({ competition }: { competition: Competition }) {
  const { t } = competitionTexts.useTexts()
  return (
    <Box as="section" aria-labelledby="competition-prizes-title" borderWidth="1px" rounded="lg" bg="bg.panel" p="4" data-testid="competition-prizes">
      <HStack justify="space-between" align="baseline" mb="2">
        <Heading as="h2" size="md" id="competition-prizes-title">
          {t('prizes.title')}
        </Heading>
        <Text fontSize="sm" fontWeight="semibold" data-testid="competition-pool">
          {t('prizes.pool', { amount: fixed(competition.prizePool, AMOUNT_PLACES), coin: competition.coin })}
        </Text>
      </HStack>
      {competition.prizes.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          {t('prizes.none')}
        </Text>
      ) : (
        <Table.Root size="sm" aria-labelledby="competition-prizes-title">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('prizes.rank')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('prizes.each')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {competition.prizes.map((p) => (
              <Table.Row key={`${p.rankFrom}-${p.rankTo}`} data-testid="competition-prize-row">
                <Table.Cell>{rankRange(p.rankFrom, p.rankTo)}</Table.Cell>
                <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                  {fixed(p.amount, AMOUNT_PLACES)} {competition.coin}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  )
}

/** The head of the page: name, phase, description, period with the countdown, prize pool and participants. */
function Hero({ competition, phase, now }: { competition: Competition; phase: CompetitionState; now: number }) {
  const { t } = competitionTexts.useTexts()
  return (
    <Box
      as="header"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '4', md: '6' }}
      bgGradient="to-br"
      gradientFrom={{ _light: 'brand.subtle', _dark: 'brand.muted' }}
      gradientTo="bg.panel"
      data-testid="competition-hero"
    >
      <Stack gap="4">
        <Stack gap="2">
          <HStack gap="2" wrap="wrap">
            <Icon as={LuTrophy} boxSize="6" color="brand.fg" aria-hidden="true" />
            <Badge colorPalette={PHASE_COLORS[phase]} variant="solid" data-testid="competition-state">
              {t(`state.${phase}`)}
            </Badge>
          </HStack>
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }} data-testid="competition-name">
            {competition.name || t('page.title')}
          </Heading>
          {competition.description && (
            <Text color="fg.muted" maxW="3xl" whiteSpace="pre-line">
              {competition.description}
            </Text>
          )}
        </Stack>
        <Grid templateColumns={{ base: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' }} gap="4">
          <Box gridColumn={{ base: 'span 2', md: 'auto' }}>
            <Countdown target={countdownTarget(competition, phase)} now={now} phase={phase} />
          </Box>
          <Stack gap="0.5" gridColumn={{ base: 'span 2', md: 'auto' }}>
            <Text fontSize="xs" color="fg.muted">
              {t('hero.period')}
            </Text>
            <Text fontSize="sm" fontWeight="medium" data-testid="competition-period">
              {formatDateTime(competition.startTime, { seconds: false })} – {formatDateTime(competition.endTime, { seconds: false })}
            </Text>
          </Stack>
          <Stack gap="0.5">
            <Text fontSize="xs" color="fg.muted">
              {t('hero.pool')}
            </Text>
            <Text fontSize="lg" fontWeight="bold" fontVariantNumeric="tabular-nums">
              {fixed(competition.prizePool, AMOUNT_PLACES)} {competition.coin}
            </Text>
          </Stack>
          <Stack gap="0.5">
            <HStack gap="1" fontSize="xs" color="fg.muted">
              <Icon as={LuUsers} aria-hidden="true" />
              <Text>{t('hero.participants')}</Text>
            </HStack>
            <Text fontSize="lg" fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid="competition-participants">
              {fixed(competition.participants, 0)}
            </Text>
          </Stack>
        </Grid>
      </Stack>
    </Box>
  )
}

/** A competition's page once it is known. */
function CompetitionView({ competition, answeredAt }: { competition: Competition; answeredAt: number }) {
  const { t } = competitionTexts.useTexts()
  const queryClient = useQueryClient()
  const { isSignedIn } = useUserInfo()
  const id = competition.competitionId
  const now = useServerNow(competition.serverTime, answeredAt)
  const phase = phaseAt(competition, now)
  const condition = useQuery({ ...userConditionQuery(id), enabled: isSignedIn })
  const rank = useQuery({ ...userRankQuery(id), enabled: isSignedIn, refetchInterval: phase === 'running' ? 60_000 : false })
  // When the start or the end comes, what the server says changes: read it again (once per change).
  const seen = useRef(phase)
  useEffect(() => {
    if (seen.current === phase) return
    seen.current = phase
    void queryClient.invalidateQueries({ queryKey: competitionKeys.all })
  }, [phase, queryClient])
  const joined = !!rank.data?.joined
  return (
    <Stack gap={{ base: '4', md: '6' }}>
      <Hero competition={competition} phase={phase} now={now} />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 360px' }} gap={{ base: '4', md: '6' }} alignItems="start">
        <Stack gap="4" order={{ base: 2, lg: 1 }} minW="0">
          <RankingTable competition={competition} />
        </Stack>
        <Stack gap="4" order={{ base: 1, lg: 2 }}>
          {joined && rank.data && <MyRankCard rank={rank.data} coin={competition.coin} />}
          <JoinCard competition={competition} phase={phase} signedIn={isSignedIn} condition={condition.data} conditionLoading={isSignedIn && condition.isLoading} rank={rank.data} />
          <Prizes competition={competition} />
          <Text fontSize="xs" color="fg.muted">
            {t('page.roiRule')}
          </Text>
        </Stack>
      </Grid>
    </Stack>
  )
}

/**
 * /futureBonus: the futures trading competition — the running one, else the
 * next, else the last (or the one the address names, ?id=) — with its
 * period and countdown, phase, prize table, top three and paged ranking,
 * the caller's rank, and joining with its rules checklist. Without a
 * competition it says so.
 */
export function CompetitionPage() {
  const { t } = competitionTexts.useTexts()
  const search = useSearch({ strict: false }) as { id?: unknown }
  const named = typeof search.id === 'string' && ID.test(search.id) ? search.id : undefined
  const current = useQuery({ ...currentCompetitionQuery, enabled: !named })
  const id = named ?? current.data?.competitionId
  const seed = current.data && current.data.competitionId === id ? current.data : undefined
  const detail = useQuery({
    ...competitionDetailQuery(id ?? ''),
    enabled: !!id,
    // The current competition's answer is its detail: no second request until it is a minute old.
    initialData: seed,
    initialDataUpdatedAt: seed ? current.dataUpdatedAt : undefined,
    staleTime: 60_000,
    refetchInterval: 60_000,
  })
  const loading = named ? detail.isLoading : current.isLoading || (!!id && detail.isLoading)
  const failed = named ? detail.isError && !detail.data : current.isError && !current.data
  let body: React.ReactNode
  if (loading) {
    body = (
      <Stack gap="4" data-testid="competition-loading">
        <Skeleton h="48" rounded="xl" />
        <Skeleton h="72" rounded="lg" />
      </Stack>
    )
  } else if (failed) {
    body = (
      <Stack py="16" align="center" gap="3" role="alert" data-testid="competition-error">
        <Heading as="h1" size="md">
          {t('page.error')}
        </Heading>
        <Button size="sm" variant="outline" onClick={() => void (named ? detail.refetch() : current.refetch())}>
          {t('common.retry')}
        </Button>
      </Stack>
    )
  } else if (!detail.data) {
    body = (
      <Stack py={{ base: '12', md: '20' }} align="center" textAlign="center" gap="3" data-testid="competition-empty">
        <Icon as={LuTrophy} boxSize="12" color="fg.muted" aria-hidden="true" />
        <Heading as="h1" size="lg">
          {t('empty.title')}
        </Heading>
        <Text color="fg.muted" maxW="md">
          {t('empty.body')}
        </Text>
        <Button asChild colorPalette="brand" size="sm">
          <AppLink href="/futures/BTCUSDT">{t('empty.trade')}</AppLink>
        </Button>
      </Stack>
    )
  } else {
    body = <CompetitionView competition={detail.data} answeredAt={detail.dataUpdatedAt} />
  }
  return (
    <Container maxW="7xl" py={{ base: '4', md: '8' }} px={{ base: '3', md: '6' }} data-testid="competition-page">
      {body}
    </Container>
  )
}
