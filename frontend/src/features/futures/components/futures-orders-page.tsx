import { Box, Button, Container, Flex, Heading, NativeSelect, Tabs, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useRef } from 'react'
import { LuZap } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useFocusRescue } from '@/features/trade/lib/use-focus-rescue'
import { useUserInfo } from '@/lib/session'
import { publicInfoQuery } from '../api/futures-api'
import { useFuturesLiveUpdates } from '../api/live'
import { DEFAULT_CONTRACT } from '../lib/contract'
import { FUTURES_ORDER_TABS, type FuturesOrdersSearch, type FuturesOrderTab } from '../lib/search'
import { futuresTexts } from '../lib/texts'
import { AccountStats } from './account-stats'
import { OpenOrdersList, OrderHistoryList, TradeHistoryList, type ContractMap } from './order-lists'
import { PositionHistoryList } from './position-history'
import { TriggerHistoryList, TriggerOrdersList } from './trigger-lists'

/** Rows per page of the orders page. */
export const ORDERS_PAGE_SIZE = 20

/** The tabs' names (futures texts). */
const TAB_TEXT: Record<FuturesOrderTab, string> = {
  open: 'orders.open',
  triggers: 'triggers.open',
  history: 'orders.history',
  triggerHistory: 'triggers.history',
  trades: 'orders.trades',
  positionHistory: 'closed.title',
}

/**
 * /order/futures: the signed-in user's futures results over 1, 7 or 30
 * days, and their orders: open orders and waiting trigger orders (with
 * Cancel), order, trigger and trade history, and the closed positions, of
 * every contract or of one, a page at a time (the tab, contract and page
 * are kept in the address). The lists are read again as soon as the
 * user_futures channel tells of a change.
 */
export function FuturesOrdersPage({ search, onSearch }: { search: FuturesOrdersSearch; onSearch: (next: FuturesOrdersSearch) => void }) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  useFuturesLiveUpdates(isSignedIn)
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
      <AccountStats coins={info?.marginCoinList?.length ? info.marginCoinList : ['USDT']} />
      <Tabs.Root value={tab} onValueChange={(d) => onSearch({ ...search, tab: d.value as FuturesOrderTab, page: undefined })} size={{ base: 'sm', md: 'md' }} lazyMount unmountOnExit>
        <Tabs.List overflowX="auto" overflowY="hidden">
          {FUTURES_ORDER_TABS.map((k) => (
            <Tabs.Trigger key={k} value={k} whiteSpace="nowrap" flexShrink={0} data-testid={`futures-orders-tab-${k}`}>
              {t(TAB_TEXT[k])}
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
        <Tabs.Content value="triggers" pt="0">
          <TriggerOrdersList {...list} />
        </Tabs.Content>
        <Tabs.Content value="history" pt="0">
          <OrderHistoryList {...list} />
        </Tabs.Content>
        <Tabs.Content value="triggerHistory" pt="0">
          <TriggerHistoryList {...list} />
        </Tabs.Content>
        <Tabs.Content value="trades" pt="0">
          <TradeHistoryList {...list} />
        </Tabs.Content>
        <Tabs.Content value="positionHistory" pt="0">
          <PositionHistoryList {...list} />
        </Tabs.Content>
      </Tabs.Root>
    </Container>
  )
}
