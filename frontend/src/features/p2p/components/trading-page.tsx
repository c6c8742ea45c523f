import { Box, Button, Container, Field, Heading, HStack, Input, InputGroup, NativeSelect, SegmentGroup, Stack, Tabs, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import { LuSearch, LuZap } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { AppLink } from '@/components/layout/app-link'
import { loginHref } from '@/lib/auth-guard'
import { fixed, sanitizeInput } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { markUnreachableTold } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import { searchAds } from '../api/p2p-api'
import { p2pKeys, type Ad } from '../api/types'
import type { P2PSearch as TradingSearch } from '../lib/search-values'
import { p2pTexts } from '../lib/texts'
import { coinPlaces, KindTags, pagerLabels, RecordLine, TraderName, usePublicInfo } from './shared'
import { TradeDialog } from './trade-dialog'

/** Ads a page of the list shows. */
export const ADS_PAGE_SIZE = 10

/**
 * /p2p/trading (spec §2): the P2P market for a taker. Buy / Sell (the
 * taker's side: buying lists SELL ads, cheapest first), the coin, an MNT
 * amount the ads' limits must admit and a payment kind; each ad with its
 * merchant's record, price, what is left, the per-order limits, the payment
 * kinds and its Buy or Sell button. Visitors browse; trading asks them to
 * sign in and brings them back.
 */
export function TradingPage({ search, onSearch }: { search: TradingSearch; onSearch: (next: TradingSearch) => void }) {
  const { t } = p2pTexts.useTexts()
  const info = usePublicInfo()
  const coins = info.data?.coins.map((c) => c.coinSymbol) ?? ['USDT', 'BTC', 'ETH']
  const coin = search.coin && coins.includes(search.coin) ? search.coin : coins[0]
  const side = search.side === 'sell' ? 'SELL' : 'BUY'
  const page = search.page ?? 1
  const filter = { side, coinSymbol: coin, amount: search.amount ?? '', payment: search.payment ?? '', page, pageSize: ADS_PAGE_SIZE } as const
  const ads = useQuery({
    queryKey: p2pKeys.search(filter),
    queryFn: ({ signal }) => searchAds(filter, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 20_000,
  })
  const { user } = useUserInfo()
  const navigate = useNavigate()
  const href = useRouterState({ select: (s) => s.location.href })
  const [trading, setTrading] = useState<Ad>()
  const places = coinPlaces(info.data, coin)

  useEffect(() => {
    if (ads.isError) markUnreachableTold()
  }, [ads.isError])

  const trade = (ad: Ad) => {
    if (!user) {
      void navigate({ href: loginHref(href) })
      return
    }
    setTrading(ad)
  }

  const set = (patch: Partial<TradingSearch>) => onSearch({ ...search, ...patch, page: undefined })

  const columns: DataColumn<Ad>[] = [
    {
      id: 'advertiser',
      header: t('trading.colAdvertiser'),
      card: 'title',
      cell: (ad) => (
        <Stack gap="0.5" minW="0">
          <TraderName uid={ad.uid} name={ad.merchant?.nickName || ad.nickName} merchant={ad.merchant?.merchant === 'approved'} t={t} testId="ad-merchant" />
          <RecordLine stats={ad.merchant} t={t} />
        </Stack>
      ),
    },
    {
      id: 'price',
      header: t('trading.colPrice'),
      card: 'aside',
      cell: (ad) => (
        <Text as="span" fontWeight="bold" fontSize="md" data-testid="ad-price" whiteSpace="nowrap">
          {fixed(ad.price, 2)} <Text as="span" textStyle="xs" fontWeight="normal" color="fg.muted">{ad.paySymbol}</Text>
        </Text>
      ),
    },
    {
      id: 'available',
      header: t('trading.colAvailable'),
      numeric: false,
      cell: (ad) => (
        <Text as="span" data-testid="ad-available" whiteSpace="nowrap">
          {fixed(ad.volume, places)} {ad.coinSymbol}
        </Text>
      ),
    },
    {
      id: 'limits',
      header: t('trading.colLimits'),
      cell: (ad) => (
        <Text as="span" whiteSpace="nowrap" data-testid="ad-limits">
          {fixed(ad.minTrade, 2)} – {fixed(ad.maxTrade, 2)} {ad.paySymbol}
        </Text>
      ),
    },
    {
      id: 'payment',
      header: t('trading.colPayment'),
      cell: (ad) => <KindTags kinds={ad.payments.map((m) => m.kind)} t={t} testId="ad-kinds" />,
    },
  ]

  return (
    <Container maxW="7xl" py={{ base: '5', md: '8' }} px={{ base: '4', md: '6' }} data-testid="p2p-trading">
      <Stack gap={{ base: '4', md: '5' }}>
        <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'stretch', md: 'flex-end' }} gap="3">
          <Stack gap="1">
            <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
              {t('trading.title')}
            </Heading>
            <Text color="fg.muted">{t('trading.subtitle')}</Text>
          </Stack>
          <Button asChild variant="outline" size="sm" alignSelf={{ base: 'flex-start', md: 'auto' }}>
            <AppLink href="/p2p/express">
              <LuZap aria-hidden="true" />
              {t('trading.express')}
            </AppLink>
          </Button>
        </Stack>

        <Stack direction={{ base: 'column', lg: 'row' }} gap="3" justify="space-between" align={{ base: 'stretch', lg: 'center' }}>
          <HStack gap="3" flexWrap="wrap">
            <Tabs.Root
              value={side}
              onValueChange={(d) => set({ side: d.value === 'SELL' ? 'sell' : undefined })}
              variant="enclosed"
              size="sm"
              activationMode="manual"
            >
              <Tabs.List aria-label={t('trading.sideLabel')}>
                <Tabs.Trigger value="BUY" data-testid="side-buy" _selected={{ color: 'green.fg' }}>
                  {t('trading.buy')}
                </Tabs.Trigger>
                <Tabs.Trigger value="SELL" data-testid="side-sell" _selected={{ color: 'red.fg' }}>
                  {t('trading.sell')}
                </Tabs.Trigger>
              </Tabs.List>
            </Tabs.Root>
            <SegmentGroup.Root
              size="sm"
              value={coin}
              onValueChange={(d) => d.value && set({ coin: d.value === coins[0] ? undefined : d.value })}
              aria-label={t('trading.coinLabel')}
              data-testid="coin-tabs"
            >
              <SegmentGroup.Indicator />
              <SegmentGroup.Items items={coins} />
            </SegmentGroup.Root>
          </HStack>
          <Filters search={search} t={t} kinds={info.data?.payments.map((k) => k.code) ?? ['bank', 'qpay', 'socialpay']} onApply={set} />
        </Stack>

        <DataTable
          columns={columns}
          rows={ads.data?.list ?? []}
          rowKey={(ad) => ad.id}
          label={t('trading.listLabel', { side: t(`trading.${side === 'BUY' ? 'buy' : 'sell'}`), coin })}
          actions={(ad) => (
            <Button
              size="sm"
              colorPalette={side === 'BUY' ? 'green' : 'red'}
              onClick={() => trade(ad)}
              data-testid="ad-trade"
              aria-label={t(side === 'BUY' ? 'trading.buyFrom' : 'trading.sellTo', { coin: ad.coinSymbol, name: ad.merchant?.nickName || ad.nickName })}
            >
              {t(side === 'BUY' ? 'trading.buyCoin' : 'trading.sellCoin', { coin: ad.coinSymbol })}
            </Button>
          )}
          actionsLabel={t('trading.colAction')}
          testId="ad-list"
          rowTestId="ad-row"
          isLoading={ads.isPending}
          loadingLabel={t('loading')}
          emptyText={search.amount || search.payment ? t('trading.emptyFiltered') : t('trading.empty')}
          emptyTestId="ad-list-empty"
          error={ads.isError ? { text: t('trading.loadError'), retryText: t('retry'), onRetry: () => void ads.refetch() } : undefined}
        />
        <Pager
          page={page}
          pageSize={ADS_PAGE_SIZE}
          count={ads.data?.count ?? 0}
          onPageChange={(p) => onSearch({ ...search, page: p > 1 ? p : undefined })}
          labels={pagerLabels(t)}
          testId="ad-pager"
        />
      </Stack>
      <TradeDialog ad={trading} places={places} t={t} onClose={() => setTrading(undefined)} />
    </Container>
  )
}

function Filters({ search, t, kinds, onApply }: { search: TradingSearch; t: TranslateFn; kinds: string[]; onApply: (p: Partial<TradingSearch>) => void }) {
  const [amount, setAmount] = useState(search.amount ?? '')
  useEffect(() => setAmount(search.amount ?? ''), [search.amount])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onApply({ amount: amount ? amount.replace(/\.$/, '') : undefined })
  }
  return (
    <Box as="form" onSubmit={submit} role="search" aria-label={t('trading.filters')} data-testid="ad-filters">
      <HStack gap="2" align="flex-end" flexWrap={{ base: 'wrap', sm: 'nowrap' }}>
        <Field.Root flex={{ base: '1 1 100%', sm: '0 0 13rem' }}>
          <Field.Label textStyle="xs">{t('trading.amountLabel')}</Field.Label>
          <InputGroup endAddon="MNT">
            <Input
              size="sm"
              name="amount"
              inputMode="decimal"
              value={amount}
              placeholder={t('trading.amountPlaceholder')}
              onChange={(e) => setAmount(sanitizeInput(e.target.value, 2))}
              data-testid="filter-amount"
            />
          </InputGroup>
        </Field.Root>
        <Field.Root flex={{ base: '1 1 0', sm: '0 0 11rem' }}>
          <Field.Label textStyle="xs">{t('trading.paymentLabel')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              name="payment"
              value={search.payment ?? ''}
              onChange={(e) => onApply({ payment: e.target.value || undefined, amount: amount || undefined })}
              data-testid="filter-payment"
            >
              <option value="">{t('trading.allPayments')}</option>
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {t(`kinds.${k}`) || k}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Button type="submit" size="sm" variant="outline" data-testid="filter-apply">
          <LuSearch aria-hidden="true" />
          {t('trading.search')}
        </Button>
      </HStack>
    </Box>
  )
}
