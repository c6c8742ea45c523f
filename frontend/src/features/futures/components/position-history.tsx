import { Badge, HStack, Text } from '@chakra-ui/react'
import { useMemo } from 'react'
import type { DataColumn } from '@/components/data/data-table'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { closedPositionsQuery, type ClosedPosition } from '../api/futures-api'
import { contracts as contractCount, money, pnlColor, signedMoney } from '../lib/format'
import { futuresTexts } from '../lib/texts'
import { placesFor, TimeCell, useCoin, type ContractMap, type ListProps } from './order-lists'
import { PagedList } from './paged-list'
import { PositionSideText } from './shared'

/**
 * The columns of the position history: the contract with the side (and a
 * Liquidated badge when a liquidation closed it), the largest size it
 * had, the average entry and exit prices, the realized PnL (coloured), the
 * fees its orders paid, and when it opened and closed.
 */
export function closedColumns(t: TranslateFn, contracts: ContractMap, coin: (symbol: string) => string): DataColumn<ClosedPosition>[] {
  return [
    {
      id: 'symbol',
      header: t('orders.cols.symbol'),
      card: 'title',
      cell: (p) => (
        <HStack as="span" gap="1.5" wrap="wrap">
          <Text as="span" fontWeight="semibold">
            {p.symbol}
          </Text>
          <PositionSideText side={p.side} t={t} />
          {p.liquidated && (
            <Badge size="xs" colorPalette="red" variant="subtle" data-testid="closed-liquidated">
              {t('closed.liquidated')}
            </Badge>
          )}
        </HStack>
      ),
    },
    { id: 'size', header: t('closed.cols.maxSize'), numeric: true, testId: 'closed-size', cell: (p) => `${contractCount(p.maxVolume)} ${t('form.cont')}` },
    { id: 'entry', header: t('positions.cols.entry'), numeric: true, testId: 'closed-entry', cell: (p) => fixed(p.openPrice, placesFor(contracts, p.symbol)) },
    { id: 'exit', header: t('closed.cols.exit'), numeric: true, testId: 'closed-exit', cell: (p) => fixed(p.closePrice, placesFor(contracts, p.symbol)) },
    {
      id: 'pnl',
      header: t('orders.cols.realizedPnl'),
      numeric: true,
      testId: 'closed-pnl',
      cell: (p) => (
        <Text as="span" color={pnlColor(p.realizedPnl)} fontWeight="medium">
          {signedMoney(p.realizedPnl)} {coin(p.symbol)}
        </Text>
      ),
    },
    { id: 'fee', header: t('orders.cols.fee'), numeric: true, testId: 'closed-fee', cell: (p) => `${money(p.fee)} ${coin(p.symbol)}` },
    { id: 'opened', header: t('closed.cols.opened'), nowrap: true, cell: (p, layout) => <TimeCell ms={p.openTime} layout={layout} /> },
    { id: 'closed', header: t('closed.cols.closed'), nowrap: true, cell: (p, layout) => <TimeCell ms={p.closeTime} layout={layout} /> },
  ]
}

/** The user's closed positions, newest first (the latest 1,000), a page at a time. */
export function PositionHistoryList({ symbol, contracts, layout = 'auto', pageSize = 10, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const coin = useCoin(contracts)
  const columns = useMemo(() => closedColumns(t, contracts, coin), [t, contracts, coin])
  return (
    <PagedList
      {...{ symbol, layout, pageSize, paging, columns }}
      history
      query={closedPositionsQuery}
      rows={(d) => d.positionList}
      rowKey={(p) => `${p.symbol}:${p.side}:${p.openTime}:${p.closeTime}`}
      label={t('closed.title')}
      testId="futures-position-history"
      rowTestId="futures-closed-row"
      loadingLabel={t('closed.loading')}
      errorText={t('closed.error')}
      emptyText={t('closed.empty')}
    />
  )
}
