import { Box, Button, CloseButton, Drawer, Flex, HStack, Popover, Portal, Stack, Text, useBreakpointValue } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { LuChevronDown } from 'react-icons/lu'
import { toSpotPair } from '@/features/orders/api/orders-api'
// The quote coin's places, as the order totals of the page (and the orders pages) show them.
import { quoteAmount } from '@/features/orders/lib/order-format'
import { useTexts } from '@/lib/i18n'
import { tickerQuery, type Ticker, type TradePair } from '../api/trade-api'
import { useMarketChannel } from '../api/use-market-channel'
import { usePriceTitle } from '../lib/use-price-title'
import { fixed } from '@/lib/decimal'
import { changeColor, formatRose } from './format'
import { MarketList } from './market-list'
import { ReconnectingNotice } from './reconnecting-notice'

function Stat({ label, value, color, testId }: { label: string; value: string; color?: string; testId?: string }) {
  return (
    <Stack gap="0" minW="0">
      <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
        {label}
      </Text>
      <Text fontSize="sm" fontVariantNumeric="tabular-nums" color={color} data-testid={testId} whiteSpace="nowrap">
        {value}
      </Text>
    </Stack>
  )
}

/**
 * The pair switcher: a button with the pair's name that opens the market
 * list (search, favourites, live prices) in a popover on desktop and in a
 * bottom sheet on phones; choosing a pair closes it.
 */
function PairSwitcher({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const phone = useBreakpointValue({ base: true, lg: false }, { ssr: false }) ?? false
  const [open, setOpen] = useState(false)
  const close = () => setOpen(false)
  const trigger = (
    <Button
      variant="ghost"
      size="sm"
      px="2"
      ms="-2"
      fontSize="lg"
      fontWeight="bold"
      aria-label={t('header.switchPair', { pair: pair.showName })}
      data-testid="pair-select"
    >
      {pair.showName}
      <LuChevronDown aria-hidden="true" />
    </Button>
  )
  if (phone) {
    return (
      <Drawer.Root
        open={open}
        onOpenChange={(e) => setOpen(e.open)}
        placement="bottom"
        lazyMount
        unmountOnExit
        // The shown pair's row (or the sheet while the list loads), not the search: that would open a phone's keyboard over the list.
        initialFocusEl={() =>
          document.querySelector<HTMLElement>('[data-testid="pair-sheet"] [data-testid="market-list-row"][aria-current="true"]') ??
          document.querySelector<HTMLElement>('[data-testid="pair-sheet"]')
        }
      >
        <Drawer.Trigger asChild>{trigger}</Drawer.Trigger>
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content h="80dvh" roundedTop="l3" data-testid="pair-sheet">
              <Drawer.Header py="3" px="4" pe="12" borderBottomWidth="1px">
                <Drawer.Title fontSize="md">{t('markets.listLabel')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body p="0" display="flex" flexDirection="column" minH="0">
                <MarketList pair={pair} fill onChosen={close} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    )
  }
  return (
    <Popover.Root
      open={open}
      onOpenChange={(e) => setOpen(e.open)}
      positioning={{ placement: 'bottom-start' }}
      lazyMount
      unmountOnExit
      // Its own search (the desktop page may show another market list).
      initialFocusEl={() => document.querySelector<HTMLElement>('[data-testid="pair-popover"] [data-testid="market-list-search"]')}
    >
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content
            w="sm"
            maxW="calc(100vw - 2rem)"
            overflow="hidden"
            aria-label={t('markets.listLabel')}
            data-testid="pair-popover"
          >
            <Popover.Body p="0" h="28rem" display="flex" flexDirection="column">
              <MarketList pair={pair} fill onChosen={close} />
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  )
}

/**
 * The pair switcher and the live 24 h ticker; the last price also shows in
 * the browser tab's title while the page is open.
 */
export function TradeHeader({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const q = tickerQuery(pair.symbol)
  const { data: ticker } = useQuery(q)
  useMarketChannel(`market_${pair.symbol}_ticker`, (m) => {
    if (m.tick && typeof m.tick === 'object') queryClient.setQueryData(q.queryKey, (old: Ticker | undefined) => ({ ...old, ...(m.tick as Ticker) }))
  })
  const p = pair.pricePrecision
  const last = ticker?.close ?? pair.close
  usePriceTitle(pair, last)
  return (
    <Flex
      data-testid="trade-header"
      borderWidth="1px"
      rounded="lg"
      px="4"
      py="3"
      gap={{ base: '3', md: '6' }}
      align="center"
      wrap="wrap"
      bg="bg.panel"
    >
      <Box>
        <PairSwitcher pair={pair} />
      </Box>
      <Stack gap="0">
        <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" color={changeColor(ticker?.rose)} data-testid="last-price">
          {fixed(last, p)}
        </Text>
      </Stack>
      <HStack gap={{ base: '3', md: '6' }} wrap="wrap">
        <Stat label={t('header.change')} value={formatRose(ticker?.rose)} color={changeColor(ticker?.rose)} testId="ticker-change" />
        <Stat label={t('header.high')} value={fixed(ticker?.high, p)} />
        <Stat label={t('header.low')} value={fixed(ticker?.low, p)} />
        <Stat label={t('header.volume', { coin: pair.base })} value={fixed(ticker?.vol, pair.volumePrecision)} />
        {/* A turnover is an amount of the quote coin: at its places (MNT 2, USDT 6), as the panel's totals. */}
        <Stat label={t('header.amount', { coin: pair.quote })} value={quoteAmount(ticker?.amount, toSpotPair(pair))} testId="ticker-turnover" />
      </HStack>
      <Box ms="auto">
        <ReconnectingNotice />
      </Box>
    </Flex>
  )
}
