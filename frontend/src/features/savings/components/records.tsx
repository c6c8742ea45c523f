import { Badge, Box, Button, Center, chakra, Heading, HStack, NativeSelect, Stack } from '@chakra-ui/react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { formatDateTime } from '@/lib/date-time'
import { formatAtLeast } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { RECORD_TYPES, recordsQuery, type RecordType, type SavingsRecord } from '../api/savings-api'

/** Badge colours of the record types: money in green, out orange, interest blue. */
const TYPE_COLORS: Record<RecordType, string> = {
  subscribe: 'green',
  redeem_fast: 'orange',
  redeem_standard: 'orange',
  interest: 'blue',
  payout: 'purple',
}

function recordColumns(t: TranslateFn, places: (coin: string) => number): DataColumn<SavingsRecord>[] {
  return [
    {
      id: 'type',
      header: t('records.type'),
      card: 'title',
      cell: (r) => (
        <Badge colorPalette={TYPE_COLORS[r.type] ?? 'gray'} variant="subtle" data-testid="record-type">
          {t(`records.types.${r.type}`) || r.type}
        </Badge>
      ),
    },
    {
      id: 'amount',
      header: t('records.amount'),
      numeric: true,
      card: 'aside',
      testId: 'record-amount',
      cell: (r) => `${formatAtLeast(r.amount, places(r.coinSymbol))} ${r.coinSymbol}`,
    },
    { id: 'day', header: t('records.day'), nowrap: true, cell: (r) => r.date },
    { id: 'time', header: t('records.time'), nowrap: true, cell: (r) => formatDateTime(r.ctime) },
  ]
}

/**
 * The finance records of savings, newest first: subscriptions, redemptions,
 * interest and payouts, filtered by type, a page at a time ("Load more"
 * follows the server's cursor).
 */
export function Records({ t, places, loadingText, retryText }: { t: TranslateFn; places: (coin: string) => number; loadingText: string; retryText: string }) {
  const [type, setType] = useState<RecordType | ''>('')
  const q = useInfiniteQuery(recordsQuery(type))
  const rows = q.data?.pages.flatMap((p) => p.list) ?? []
  const titleId = useId()
  const filterId = useId()
  return (
    <Box as="section" aria-labelledby={titleId} data-testid="savings-records">
      <HStack justify="space-between" align="center" gap="3" mb="3" flexWrap="wrap">
        <Heading as="h2" size="lg" id={titleId}>
          {t('records.title')}
        </Heading>
        <HStack gap="2">
          <chakra.label htmlFor={filterId} fontSize="sm" color="fg.muted">
            {t('records.type')}
          </chakra.label>
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field id={filterId} value={type} onChange={(e) => setType(e.target.value as RecordType | '')} data-testid="records-type">
              <option value="">{t('records.all')}</option>
              {RECORD_TYPES.map((v) => (
                <option key={v} value={v}>
                  {t(`records.types.${v}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </HStack>
      </HStack>
      <Stack gap="3">
        <DataTable<SavingsRecord>
          columns={recordColumns(t, places)}
          rows={rows}
          rowKey={(r) => r.id}
          label={t('records.label')}
          testId="records-table"
          rowTestId={(r) => `record-${r.type}`}
          isLoading={q.isLoading}
          loadingLabel={loadingText}
          emptyText={t('records.empty')}
          emptyTestId="records-empty"
          error={q.isError ? { text: t('records.error'), retryText, onRetry: () => void q.refetch() } : undefined}
        />
        {q.hasNextPage ? (
          <Center>
            <Button size="sm" variant="outline" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()} data-testid="records-more">
              {t('records.more')}
            </Button>
          </Center>
        ) : null}
      </Stack>
    </Box>
  )
}
