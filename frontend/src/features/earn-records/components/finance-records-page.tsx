import { Badge, Box, Button, Center, chakra, Container, Flex, Heading, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { decimalsOf } from '@/features/staking/lib/amounts'
import { getSpotBalances, walletKeys } from '@/features/wallet/api/wallet-api'
import { getCurrency } from '@/lib/cookies'
import { formatDateTime } from '@/lib/date-time'
import { formatAtLeast } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { earnRecordsQuery, groupOf, RECORD_GROUPS, type EarnRecord, type EarnRecordType, type RecordGroup } from '../api/records-api'
import { financeRecordsTexts } from '../lib/texts'

/** Badge colours of the product groups. */
const GROUP_COLORS: Record<RecordGroup, string> = {
  savings: 'green',
  staking: 'blue',
  launchpad: 'purple',
  loans: 'orange',
}

/** Where each product's own page is. */
const GROUP_PAGES: Record<RecordGroup, string> = {
  savings: '/savings',
  staking: '/staking',
  launchpad: '/launchpad',
  loans: '/cryptoCash',
}

function recordColumns(t: TranslateFn): DataColumn<EarnRecord>[] {
  return [
    {
      id: 'type',
      header: t('cols.type'),
      card: 'title',
      cell: (r) => {
        const group = groupOf(r.type)
        return (
          <Badge colorPalette={group ? GROUP_COLORS[group] : 'gray'} variant="subtle" data-testid="record-type" data-type={r.type}>
            {t(`types.${r.type}`) || r.type}
          </Badge>
        )
      },
    },
    {
      id: 'amount',
      header: t('cols.amount'),
      numeric: true,
      card: 'aside',
      testId: 'record-amount',
      cell: (r) => `${formatAtLeast(r.amount, decimalsOf(r.amount) ?? 2)} ${r.coinSymbol}`,
    },
    {
      id: 'product',
      header: t('cols.product'),
      cell: (r, layout) => {
        const group = groupOf(r.type)
        return (
          <Stack gap="0" align={layout === 'cards' ? 'flex-end' : 'flex-start'}>
            <Text>{group ? t(`groups.${group}`) : '—'}</Text>
            <Text fontSize="xs" color="fg.muted" title={r.projectId} data-testid="record-product">
              {r.projectId.length > 16 ? `${r.projectId.slice(0, 8)}…${r.projectId.slice(-4)}` : r.projectId}
            </Text>
          </Stack>
        )
      },
    },
    { id: 'day', header: t('cols.day'), nowrap: true, cell: (r) => r.date },
    { id: 'time', header: t('cols.time'), nowrap: true, cell: (r) => formatDateTime(r.ctime) },
  ]
}

/**
 * /order/finance (spec §2 orders pages: "finance/staking records"): every
 * money event of the user's savings, stakes, launchpad commitments and
 * crypto loans, newest first; filtered by type (grouped by product) and by
 * coin, a page at a time ("Load more" follows the server's cursor).
 */
export function FinanceRecordsPage() {
  const { t, ready } = financeRecordsTexts.useTexts()
  const common = useTexts('common')
  const [type, setType] = useState<EarnRecordType | ''>('')
  const [coin, setCoin] = useState('')
  const currency = getCurrency()
  const spot = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const q = useInfiniteQuery(earnRecordsQuery(type, coin))
  const rows = q.data?.pages.flatMap((p) => p.list) ?? []
  const typeId = useId()
  const coinId = useId()
  const coins = (spot.data?.coinList ?? []).map((r) => r.coin)
  if (coin && !coins.includes(coin)) coins.push(coin)

  if (!ready) {
    return (
      <Center py="24" gap="2" role="status" data-testid="finance-records-loading">
        <Text color="fg.muted">{common.t('loading')}</Text>
      </Center>
    )
  }

  return (
    <Container maxW="7xl" py={{ base: '4', md: '8' }} px={{ base: '3', md: '6' }} data-testid="finance-records-page">
      <Flex justify="space-between" align={{ base: 'flex-start', md: 'center' }} gap="3" mb="5" direction={{ base: 'column', sm: 'row' }}>
        <Box>
          <Heading as="h1" size="xl">
            {t('title')}
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {t('subtitle')}
          </Text>
        </Box>
        <HStack as="nav" aria-label={t('products')} gap="1" flexWrap="wrap">
          {(Object.keys(GROUP_PAGES) as RecordGroup[]).map((g) => (
            <Button key={g} asChild size="xs" variant="ghost" colorPalette="brand">
              <AppLink href={GROUP_PAGES[g]}>{t(`groups.${g}`)}</AppLink>
            </Button>
          ))}
        </HStack>
      </Flex>

      <HStack as="form" role="search" aria-label={t('filters.label')} gap="3" mb="4" flexWrap="wrap" align="flex-end" onSubmit={(e) => e.preventDefault()}>
        <Stack gap="1" minW={{ base: 'full', sm: '56' }} flex={{ base: '1 1 100%', sm: '0 0 auto' }}>
          <chakra.label htmlFor={typeId} fontSize="sm" color="fg.muted">
            {t('filters.type')}
          </chakra.label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field id={typeId} value={type} onChange={(e) => setType(e.target.value as EarnRecordType | '')} data-testid="records-type">
              <option value="">{t('filters.allTypes')}</option>
              {(Object.keys(RECORD_GROUPS) as RecordGroup[]).map((g) => (
                <optgroup key={g} label={t(`groups.${g}`)}>
                  {RECORD_GROUPS[g].map((v) => (
                    <option key={v} value={v}>
                      {t(`types.${v}`)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        <Stack gap="1" minW={{ base: 'full', sm: '40' }} flex={{ base: '1 1 100%', sm: '0 0 auto' }}>
          <chakra.label htmlFor={coinId} fontSize="sm" color="fg.muted">
            {t('filters.coin')}
          </chakra.label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field id={coinId} value={coin} onChange={(e) => setCoin(e.target.value)} data-testid="records-coin">
              <option value="">{t('filters.allCoins')}</option>
              {coins.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
        {type || coin ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setType('')
              setCoin('')
            }}
            data-testid="records-reset"
          >
            {t('filters.reset')}
          </Button>
        ) : null}
      </HStack>

      <Stack gap="3">
        <DataTable<EarnRecord>
          columns={recordColumns(t)}
          rows={rows}
          rowKey={(r) => `${r.type}:${r.id}`}
          label={t('label')}
          testId="finance-records"
          rowTestId={(r) => `record-${r.type}`}
          isLoading={q.isLoading}
          loadingLabel={common.t('loading')}
          emptyText={type || coin ? t('emptyFiltered') : t('empty')}
          emptyTestId="finance-records-empty"
          error={q.isError ? { text: t('error'), retryText: common.t('retry'), onRetry: () => void q.refetch() } : undefined}
        />
        {q.hasNextPage ? (
          <Center>
            <Button size="sm" variant="outline" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()} data-testid="records-more">
              {t('more')}
            </Button>
          </Center>
        ) : null}
      </Stack>
    </Container>
  )
}
