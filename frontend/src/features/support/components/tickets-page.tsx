import { Badge, Box, Button, EmptyState, HStack, Link as ChakraLink, SegmentGroup, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { LuLifeBuoy, LuPlus } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { PageFrame } from '@/components/layout/page-frame'
import { formatDateTime } from '@/lib/date-time'
import type { TranslateFn } from '@/lib/i18n'
import { fetchTickets } from '../api/problem-list'
import { supportKeys, type Ticket } from '../api/types'
import { TICKET_FILTERS, type TicketFilter, type TicketListSearch } from '../lib/search'
import { statusPalette } from '../lib/status'
import { supportTexts } from '../lib/texts'

/** Tickets per page of the list. */
export const TICKET_PAGE_SIZE = 10

/** A ticket's state as a badge. */
export function StatusBadge({ status, t }: { status: string; t: TranslateFn }) {
  return (
    <Badge colorPalette={statusPalette(status)} variant="subtle" data-testid="ticket-status" data-status={status}>
      {t(`status.${status}`) || status}
    </Badge>
  )
}

/**
 * /profile/support: the user's tickets, newest first, filtered by state and
 * paged (a table on wide screens, one card per ticket on a phone), with an
 * empty state that leads to a new ticket.
 */
export function TicketsPage({ search, onSearch }: { search: TicketListSearch; onSearch: (next: TicketListSearch) => void }) {
  const { t } = supportTexts.useTexts()
  const filterId = useId()
  const status: TicketFilter = search.status ?? 'all'
  const page = search.page ?? 1
  const query = useQuery({
    queryKey: supportKeys.list(status, page, TICKET_PAGE_SIZE),
    queryFn: ({ signal }) => fetchTickets({ status: status === 'all' ? '' : status, page, pageSize: TICKET_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: true,
  })
  const rows = query.data?.list ?? []
  const count = query.data?.count ?? 0

  const columns: DataColumn<Ticket>[] = [
    {
      id: 'subject',
      header: t('list.colSubject'),
      card: 'title',
      cell: (row) => (
        <HStack gap="2" minW="0" flexWrap="wrap">
          <ChakraLink asChild fontWeight="medium" colorPalette="brand">
            <Link to="/profile/support/$id" params={{ id: row.id }} data-testid="ticket-link">
              {row.title}
            </Link>
          </ChakraLink>
          {row.status === 'answered' && row.lastBy === 'support' && (
            <Badge colorPalette="brand" variant="solid" size="sm">
              {t('list.newAnswer')}
            </Badge>
          )}
        </HStack>
      ),
    },
    { id: 'status', header: t('list.colStatus'), card: 'aside', nowrap: true, cell: (row) => <StatusBadge status={row.status} t={t} /> },
    { id: 'type', header: t('list.colType'), nowrap: true, cell: (row) => t(`types.${row.type}`) || row.type },
    { id: 'id', header: t('list.colId'), nowrap: true, cell: (row) => <Text as="span" fontFamily="mono" textStyle="xs">{row.id}</Text> },
    { id: 'updated', header: t('list.colUpdated'), nowrap: true, cell: (row) => formatDateTime(row.updatedAt) },
    { id: 'messages', header: t('list.colMessages'), numeric: true, cell: (row) => row.messages },
  ]

  const empty = !query.isLoading && !query.isError && rows.length === 0
  return (
    <PageFrame
      title={t('title')}
      subtitle={t('subtitle')}
      action={
        <Button asChild colorPalette="brand" data-testid="new-ticket">
          <Link to="/profile/support/new">
            <LuPlus aria-hidden="true" />
            {t('newTicket')}
          </Link>
        </Button>
      }
    >
      <Stack gap="2">
        <Text id={filterId} textStyle="sm" color="fg.muted">
          {t('filterLabel')}
        </Text>
        <Box overflowX="auto" maxW="full">
          <SegmentGroup.Root
            size="sm"
            aria-labelledby={filterId}
            value={status}
            onValueChange={(d) => {
              const next = d.value as TicketFilter | null
              if (next) onSearch({ status: next === 'all' ? undefined : next, page: undefined })
            }}
            data-testid="ticket-filter"
          >
            <SegmentGroup.Indicator />
            <SegmentGroup.Items items={TICKET_FILTERS.map((f) => ({ value: f, label: t(`filter.${f}`) }))} />
          </SegmentGroup.Root>
        </Box>
      </Stack>

      {empty ? (
        <EmptyState.Root borderWidth="1px" rounded="lg" data-testid="tickets-empty">
          <EmptyState.Content>
            <EmptyState.Indicator>
              <LuLifeBuoy />
            </EmptyState.Indicator>
            <Stack textAlign="center" gap="1">
              <EmptyState.Title>{status === 'all' ? t('list.empty') : t('list.emptyFiltered')}</EmptyState.Title>
              {status === 'all' && <EmptyState.Description>{t('list.emptyHint')}</EmptyState.Description>}
            </Stack>
            {status === 'all' && (
              <Button asChild colorPalette="brand" variant="outline" size="sm">
                <Link to="/profile/support/new">{t('newTicket')}</Link>
              </Button>
            )}
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <DataTable<Ticket>
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('list.label')}
          testId="tickets"
          rowTestId="ticket-row"
          cardsBelow="md"
          isLoading={query.isLoading}
          loadingLabel={t('loading')}
          emptyText={t('list.empty')}
          error={query.isError ? { text: t('list.loadError'), retryText: t('retry'), onRetry: () => void query.refetch() } : undefined}
          size="sm"
        />
      )}

      <Pager
        page={page}
        pageSize={TICKET_PAGE_SIZE}
        count={count}
        onPageChange={(next) => onSearch({ status: search.status, page: next > 1 ? next : undefined })}
        labels={{
          nav: t('list.pagerNav'),
          prev: t('list.prev'),
          next: t('list.next'),
          page: (p) => t('list.page', { page: p }),
          status: (p, pages) => t('list.pageOf', { page: p, pages }),
        }}
        testId="tickets-pager"
      />
    </PageFrame>
  )
}
