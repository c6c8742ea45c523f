import { Badge, Button, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import { cancelTrigger, futuresKeys, triggerHistoryQuery, triggerOrdersQuery, type TriggerOrder } from '../api/futures-api'
import { usePollMs } from '../api/live'
import { futuresTexts } from '../lib/texts'
import { pagerLabels, placesFor, TimeCell, useClampPage, usePage, type ContractMap, type ListProps } from './order-lists'
import { notifyTransport, SideText } from './shared'

/** Why a trigger order failed, as a text key (futures texts). */
export function triggerReasonKey(o: Pick<TriggerOrder, 'status' | 'reason'>): string | undefined {
  if (o.status !== 'FAILED') return undefined
  return `triggers.reasons.${['no_position', 'insufficient', 'reduce_only'].includes(o.reason) ? o.reason : 'other'}`
}

/**
 * The columns of a trigger order list: the contract; the side (a
 * position's TP/SL has none: it closes the position, long or short); the
 * order it places; the trigger price with the price it watches (mark or
 * last) and the way it must go (rise or fall to it); the limit price or
 * market; the size or "Close position"; the status (with why it failed);
 * the time it was set (and, in the history, when it ended).
 */
export function triggerColumns(t: TranslateFn, contracts: ContractMap, history: boolean): DataColumn<TriggerOrder>[] {
  const cols: DataColumn<TriggerOrder>[] = [
    { id: 'symbol', header: t('orders.cols.symbol'), card: 'title', nowrap: true, cell: (o) => <Text as="span" fontWeight="semibold">{o.symbol}</Text> },
    {
      id: 'side',
      header: t('orders.cols.side'),
      card: 'title',
      cell: (o) => (
        <Stack as="span" gap="0.5" align="flex-start">
          {/* A position's TP/SL closes whichever side the position is: the server's side (BUY) means nothing there. */}
          {o.side && !o.closePosition ? <SideText side={o.side} t={t} /> : null}
          {o.closePosition ? (
            <Badge size="xs" variant="subtle" data-testid="trigger-close-badge">
              {t('orders.closePosition')}
            </Badge>
          ) : o.reduceOnly ? (
            <Badge size="xs" variant="subtle">
              {t('form.reduceOnly')}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    { id: 'type', header: t('orders.cols.type'), cell: (o) => t(`form.types.${o.type === 'LIMIT' ? 'LIMIT' : 'MARKET'}`) },
    {
      id: 'trigger',
      header: t('triggers.cols.trigger'),
      numeric: true,
      testId: 'trigger-price',
      cell: (o) => (
        <Stack as="span" gap="0" align="flex-end">
          <Text as="span" fontSize="xs" color="fg.muted" data-testid="trigger-condition">
            {t(`triggers.cond.${o.direction === 'FALL' ? 'FALL' : 'RISE'}`, { by: t(`tpsl.by.${o.triggerBy === 'LAST' ? 'LAST' : 'MARK'}`) })}
          </Text>
          <Text as="span">{fixed(o.triggerPrice, placesFor(contracts, o.symbol))}</Text>
        </Stack>
      ),
    },
    {
      id: 'price',
      header: t('orders.cols.price'),
      numeric: true,
      cell: (o) => (o.type === 'LIMIT' && o.price ? fixed(o.price, placesFor(contracts, o.symbol)) : t('orders.market')),
    },
    {
      id: 'volume',
      header: t('orders.cols.volume'),
      numeric: true,
      testId: 'trigger-volume',
      cell: (o) => (o.closePosition ? t('orders.closePosition') : `${fixed(o.volume, 0)} ${t('form.cont')}`),
    },
    {
      id: 'status',
      header: t('orders.cols.status'),
      card: 'aside',
      cell: (o) => {
        const why = triggerReasonKey(o)
        return (
          <Stack as="span" gap="0" align={{ base: 'flex-end', md: 'flex-start' }}>
            <Text as="span" data-testid="trigger-status" color={o.status === 'FAILED' ? 'fg.error' : undefined}>
              {t(`triggers.status.${o.status}`)}
            </Text>
            {why && (
              <Text as="span" fontSize="xs" color="fg.muted" data-testid="trigger-reason">
                {t(why)}
              </Text>
            )}
          </Stack>
        )
      },
    },
    { id: 'time', header: t('orders.cols.time'), nowrap: true, cell: (o, layout) => <TimeCell ms={o.ctime} layout={layout} /> },
  ]
  if (!history) return cols
  return [
    ...cols,
    {
      id: 'ended',
      header: t('triggers.cols.ended'),
      nowrap: true,
      cell: (o, layout) => (o.status === 'NOT_TRIGGERED' || !o.mtime ? '—' : <TimeCell ms={o.mtime} layout={layout} />),
    },
  ]
}

/**
 * The user's waiting trigger orders (stop and take-profit orders, the
 * positions' TP/SL among them), each with Cancel; polled as the open
 * orders. The first page of every contract is the query the positions read
 * their TP/SL from.
 */
export function TriggerOrdersList({ symbol, contracts, layout = 'auto', pageSize = 100, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  const queryClient = useQueryClient()
  const [page, setPage] = usePage(paging)
  const poll = usePollMs()
  const query = useQuery({ ...triggerOrdersQuery(symbol, page, pageSize), enabled: isSignedIn, placeholderData: keepPreviousData, refetchInterval: poll })
  useClampPage(page, query.data?.count, pageSize, setPage)
  // Trigger orders whose cancel is on its way: their button waits until the refreshed list has them or not.
  const cancelling = useRef(new Set<string>())
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set())
  const settle = (id: string) => {
    cancelling.current.delete(id)
    setBusy(new Set(cancelling.current))
  }
  const cancel = useMutation({
    mutationFn: (o: TriggerOrder) => cancelTrigger(o.triggerId),
    onMutate: () => setBusy(new Set(cancelling.current)),
    onSuccess: async (_d, o) => {
      notifySuccess(t('triggers.cancelled'))
      await queryClient.invalidateQueries({ queryKey: futuresKeys.triggers })
      settle(o.triggerId)
    },
    onError: (e, o) => {
      notifyTransport(e, t('common.unreachable'))
      void queryClient.invalidateQueries({ queryKey: futuresKeys.triggers })
      settle(o.triggerId)
    },
  })
  const columns = useMemo(() => triggerColumns(t, contracts, false), [t, contracts])
  return (
    <Stack gap="2">
      <DataTable
        layout={layout}
        columns={columns}
        rows={query.data?.triggerList ?? []}
        rowKey={(o) => o.triggerId}
        label={t('triggers.open')}
        testId="futures-trigger-orders"
        rowTestId="futures-trigger-row"
        isLoading={query.isLoading}
        loadingLabel={t('orders.loading')}
        error={query.isError ? { text: t('triggers.error'), retryText: t('common.retry'), onRetry: () => void query.refetch() } : undefined}
        emptyText={t('triggers.emptyOpen')}
        emptyTestId="futures-trigger-orders-empty"
        actionsLabel={t('orders.cols.actions')}
        stickyActions
        actions={(o) => (
          <Button
            size="2xs"
            variant="outline"
            aria-label={t('triggers.cancelOf', { symbol: o.symbol, id: o.triggerId })}
            loading={busy.has(o.triggerId)}
            onClick={() => {
              if (cancelling.current.has(o.triggerId)) return
              cancelling.current.add(o.triggerId)
              cancel.mutate(o)
            }}
            data-testid="futures-cancel-trigger"
          >
            {t('orders.cancel')}
          </Button>
        )}
      />
      <Pager page={page} pageSize={pageSize} count={query.data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(t, t('triggers.open'))} testId="futures-trigger-orders-pager" />
    </Stack>
  )
}

/** The user's trigger orders that fired, were cancelled or failed, and the waiting ones, newest first. */
export function TriggerHistoryList({ symbol, contracts, layout = 'auto', pageSize = 10, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  const [page, setPage] = usePage(paging)
  const poll = usePollMs(4)
  const query = useQuery({ ...triggerHistoryQuery(symbol, page, pageSize), enabled: isSignedIn, placeholderData: keepPreviousData, refetchInterval: poll })
  useClampPage(page, query.data?.count, pageSize, setPage)
  const columns = useMemo(() => triggerColumns(t, contracts, true), [t, contracts])
  return (
    <Stack gap="2">
      <DataTable
        layout={layout}
        columns={columns}
        rows={query.data?.triggerList ?? []}
        rowKey={(o) => o.triggerId}
        label={t('triggers.history')}
        testId="futures-trigger-history"
        rowTestId="futures-trigger-row"
        isLoading={query.isLoading}
        loadingLabel={t('orders.loading')}
        error={query.isError ? { text: t('triggers.error'), retryText: t('common.retry'), onRetry: () => void query.refetch() } : undefined}
        emptyText={t('triggers.emptyHistory')}
        emptyTestId="futures-trigger-history-empty"
      />
      <Pager page={page} pageSize={pageSize} count={query.data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(t, t('triggers.history'))} testId="futures-trigger-history-pager" />
    </Stack>
  )
}
