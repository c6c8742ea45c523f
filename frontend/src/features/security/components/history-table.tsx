import { Button, HStack, Skeleton, Table, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu'
import type { TranslateFn } from '@/lib/i18n'
import { fetchHistory, securityKeys, type HistoryKind } from '../api/security-api'
import { formatDateTime } from './format'

/** Rows per page of the history tables. */
export const HISTORY_PAGE_SIZE = 10

/** Login or settings history with paging (time, IP, device, action). */
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

  return (
    <>
      <Table.ScrollArea borderWidth="1px" rounded="md">
        <Table.Root size="sm" striped data-testid={`${kind}-history`} minW={{ base: 'full', md: '36rem' }}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('colTime')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('colIp')}</Table.ColumnHeader>
              <Table.ColumnHeader hideBelow="md">{t('colDevice')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('colAction')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {query.isLoading &&
              Array.from({ length: 3 }, (_, i) => (
                <Table.Row key={`loading-${i}`}>
                  <Table.Cell colSpan={4}>
                    <Skeleton height="4" />
                  </Table.Cell>
                </Table.Row>
              ))}
            {!query.isLoading && rows.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={4}>
                  <Text color="fg.muted" textAlign="center" py="4">
                    {t('empty')}
                  </Text>
                </Table.Cell>
              </Table.Row>
            )}
            {rows.map((row, i) => (
              <Table.Row key={`${row.time}-${i}`}>
                <Table.Cell whiteSpace={{ base: 'normal', md: 'nowrap' }}>{formatDateTime(row.time, lan)}</Table.Cell>
                <Table.Cell fontFamily="mono">{row.ip || '—'}</Table.Cell>
                <Table.Cell maxW="16rem" truncate title={row.device} hideBelow="md">
                  {row.device || '—'}
                </Table.Cell>
                <Table.Cell>{row.action}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
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
