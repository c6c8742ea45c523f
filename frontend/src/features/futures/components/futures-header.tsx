import { Badge, Box, Button, CloseButton, Drawer, Flex, HStack, Popover, Portal, Skeleton, Stack, Text, useBreakpointValue, VisuallyHidden } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { LuChevronDown } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { tickerQuery, type Ticker, type TradePair } from '@/features/trade/api/trade-api'
import { useMarketChannel } from '@/features/trade/api/use-market-channel'
import { ReconnectingNotice } from '@/features/trade/components/reconnecting-notice'
import { usePriceTitle } from '@/features/trade/lib/use-price-title'
import { changeColor, formatRose } from '@/lib/change'
import { divDec, fixed, formatDec, parseDec, placesOf } from '@/lib/decimal'
import { FUTURES_API, marketInfoQuery, priceListQuery, publicInfoQuery, type ContractInfo, type MarketInfo } from '../api/futures-api'
import { useMarkChannel } from '../api/live'
import { contracts as contractCount, countdown, fundingRateText, signOf } from '../lib/format'
import { baseSize } from '../lib/margin'
import { futuresTexts } from '../lib/texts'

function Stat({ label, value, color, testId, title }: { label: string; value: string; color?: string; testId?: string; title?: string }) {
  return (
    <Stack gap="0" minW="0" title={title}>
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
 * The time to the next funding as HH:MM:SS, ticking every second against
 * the server's clock (public_info's serverTime gives the skew of this one).
 */
export function FundingCountdown({ next, testId = 'funding-countdown' }: { next: number | undefined; testId?: string }) {
  const { data: info, dataUpdatedAt } = useQuery(publicInfoQuery)
  const skew = info?.serverTime && dataUpdatedAt ? info.serverTime - dataUpdatedAt : 0
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(timer)
  }, [])
  return (
    <Text as="span" fontVariantNumeric="tabular-nums" data-testid={testId}>
      {countdown(next, now + skew)}
    </Text>
  )
}

/** One contract of the picker: its symbol, last price and 24 h change (the change from its ticker). */
function ContractRow({ contract, last, current, onChosen }: { contract: ContractInfo; last: string | undefined; current: boolean; onChosen: () => void }) {
  const { t } = futuresTexts.useTexts()
  const { data: ticker } = useQuery(tickerQuery(contract.marketSymbol, FUTURES_API))
  const price = ticker?.close || last
  return (
    <AppLink
      href={`/futures/${contract.symbol}`}
      onClick={onChosen}
      aria-current={current ? 'true' : undefined}
      display="grid"
      gridTemplateColumns="minmax(0,1.4fr) minmax(0,1fr) minmax(0,0.8fr)"
      alignItems="center"
      gap="2"
      px="3"
      h="10"
      fontSize="sm"
      bg={current ? 'bg.muted' : undefined}
      _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
      focusVisibleRing="inside"
      data-testid="contract-row"
    >
      <HStack gap="1.5" minW="0">
        <Text fontWeight="semibold" truncate>
          {contract.symbol}
        </Text>
        <Badge size="xs" variant="subtle">
          {t('header.perp')}
        </Badge>
      </HStack>
      <Text textAlign="end" fontVariantNumeric="tabular-nums" truncate>
        {fixed(price, contract.pricePrecision)}
      </Text>
      <Text textAlign="end" fontVariantNumeric="tabular-nums" color={changeColor(ticker?.rose)} truncate>
        {formatRose(ticker?.rose)}
      </Text>
    </AppLink>
  )
}

/** Every contract of public_info with its last price and 24 h change; choosing one opens its page. */
function ContractList({ current, onChosen }: { current: string; onChosen: () => void }) {
  const { t } = futuresTexts.useTexts()
  const { data: info, isLoading } = useQuery(publicInfoQuery)
  const { data: prices } = useQuery(priceListQuery)
  const list = info?.contractList ?? []
  return (
    <Stack gap="0" minH="0" overflowY="auto" role="list" aria-label={t('header.contracts')} data-testid="contract-list">
      <Box display="grid" gridTemplateColumns="minmax(0,1.4fr) minmax(0,1fr) minmax(0,0.8fr)" gap="2" px="3" py="2" fontSize="xs" color="fg.muted" aria-hidden>
        <Text>{t('header.contract')}</Text>
        <Text textAlign="end">{t('header.last')}</Text>
        <Text textAlign="end">{t('header.change')}</Text>
      </Box>
      {isLoading
        ? [0, 1].map((i) => <Skeleton key={i} h="8" mx="3" my="1" />)
        : list.map((c) => (
            <Box role="listitem" key={c.symbol}>
              <ContractRow contract={c} last={prices?.find((p) => p.symbol === c.symbol)?.lastPrice} current={c.symbol === current} onChosen={onChosen} />
            </Box>
          ))}
    </Stack>
  )
}

/** The contract switcher: a popover on desktop, a bottom sheet on phones. */
function ContractPicker({ contract }: { contract: ContractInfo }) {
  const { t } = futuresTexts.useTexts()
  const phone = useBreakpointValue({ base: true, lg: false }, { ssr: false }) ?? false
  const [open, setOpen] = useState(false)
  const close = () => setOpen(false)
  const trigger = (
    <Button variant="ghost" size="sm" px="2" ms="-2" fontSize="lg" fontWeight="bold" aria-label={t('header.switch', { symbol: contract.symbol })} data-testid="contract-select">
      {contract.symbol}
      <Badge size="sm" variant="subtle">
        {t('header.perp')}
      </Badge>
      <LuChevronDown aria-hidden="true" />
    </Button>
  )
  if (phone)
    return (
      <Drawer.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="bottom" lazyMount unmountOnExit>
        <Drawer.Trigger asChild>{trigger}</Drawer.Trigger>
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content maxH="80dvh" roundedTop="l3" data-testid="contract-sheet">
              <Drawer.Header py="3" px="4" pe="12" borderBottomWidth="1px">
                <Drawer.Title fontSize="md">{t('header.contracts')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body p="0" display="flex" flexDirection="column" minH="0">
                <ContractList current={contract.symbol} onChosen={close} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('common.close')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    )
  return (
    <Popover.Root open={open} onOpenChange={(e) => setOpen(e.open)} positioning={{ placement: 'bottom-start' }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>{trigger}</Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content w="sm" maxW="calc(100vw - 2rem)" overflow="hidden" aria-label={t('header.contracts')} data-testid="contract-popover">
            <Popover.Body p="0" maxH="24rem" display="flex" flexDirection="column">
              <ContractList current={contract.symbol} onChosen={close} />
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  )
}

/** A percentage ('-1.25') as a change ratio ('-0.0125', what formatRose and changeColor take). */
function ratioOf(percent: string | undefined): string | undefined {
  const d = parseDec(percent)
  return d ? formatDec({ units: d.units, scale: d.scale + 2 }, d.scale + 2) : undefined
}

/**
 * The 24 h figures the header shows: the ticker's, live on its channel, or
 * public_market_info's until the ticker is there; the volume in contracts.
 */
function figures24h(ticker: Ticker | undefined, market: MarketInfo | undefined, contractValue: string) {
  const vol = parseDec(ticker?.vol)
  const cv = parseDec(contractValue)
  const fromTicker = vol && cv ? divDec(vol, cv, 0) : undefined
  return {
    rose: ticker?.rose || ratioOf(market?.change24h),
    high: ticker?.high || market?.high24h || undefined,
    low: ticker?.low || market?.low24h || undefined,
    contracts: fromTicker ? formatDec(fromTicker, 0) : market?.volume24h,
    base: ticker?.vol,
  }
}

/**
 * The contract's header: the picker, the last price (coloured by the 24 h
 * change, and in the browser tab's title), mark and index prices, the
 * funding rate with a live countdown to the next funding, the 24 h change,
 * high, low, volume (in contracts) and turnover, and the open interest. The
 * ticker is kept live by its channel, the mark, index and funding by the
 * contract's mark channel; public_market_info (the open interest, and the
 * rest while the socket is down) is read every 3 s, every 15 s while marks
 * arrive.
 */
export function FuturesHeader({ contract, pair }: { contract: ContractInfo; pair: TradePair }) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const q = tickerQuery(pair.symbol, FUTURES_API)
  const { data: ticker } = useQuery(q)
  useMarketChannel(`market_${pair.symbol}_ticker`, (m) => {
    if (m.tick && typeof m.tick === 'object') queryClient.setQueryData(q.queryKey, (old: Ticker | undefined) => ({ ...old, ...(m.tick as Ticker) }))
  })
  const pollMs = useMarkChannel(contract)
  const { data: market } = useQuery({ ...marketInfoQuery(contract.symbol), refetchInterval: pollMs })
  const places = Math.max(contract.pricePrecision, placesOf(contract.priceTick))
  const last = ticker?.close || market?.lastPrice || undefined
  usePriceTitle(pair, last)
  const funding = market?.fundingRate
  const day = figures24h(ticker, market, contract.contractValue)
  return (
    <Flex data-testid="futures-header" borderWidth="1px" rounded="lg" px="4" py="3" gap={{ base: '3', md: '6' }} align="center" wrap="wrap" bg="bg.panel">
      <Box>
        <ContractPicker contract={contract} />
      </Box>
      <Stack gap="0">
        <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" color={changeColor(ticker?.rose)}>
          <VisuallyHidden>{t('header.last')} </VisuallyHidden>
          <span data-testid="futures-last-price">{fixed(last, places)}</span>
        </Text>
      </Stack>
      <HStack gap={{ base: '3', md: '6' }} wrap="wrap" rowGap="2">
        <Stat label={t('header.mark')} value={fixed(market?.markPrice, places)} testId="futures-mark-price" title={t('header.markHint')} />
        <Stat label={t('header.index')} value={fixed(market?.indexPrice, places)} testId="futures-index-price" title={t('header.indexHint')} />
        <Stack gap="0" minW="0" title={t('header.fundingHint')}>
          <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
            {t('header.funding')}
          </Text>
          <HStack gap="1" fontSize="sm" whiteSpace="nowrap">
            <Text as="span" fontVariantNumeric="tabular-nums" color={signOf(funding) < 0 ? 'down' : signOf(funding) > 0 ? 'up' : undefined} data-testid="futures-funding-rate">
              {fundingRateText(funding)}
            </Text>
            <Text as="span" color="fg.muted" aria-hidden>
              /
            </Text>
            <FundingCountdown next={market?.nextFundingTime} />
          </HStack>
        </Stack>
        <Stat label={t('header.change')} value={formatRose(day.rose)} color={changeColor(day.rose)} testId="futures-change" />
        <Stat label={t('header.high')} value={fixed(day.high, places)} testId="futures-high" />
        <Stat label={t('header.low')} value={fixed(day.low, places)} testId="futures-low" />
        <Stat
          label={t('header.volumeCont')}
          value={contractCount(day.contracts)}
          title={day.base ? `≈ ${fixed(day.base, contract.sizePrecision)} ${contract.base}` : undefined}
          testId="futures-volume-24h"
        />
        <Stat label={t('header.turnover', { coin: contract.quote })} value={fixed(ticker?.amount, 2)} />
        <Stat
          label={t('header.openInterest')}
          value={market ? `${contractCount(market.openInterest)} ${t('form.cont')}` : '—'}
          title={market ? `≈ ${baseSize(market.openInterest, contract.contractValue, contract.sizePrecision) || '0'} ${contract.base}` : undefined}
          testId="futures-open-interest"
        />
      </HStack>
      <Box ms="auto">
        <ReconnectingNotice />
      </Box>
    </Flex>
  )
}
