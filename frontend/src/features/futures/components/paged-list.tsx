import { Button, Stack } from '@chakra-ui/react'
import { keepPreviousData, useMutation, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { DataTable, type DataColumn, type DataLayout } from '@/components/data/data-table'
import { Pager, pageCount, type PagerLabels } from '@/components/data/pager'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import { usePollMs } from '../api/live'
import { futuresTexts } from '../lib/texts'
import { notifyTransport } from './shared'

/** Pager texts (futures texts). */
export function pagerLabels(t: TranslateFn, nav: string): PagerLabels {
  return {
    nav,
    prev: t('pager.prev'),
    next: t('pager.next'),
    page: (page) => t('pager.page', { page }),
    status: (page, pages) => t('pager.status', { page, pages }),
  }
}

/** A page that no longer exists (orders were cancelled or filled meanwhile) falls back to the last one. */
export function useClampPage(page: number, count: number | undefined, pageSize: number, setPage: (p: number) => void) {
  useEffect(() => {
    if (count !== undefined && count > 0 && page > pageCount(count, pageSize)) setPage(pageCount(count, pageSize))
  }, [page, count, pageSize, setPage])
}

/** A list's paging: its own state, or the page's (the orders page keeps the page in the address). */
export function usePage(controlled?: { page: number; onPage: (p: number) => void }) {
  const [own, setOwn] = useState(1)
  return controlled ? ([controlled.page, controlled.onPage] as const) : ([own, setOwn] as const)
}

/** Props of {@link PagedList}. */
export interface PagedListProps<D extends { count: number }, T, K extends QueryKey> {
  /** Only this contract's (all contracts without one). */
  symbol?: string
  layout?: DataLayout | 'auto'
  pageSize: number
  paging?: { page: number; onPage: (p: number) => void }
  /** The page's query (futures-api.ts). */
  query: (symbol: string | undefined, page: number, pageSize: number) => UseQueryOptions<D, Error, D, K>
  /** A history, read a quarter as often as the open lists (usePollMs(4)). */
  history?: boolean
  rows: (data: D) => T[]
  columns: DataColumn<T>[]
  rowKey: (row: T) => string
  /** The list's name (the table's, the pager's). */
  label: string
  /** The table's; its pager is `${testId}-pager`, its empty state `${testId}-empty`. */
  testId: string
  rowTestId: string
  loadingLabel: string
  errorText: string
  emptyText: string
  /** Each row's buttons (Cancel). */
  actions?: (row: T) => ReactNode
}

/**
 * A list of the signed-in user's futures records a page at a time: the
 * page's query (polled as the lists are: every 2 s, 10 s while user_futures
 * tells of each change, a history a quarter as often; the previous page
 * stays while the next loads), the table or cards with their loading, error
 * (with a retry) and empty states, and the pager. The open orders, trigger
 * orders and the histories are each one of these with their own columns.
 */
export function PagedList<D extends { count: number }, T, K extends QueryKey>({
  symbol,
  layout = 'auto',
  pageSize,
  paging,
  query: queryOf,
  history,
  rows,
  columns,
  rowKey,
  label,
  testId,
  rowTestId,
  loadingLabel,
  errorText,
  emptyText,
  actions,
}: PagedListProps<D, T, K>) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  const [page, setPage] = usePage(paging)
  const poll = usePollMs(history ? 4 : undefined)
  const query = useQuery({ ...queryOf(symbol, page, pageSize), enabled: isSignedIn, placeholderData: keepPreviousData, refetchInterval: poll })
  useClampPage(page, query.data?.count, pageSize, setPage)
  return (
    <Stack gap="2">
      <DataTable
        layout={layout}
        columns={columns}
        rows={query.data ? rows(query.data) : []}
        rowKey={rowKey}
        label={label}
        testId={testId}
        rowTestId={rowTestId}
        isLoading={query.isLoading}
        loadingLabel={loadingLabel}
        error={query.isError ? { text: errorText, retryText: t('common.retry'), onRetry: () => void query.refetch() } : undefined}
        emptyText={emptyText}
        emptyTestId={`${testId}-empty`}
        {...(actions ? { actionsLabel: t('orders.cols.actions'), stickyActions: true, actions } : {})}
      />
      <Pager page={page} pageSize={pageSize} count={query.data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(t, label)} testId={`${testId}-pager`} />
    </Stack>
  )
}

/**
 * Cancelling rows of a list (open orders, trigger orders): one request per
 * row however often its button is pressed; the button waits until the
 * refreshed list has the row or not. A refusal has had the server's toast;
 * no answer at all gets the screen's own words.
 */
export function useCancelRows<T>({ id, cancel, done, refresh }: { id: (row: T) => string; cancel: (row: T) => Promise<unknown>; done: string; refresh: () => Promise<unknown> }) {
  const { t } = futuresTexts.useTexts()
  const cancelling = useRef(new Set<string>())
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set())
  const settle = (key: string) => {
    cancelling.current.delete(key)
    setBusy(new Set(cancelling.current))
  }
  const mutation = useMutation({
    mutationFn: cancel,
    onMutate: () => setBusy(new Set(cancelling.current)),
    onSuccess: async (_d, row) => {
      notifySuccess(done)
      await refresh()
      settle(id(row))
    },
    onError: (e, row) => {
      notifyTransport(e, t('common.unreachable'))
      void refresh()
      settle(id(row))
    },
  })
  return {
    isBusy: (row: T) => busy.has(id(row)),
    start: (row: T) => {
      if (cancelling.current.has(id(row))) return
      cancelling.current.add(id(row))
      mutation.mutate(row)
    },
  }
}

/** A row's Cancel button. */
export function CancelButton({ label, busy, onClick, testId }: { label: string; busy: boolean; onClick: () => void; testId: string }) {
  const { t } = futuresTexts.useTexts()
  return (
    <Button size="2xs" variant="outline" aria-label={label} loading={busy} onClick={onClick} data-testid={testId}>
      {t('orders.cancel')}
    </Button>
  )
}
