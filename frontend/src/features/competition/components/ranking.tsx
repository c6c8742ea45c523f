import { Box, Heading, HStack, Icon, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { LuTrophy } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { formatDateTime } from '@/lib/date-time'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { competitionRanksQuery, competitionTopQuery, RANK_PAGE_SIZE, TOP_LIMIT, type Competition, type RankRow, type UserRank } from '../api/competition-api'
import { AMOUNT_PLACES, maskNickname, roiText, signColor, signedAmount } from '../lib/format'
import { competitionTexts } from '../lib/texts'

/** Medal colours of the first three ranks (readable in light and dark). */
const MEDALS = ['yellow.500', 'gray.400', 'orange.600'] as const

/** The columns of the ranking: rank, masked nickname, ROI and profit (coloured by sign), and the prize the rank wins. */
export function rankColumns(t: TranslateFn, coin: string): DataColumn<RankRow>[] {
  return [
    {
      id: 'rank',
      header: t('ranking.cols.rank'),
      card: 'title',
      nowrap: true,
      testId: 'rank-no',
      cell: (r) => (
        <HStack as="span" gap="1">
          {r.rank <= 3 && <Icon as={LuTrophy} color={MEDALS[r.rank - 1]} aria-hidden="true" />}
          <Text as="span" fontWeight="semibold">
            {r.rank}
          </Text>
        </HStack>
      ),
    },
    { id: 'nick', header: t('ranking.cols.nickname'), card: 'title', testId: 'rank-nick', cell: (r) => r.nickName },
    {
      id: 'roi',
      header: t('ranking.cols.roi'),
      numeric: true,
      testId: 'rank-roi',
      cell: (r) => (
        <Text as="span" color={signColor(r.roi)} fontWeight="medium">
          {roiText(r.roi)}
        </Text>
      ),
    },
    {
      id: 'profit',
      header: t('ranking.cols.profit'),
      numeric: true,
      testId: 'rank-profit',
      cell: (r) => (
        <Text as="span" color={signColor(r.profit)}>
          {signedAmount(r.profit)} {coin}
        </Text>
      ),
    },
    { id: 'prize', header: t('ranking.cols.prize'), numeric: true, testId: 'rank-prize', cell: (r) => (r.prize ? `${fixed(r.prize, AMOUNT_PLACES)} ${coin}` : '—') },
  ]
}

/** The best three as cards: rank and medal, masked nickname, ROI and profit. */
export function Podium({ competition }: { competition: Competition }) {
  const { t } = competitionTexts.useTexts()
  const id = competition.competitionId
  const top = useQuery({ ...competitionTopQuery(id, TOP_LIMIT), refetchInterval: competition.state === 'running' ? 60_000 : false })
  if (top.isLoading) return <Skeleton h="28" rounded="lg" />
  const rows = top.data ?? []
  if (rows.length === 0) return null
  return (
    <SimpleGrid as="ol" columns={{ base: 1, sm: 3 }} gap="3" listStyleType="none" aria-label={t('ranking.top')} data-testid="competition-top">
      {rows.map((r) => (
        <Box as="li" key={r.rank} borderWidth="1px" rounded="lg" p="3" bg="bg.panel" data-testid="competition-top-row">
          <HStack justify="space-between" gap="2">
            <HStack gap="1.5">
              <Icon as={LuTrophy} color={MEDALS[r.rank - 1] ?? 'fg.muted'} boxSize="5" aria-hidden="true" />
              <Text fontWeight="bold">{t('ranking.rankNo', { rank: r.rank })}</Text>
            </HStack>
            <Text fontSize="sm" color="fg.muted" truncate>
              {r.nickName}
            </Text>
          </HStack>
          <Text fontSize="2xl" fontWeight="bold" color={signColor(r.roi)} fontVariantNumeric="tabular-nums" mt="1">
            {roiText(r.roi)}
          </Text>
          <Text fontSize="sm" color={signColor(r.profit)} fontVariantNumeric="tabular-nums">
            {signedAmount(r.profit)} {competition.coin}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  )
}

/** The whole ranking, a page at a time, refreshed each minute while the competition runs. */
export function RankingTable({ competition }: { competition: Competition }) {
  const { t } = competitionTexts.useTexts()
  const [page, setPage] = useState(1)
  const id = competition.competitionId
  const query = useQuery({
    ...competitionRanksQuery(id, page, RANK_PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: competition.state === 'running' ? 60_000 : false,
  })
  const columns = useMemo(() => rankColumns(t, competition.coin), [t, competition.coin])
  const refreshed = query.data?.refreshedAt || competition.refreshedAt
  return (
    <Stack as="section" aria-labelledby="competition-ranking-title" gap="3">
      <HStack justify="space-between" align="baseline" gap="2" wrap="wrap">
        <Heading as="h2" size="md" id="competition-ranking-title">
          {t('ranking.title')}
        </Heading>
        {refreshed > 0 && (
          <Text fontSize="xs" color="fg.muted" data-testid="competition-refreshed">
            {t('ranking.refreshed', { time: formatDateTime(refreshed, { seconds: false }) })}
          </Text>
        )}
      </HStack>
      <Podium competition={competition} />
      <DataTable
        layout="auto"
        columns={columns}
        rows={query.data?.list ?? []}
        rowKey={(r) => String(r.rank)}
        label={t('ranking.title')}
        testId="competition-ranking"
        rowTestId="competition-rank-row"
        isLoading={query.isLoading}
        loadingLabel={t('ranking.loading')}
        error={query.isError ? { text: t('ranking.error'), retryText: t('common.retry'), onRetry: () => void query.refetch() } : undefined}
        emptyText={competition.state === 'upcoming' ? t('ranking.emptyUpcoming') : t('ranking.empty')}
        emptyTestId="competition-ranking-empty"
      />
      <Pager
        page={page}
        pageSize={RANK_PAGE_SIZE}
        count={query.data?.count ?? 0}
        onPageChange={setPage}
        labels={{
          nav: t('ranking.pages'),
          prev: t('pager.prev'),
          next: t('pager.next'),
          page: (p) => t('pager.page', { page: p }),
          status: (p, pages) => t('pager.status', { page: p, pages }),
        }}
        testId="competition-ranking-pager"
      />
    </Stack>
  )
}

/**
 * The caller's standing once joined: rank (or not ranked yet), ROI, profit,
 * equity now and at joining, net transfers in, and the prize the rank wins
 * (paid or to be), with the masked name the others see.
 */
export function MyRankCard({ rank, coin }: { rank: UserRank; coin: string }) {
  const { t } = competitionTexts.useTexts()
  const row = (label: string, value: string, testId: string, color?: string) => (
    <HStack justify="space-between" gap="2" fontSize="sm">
      <Text color="fg.muted">{label}</Text>
      <Text fontVariantNumeric="tabular-nums" color={color} data-testid={testId}>
        {value}
      </Text>
    </HStack>
  )
  return (
    <Box as="section" aria-labelledby="competition-mine-title" borderWidth="1px" borderColor="brand.muted" rounded="lg" bg="bg.panel" p="4" data-testid="competition-my-rank">
      <Stack gap="2">
        <HStack justify="space-between" align="baseline">
          <Heading as="h2" size="md" id="competition-mine-title">
            {t('mine.title')}
          </Heading>
          <Text fontSize="xs" color="fg.muted" title={t('mine.shownAs')}>
            {maskNickname(rank.nickName)}
          </Text>
        </HStack>
        <HStack align="baseline" gap="3">
          <Text fontSize="3xl" fontWeight="bold" data-testid="competition-my-rank-no">
            {rank.rank > 0 ? `#${rank.rank}` : '—'}
          </Text>
          <Text fontSize="lg" fontWeight="semibold" color={signColor(rank.roi)} data-testid="competition-my-roi">
            {roiText(rank.roi)}
          </Text>
        </HStack>
        {rank.rank === 0 && (
          <Text fontSize="xs" color="fg.muted">
            {t('mine.notRanked')}
          </Text>
        )}
        {row(t('mine.profit'), `${signedAmount(rank.profit)} ${coin}`, 'competition-my-profit', signColor(rank.profit))}
        {row(t('mine.equity'), `${fixed(rank.equity, AMOUNT_PLACES)} ${coin}`, 'competition-my-equity')}
        {row(t('mine.initial'), `${fixed(rank.initialEquity, AMOUNT_PLACES)} ${coin}`, 'competition-my-initial')}
        {row(t('mine.netIn'), `${fixed(rank.netTransferIn, AMOUNT_PLACES)} ${coin}`, 'competition-my-net-in')}
        {rank.prize && row(t(rank.prizePaid ? 'mine.prizePaid' : 'mine.prize'), `${fixed(rank.prize, AMOUNT_PLACES)} ${coin}`, 'competition-my-prize', 'up')}
        <Text fontSize="xs" color="fg.muted">
          {t('mine.roiHint')}
        </Text>
      </Stack>
    </Box>
  )
}
