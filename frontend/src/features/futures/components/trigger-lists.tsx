import { Badge, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { DataColumn } from '@/components/data/data-table'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { cancelTrigger, futuresKeys, triggerHistoryQuery, triggerOrdersQuery, type TriggerOrder } from '../api/futures-api'
import { hedgeSideOf } from '../lib/hedge'
import { futuresTexts } from '../lib/texts'
import { placesFor, TimeCell, type ContractMap, type ListProps } from './order-lists'
import { CancelButton, PagedList, useCancelRows } from './paged-list'
import { SideText } from './shared'

/** Why a trigger order failed (or was cancelled with its unfilled order), as a text key (futures texts). */
export function triggerReasonKey(o: Pick<TriggerOrder, 'status' | 'reason'>): string | undefined {
  if (o.status === 'CANCELED' && o.reason === 'order_canceled') return 'triggers.reasons.order_canceled'
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
          {/* A one-way position's TP/SL closes whichever side the position is: the server's side (BUY) means nothing there; in hedge mode it names the position it closes. */}
          {o.side && (!o.closePosition || hedgeSideOf(o)) ? <SideText side={o.side} positionSide={o.positionSide} t={t} /> : null}
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
  const queryClient = useQueryClient()
  const cancel = useCancelRows<TriggerOrder>({
    id: (o) => o.triggerId,
    cancel: (o) => cancelTrigger(o.triggerId),
    done: t('triggers.cancelled'),
    refresh: () => queryClient.invalidateQueries({ queryKey: futuresKeys.triggers }),
  })
  const columns = useMemo(() => triggerColumns(t, contracts, false), [t, contracts])
  return (
    <PagedList
      {...{ symbol, layout, pageSize, paging, columns }}
      query={triggerOrdersQuery}
      rows={(d) => d.triggerList}
      rowKey={(o) => o.triggerId}
      label={t('triggers.open')}
      testId="futures-trigger-orders"
      rowTestId="futures-trigger-row"
      loadingLabel={t('orders.loading')}
      errorText={t('triggers.error')}
      emptyText={t('triggers.emptyOpen')}
      actions={(o) => (
        <CancelButton label={t('triggers.cancelOf', { symbol: o.symbol, id: o.triggerId })} busy={cancel.isBusy(o)} onClick={() => cancel.start(o)} testId="futures-cancel-trigger" />
      )}
    />
  )
}

/** The user's trigger orders that fired, were cancelled or failed, and the waiting ones, newest first. */
export function TriggerHistoryList({ symbol, contracts, layout = 'auto', pageSize = 10, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const columns = useMemo(() => triggerColumns(t, contracts, true), [t, contracts])
  return (
    <PagedList
      {...{ symbol, layout, pageSize, paging, columns }}
      history
      query={triggerHistoryQuery}
      rows={(d) => d.triggerList}
      rowKey={(o) => o.triggerId}
      label={t('triggers.history')}
      testId="futures-trigger-history"
      rowTestId="futures-trigger-row"
      loadingLabel={t('orders.loading')}
      errorText={t('triggers.error')}
      emptyText={t('triggers.emptyHistory')}
    />
  )
}
