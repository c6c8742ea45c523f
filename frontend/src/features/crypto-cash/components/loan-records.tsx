import { Badge, Button, Center, Stack, Tabs } from '@chakra-ui/react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { LOAN_RECORD_LISTS, loanRecordsQuery, type EarnRecord, type LoanRecordList } from '@/features/earn-records/api/records-api'
import { decimalsOf } from '@/features/staking/lib/amounts'
import { formatDateTime } from '@/lib/date-time'
import { formatAtLeast, isPositive } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'

const LISTS = Object.keys(LOAN_RECORD_LISTS) as LoanRecordList[]

/** A loan id as the records show it: its start and end ('lc11a7…9f3a'). */
export const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id)

function columns(t: TranslateFn, list: LoanRecordList): DataColumn<EarnRecord>[] {
  return [
    {
      id: 'type',
      header: t('records.type'),
      card: 'title',
      cell: (r) => {
        // A collateral change taken back is negative.
        const kind = list === 'collateral' ? (isPositive(r.amount) ? 'added' : 'removed') : list
        return (
          <Badge colorPalette={list === 'liquidation' ? 'red' : kind === 'removed' ? 'orange' : 'green'} variant="subtle" data-testid="loan-record-type">
            {t(`records.kinds.${kind}`)}
          </Badge>
        )
      },
    },
    {
      id: 'amount',
      header: t('records.amount'),
      numeric: true,
      card: 'aside',
      testId: 'loan-record-amount',
      cell: (r) => {
        const abs = r.amount.replace(/^-/, '')
        return `${formatAtLeast(abs, decimalsOf(abs) ?? 2)} ${r.coinSymbol}`
      },
    },
    { id: 'loan', header: t('records.loan'), nowrap: true, cell: (r) => <span title={r.projectId}>{shortId(r.projectId)}</span> },
    { id: 'time', header: t('records.time'), nowrap: true, cell: (r) => formatDateTime(r.ctime) },
  ]
}

function RecordList({ t, list, loadingText, retryText }: { t: TranslateFn; list: LoanRecordList; loadingText: string; retryText: string }) {
  const q = useInfiniteQuery(loanRecordsQuery(list))
  const rows = q.data?.pages.flatMap((p) => p.list) ?? []
  return (
    <Stack gap="3">
      <DataTable<EarnRecord>
        columns={columns(t, list)}
        rows={rows}
        rowKey={(r) => r.id}
        label={t(`records.tabs.${list}`)}
        testId={`loan-records-${list}`}
        rowTestId={`loan-record-${list}`}
        isLoading={q.isLoading}
        loadingLabel={loadingText}
        emptyText={t(`records.empty.${list}`)}
        emptyTestId={`loan-records-${list}-empty`}
        error={q.isError ? { text: t('records.error'), retryText, onRetry: () => void q.refetch() } : undefined}
      />
      {q.hasNextPage ? (
        <Center>
          <Button size="sm" variant="outline" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()} data-testid={`loan-records-${list}-more`}>
            {t('records.more')}
          </Button>
        </Center>
      ) : null}
    </Stack>
  )
}

/** The loan records in tabs: repayments, collateral changes and liquidations, newest first, a page at a time. */
export function LoanRecords({ t, loadingText, retryText }: { t: TranslateFn; loadingText: string; retryText: string }) {
  return (
    <Tabs.Root defaultValue="repay" lazyMount unmountOnExit size={{ base: 'sm', md: 'md' }} data-testid="loan-records">
      <Tabs.List overflowX="auto" overflowY="hidden">
        {LISTS.map((l) => (
          <Tabs.Trigger key={l} value={l} whiteSpace="nowrap" flexShrink={0} data-testid={`loan-records-tab-${l}`}>
            {t(`records.tabs.${l}`)}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {LISTS.map((l) => (
        <Tabs.Content key={l} value={l} pt="4">
          <RecordList t={t} list={l} loadingText={loadingText} retryText={retryText} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}
