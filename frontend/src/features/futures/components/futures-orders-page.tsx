import { Box, Button, Container, Flex, Heading, NativeSelect, Tabs, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useRef } from 'react'
import { LuZap } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useFocusRescue } from '@/features/trade/lib/use-focus-rescue'
import { publicInfoQuery } from '../api/futures-api'
import { DEFAULT_CONTRACT } from '../lib/contract'
import { FUTURES_ORDER_TABS, type FuturesOrdersSearch, type FuturesOrderTab } from '../lib/search'
import { futuresTexts } from '../lib/texts'
import { OpenOrdersList, OrderHistoryList, TradeHistoryList, type ContractMap } from './order-lists'

/** Rows per page of the orders page. */
export const ORDERS_PAGE_SIZE = 20

/**
 * /order/futures: the signed-in user's futures orders: open orders (with
 * Cancel), order history and trade history, of every contract or of one,
 * a page at a time (the tab, contract and page are kept in the address).
 */
export function FuturesOrdersPage({ search, onSearch }: { search: FuturesOrdersSearch; onSearch: (next: FuturesOrdersSearch) => void }) {
  const { t } = futuresTexts.useTexts()
  const tab: FuturesOrderTab = search.tab ?? 'open'
  const { data: info } = useQuery(publicInfoQuery)
  const contracts = useMemo<ContractMap>(() => new Map((info?.contractList ?? []).map((c) => [c.symbol, c])), [info])
  const page = search.page ?? 1
  const paging = { page, onPage: (p: number) => onSearch({ ...search, page: p > 1 ? p : undefined }) }
  const pageRef = useRef<HTMLDivElement>(null)
  const toTab = useCallback(() => pageRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'), [])
  useFocusRescue(pageRef, toTab)
  const list = { symbol: search.symbol, contracts, pageSize: ORDERS_PAGE_SIZE, paging, layout: 'auto' as const }
  return (
    <Container ref={pageRef} maxW="7xl" py={{ base: '4', md: '8' }} px={{ base: '3', md: '6' }} data-testid="futures-orders-page">
      <Flex justify="space-between" align={{ base: 'flex-start', md: 'center' }} gap="3" mb="5" direction={{ base: 'column', sm: 'row' }}>
        <Box>
          <Heading as="h1" size="xl">
            {t('ordersPage.title')}
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {t('ordersPage.subtitle')}
          </Text>
        </Box>
        <Button asChild size="sm" colorPalette="brand" variant="subtle">
          <AppLink href={`/futures/${search.symbol ?? DEFAULT_CONTRACT}`} data-testid="futures-orders-trade-link">
            <LuZap aria-hidden="true" />
            {t('ordersPage.trade')}
          </AppLink>
        </Button>
      </Flex>
      <Tabs.Root value={tab} onValueChange={(d) => onSearch({ ...search, tab: d.value as FuturesOrderTab, page: undefined })} size={{ base: 'sm', md: 'md' }} lazyMount unmountOnExit>
        <Tabs.List overflowX="auto" overflowY="hidden">
          {FUTURES_ORDER_TABS.map((k) => (
            <Tabs.Trigger key={k} value={k} whiteSpace="nowrap" flexShrink={0} data-testid={`futures-orders-tab-${k}`}>
              {t(k === 'open' ? 'orders.open' : k === 'history' ? 'orders.history' : 'orders.trades')}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Box pt="4" pb="3">
          <NativeSelect.Root size="sm" width={{ base: 'full', sm: '56' }}>
            <NativeSelect.Field
              aria-label={t('ordersPage.contract')}
              value={search.symbol ?? ''}
              onChange={(e) => onSearch({ ...search, symbol: e.target.value || undefined, page: undefined })}
              data-testid="futures-orders-symbol"
            >
              <option value="">{t('ordersPage.allContracts')}</option>
              {[...contracts.keys()].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Box>
        <Tabs.Content value="open" pt="0">
          <OpenOrdersList {...list} />
        </Tabs.Content>
        <Tabs.Content value="history" pt="0">
          <OrderHistoryList {...list} />
        </Tabs.Content>
        <Tabs.Content value="trades" pt="0">
          <TradeHistoryList {...list} />
        </Tabs.Content>
      </Tabs.Root>
    </Container>
  )
}
