import { Button, HStack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import type { TranslateFn } from '@/lib/i18n'
import { fetchHistory, securityKeys, type HistoryEntry, type HistoryKind } from '../api/security-api'
import { formatDateTime } from './format'

/** Rows per page of the history tables. */
export const HISTORY_PAGE_SIZE = 10

/** Login or settings history with paging (time, IP, device, action): a table, one card per entry on a phone. */
export function HistoryTable({ kind, t, lan }: { kind: HistoryKind; t: TranslateFn; lan: string }) {
  const [page, setPage] = useState(1)
  const query = useQuery({
    queryKey: securityKeys.history(kind, page, HISTORY_PAGE_SIZE),
    queryFn: ({ signal }) => fetchHistory(kind, page, HISTORY_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  })
  const count = query.data?.count ?? 0
  const pages = Math.max(1, Math.ceil(count / HISTORY_PAGE_SIZE))
  const rows = query.data?.list ?? []

  const columns: DataColumn<HistoryEntry>[] = [
    { id: 'time', header: t('colTime'), card: 'title', cell: (row) => formatDateTime(row.time, lan) },
    { id: 'action', header: t('colAction'), card: 'aside', cell: (row) => row.action },
    { id: 'ip', header: t('colIp'), cell: (row) => <Text as="span" fontFamily="mono">{row.ip || '—'}</Text> },
    {
      id: 'device',
      header: t('colDevice'),
      // The browser and system when known; the app's device id otherwise.
      cell: (row) => (
        <Text as="span" title={row.device || undefined} display="block" maxW={{ md: '16rem' }} truncate>
          {row.deviceName || row.device || '—'}
        </Text>
      ),
    },
  ]

  return (
    <>
      <DataTable<HistoryEntry>
        columns={columns}
        rows={rows}
        rowKey={(row) => `${row.time}-${row.ip}-${row.action}`}
        label={kind === 'login' ? t('loginHistoryTitle') : t('settingHistoryTitle')}
        testId={`${kind}-history`}
        cardsBelow="md"
        isLoading={query.isLoading}
        loadingLabel={t('loading')}
        emptyText={t('empty')}
        size="sm"
      />
      <HStack justify="space-between" mt="3">
        <Text textStyle="sm" color="fg.muted" data-testid={`${kind}-history-page`}>
          {t('pageOf', { page, pages })}
        </Text>
        <HStack gap="2">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            <LuChevronLeft />
            {t('prev')}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={page >= pages || query.isPlaceholderData}
            onClick={() => setPage((p) => p + 1)}
          >
            {t('next')}
            <LuChevronRight />
          </Button>
        </HStack>
      </HStack>
    </>
  )
}
