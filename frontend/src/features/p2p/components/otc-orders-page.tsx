import { Button, Tabs, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { AppLink } from '@/components/layout/app-link'
import { PageFrame } from '@/components/layout/page-frame'
import { formatDateTime } from '@/lib/date-time'
import { fixed } from '@/lib/decimal'
import { fetchOrders } from '../api/p2p-api'
import { p2pKeys, type Order } from '../api/types'
import { trimZeros } from '../lib/amounts'
import { orderHref } from '../lib/search-values'
import type { P2PSearch as OtcOrdersSearch } from '../lib/search-values'
import { p2pTexts } from '../lib/texts'
import { OrderStatusBadge, PageSkeleton, pagerLabels } from './shared'

export const OTC_ORDERS_PAGE_SIZE = 10

/**
 * /order/otc?tab=&page= (spec §2 "orders (... OTC ...)"): the caller's P2P
 * orders in two tabs, processing (unfinished) and finished, newest first,
 * paged, each with its state label (spec §4) and a link to its page.
 */
export function OtcOrdersPage({ search, onSearch }: { search: OtcOrdersSearch; onSearch: (next: OtcOrdersSearch) => void }) {
  const { t, ready } = p2pTexts.useTexts()
  const tab = search.tab === 'finished' ? 'finished' : 'processing'
  const page = search.page ?? 1
  const orders = useQuery({
    queryKey: p2pKeys.orderList(tab, page, OTC_ORDERS_PAGE_SIZE),
    queryFn: ({ signal }) => fetchOrders(tab, page, OTC_ORDERS_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
    refetchInterval: tab === 'processing' ? 15_000 : false,
  })

  if (!ready) return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>

  const columns: DataColumn<Order>[] = [
    {
      id: 'type',
      header: t('orders.colType'),
      card: 'title',
      cell: (o) => (
        <Text as="span" fontWeight="semibold" color={o.side === 'BUY' ? 'green.fg' : 'red.fg'} whiteSpace="nowrap">
          {t(`side.${o.side}`)} {o.coinSymbol}
        </Text>
      ),
    },
    { id: 'status', header: t('orders.colStatus'), card: 'aside', cell: (o) => <OrderStatusBadge order={o} t={t} testId="otc-order-status" /> },
    { id: 'total', header: t('order.total'), numeric: true, cell: (o) => `${fixed(o.totalPrice, 2)} ${o.paySymbol}` },
    { id: 'price', header: t('order.price'), numeric: true, cell: (o) => `${fixed(o.price, 2)} ${o.paySymbol}` },
    { id: 'volume', header: t('order.volume'), numeric: true, cell: (o) => `${trimZeros(o.volume)} ${o.coinSymbol}` },
    {
      id: 'counterparty',
      header: t('orders.colCounterparty'),
      cell: (o) => (o.side === 'BUY' ? o.sellerNickName || o.sellerUid : o.buyerNickName || o.buyerUid),
    },
    { id: 'time', header: t('orders.colTime'), nowrap: true, cell: (o) => formatDateTime(o.ctime, { seconds: false }) },
    { id: 'id', header: t('orders.colOrder'), card: 'line', cell: (o) => <Text as="span" fontFamily="mono" textStyle="xs">{o.sequence || o.id}</Text> },
  ]

  return (
    <PageFrame title={t('orders.title')} subtitle={t('orders.subtitle')} maxW="7xl" testId="otc-orders">
      <Tabs.Root value={tab} onValueChange={(d) => onSearch({ tab: d.value === 'finished' ? 'finished' : undefined, page: undefined })} variant="line">
        <Tabs.List>
          <Tabs.Trigger value="processing" data-testid="otc-tab-processing">
            {t('orders.processing')}
          </Tabs.Trigger>
          <Tabs.Trigger value="finished" data-testid="otc-tab-finished">
            {t('orders.finished')}
          </Tabs.Trigger>
        </Tabs.List>
      </Tabs.Root>
      <DataTable
        columns={columns}
        rows={orders.data?.orderList ?? []}
        rowKey={(o) => o.id}
        label={t(tab === 'processing' ? 'orders.processing' : 'orders.finished')}
        actions={(o) => (
          <Button asChild size="xs" variant="outline">
            <AppLink href={orderHref(o.id)} data-testid="otc-order-view" aria-label={t('orders.viewLabel', { id: o.sequence || o.id })}>
              {t('orders.view')}
            </AppLink>
          </Button>
        )}
        actionsLabel={t('trading.colAction')}
        stickyActions
        testId="otc-order-list"
        rowTestId="otc-order-row"
        isLoading={orders.isPending}
        loadingLabel={t('loading')}
        emptyText={t(tab === 'processing' ? 'orders.emptyProcessing' : 'orders.emptyFinished')}
        emptyTestId="otc-orders-empty"
        error={orders.isError ? { text: t('orders.loadError'), retryText: t('retry'), onRetry: () => void orders.refetch() } : undefined}
      />
      <Pager
        page={page}
        pageSize={OTC_ORDERS_PAGE_SIZE}
        count={orders.data?.count ?? 0}
        onPageChange={(p) => onSearch({ ...search, page: p > 1 ? p : undefined })}
        labels={pagerLabels(t)}
        testId="otc-orders-pager"
      />
    </PageFrame>
  )
}
