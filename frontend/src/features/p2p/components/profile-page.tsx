import { Badge, Button, Card, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuShieldCheck, LuStore } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { formatDateTime } from '@/lib/date-time'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { fetchPersonAds, fetchStats } from '../api/p2p-api'
import { p2pKeys, type Ad, type Stats } from '../api/types'
import { formatDuration } from '../lib/countdown'
import { p2pTexts } from '../lib/texts'
import { coinPlaces, KindTags, PageSkeleton, pagerLabels, usePublicInfo } from './shared'
import { TradeDialog, takerSide } from './trade-dialog'

const PROFILE_ADS_PAGE_SIZE = 10

/** A trader's record in the page's units ('2m 05s'). */
export function durationText(seconds: number, t: TranslateFn): string {
  return formatDuration(seconds, { h: t('units.h'), m: t('units.m'), s: t('units.s') })
}

/**
 * /p2p/profile?uid= (spec §2, signed-in only): a trader's P2P record
 * (merchant mark, verified identity, completed orders, buys and sells,
 * completion rate, average release and payment times, first trade) and
 * their open ads, which can be traded from here; the caller's own without
 * a uid.
 */
export function ProfilePage({ uid }: { uid?: string }) {
  const { t, ready } = p2pTexts.useTexts()
  const { user } = useUserInfo()
  const me = user ? String(user.id) : ''
  const who = uid || me
  const own = !!me && who === me
  const stats = useQuery({ queryKey: p2pKeys.stats(who), queryFn: ({ signal }) => fetchStats(uid ?? '', signal), enabled: !!who })
  const [page, setPage] = useState(1)
  const ads = useQuery({
    queryKey: p2pKeys.personAds(who, page),
    queryFn: ({ signal }) => fetchPersonAds(who, page, PROFILE_ADS_PAGE_SIZE, signal),
    enabled: !!who,
    placeholderData: keepPreviousData,
  })
  const info = usePublicInfo()
  const [trading, setTrading] = useState<Ad>()

  if (!ready || stats.isPending) return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>
  if (!stats.data) {
    return (
      <PageFrame title={t('profile.title')}>
        <LoadError title={t('profile.loadError')} retryLabel={t('retry')} onRetry={() => void stats.refetch()} retrying={stats.isFetching} testId="profile-error" />
      </PageFrame>
    )
  }
  const s = stats.data
  const openAds = (ads.data?.list ?? []).filter((a) => a.status === 'open')

  const columns: DataColumn<Ad>[] = [
    {
      id: 'ad',
      header: t('myAds.colAd'),
      card: 'title',
      cell: (ad) => (
        <Text as="span" fontWeight="semibold" color={ad.side === 'SELL' ? 'red.fg' : 'green.fg'}>
          {t(ad.side === 'SELL' ? 'profile.adSells' : 'profile.adBuys', { coin: ad.coinSymbol })}
        </Text>
      ),
    },
    { id: 'price', header: t('trading.colPrice'), card: 'aside', cell: (ad) => <Text as="span" fontWeight="bold">{fixed(ad.price, 2)} {ad.paySymbol}</Text> },
    { id: 'available', header: t('trading.colAvailable'), cell: (ad) => `${fixed(ad.volume, coinPlaces(info.data, ad.coinSymbol))} ${ad.coinSymbol}` },
    { id: 'limits', header: t('trading.colLimits'), cell: (ad) => `${fixed(ad.minTrade, 2)} – ${fixed(ad.maxTrade, 2)} ${ad.paySymbol}` },
    { id: 'payment', header: t('trading.colPayment'), cell: (ad) => <KindTags kinds={ad.payments.map((m) => m.kind)} t={t} /> },
  ]

  return (
    <PageFrame
      title={s.nickName || s.uid}
      badge={<MerchantBadges stats={s} t={t} />}
      subtitle={own ? t('profile.ownSubtitle') : t('profile.subtitle')}
      testId="p2p-profile"
    >
      <Card.Root>
        <Card.Body>
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="5">
            <Figure label={t('profile.completeOrders')} value={String(s.completeOrders)} testId="profile-complete" />
            <Figure label={t('profile.buySell')} value={`${s.buyOrders} / ${s.sellOrders}`} testId="profile-buy-sell" />
            <Figure label={t('profile.completionRate')} value={s.completionRate ? `${s.completionRate}%` : '—'} testId="profile-rate" />
            <Figure label={t('profile.cancelled')} value={String(s.cancelOrders)} />
            <Figure label={t('profile.avgRelease')} value={durationText(s.avgReleaseTime, t)} testId="profile-release" />
            <Figure label={t('profile.avgPay')} value={durationText(s.avgPayTime, t)} testId="profile-pay" />
            <Figure label={t('profile.firstTrade')} value={s.firstTradeTime ? formatDateTime(s.firstTradeTime, { seconds: false }) : '—'} />
            <Figure label={t('profile.openAds')} value={String(s.openAds)} />
          </SimpleGrid>
        </Card.Body>
      </Card.Root>

      <Stack gap="3" as="section" aria-labelledby="profile-ads">
        <Heading as="h2" id="profile-ads" size="md">
          {t('profile.ads')}
        </Heading>
        <DataTable
          columns={columns}
          rows={openAds}
          rowKey={(a) => a.id}
          label={t('profile.ads')}
          actions={(ad) =>
            own ? null : (
              <Button size="sm" colorPalette={ad.side === 'SELL' ? 'green' : 'red'} onClick={() => setTrading(ad)} data-testid="profile-ad-trade">
                {t(takerSide(ad) === 'BUY' ? 'trading.buyCoin' : 'trading.sellCoin', { coin: ad.coinSymbol })}
              </Button>
            )
          }
          actionsLabel={t('trading.colAction')}
          testId="profile-ad-list"
          isLoading={ads.isPending}
          loadingLabel={t('loading')}
          emptyText={t('profile.adsEmpty')}
          emptyTestId="profile-ads-empty"
          error={ads.isError ? { text: t('profile.adsError'), retryText: t('retry'), onRetry: () => void ads.refetch() } : undefined}
        />
        <Pager page={page} pageSize={PROFILE_ADS_PAGE_SIZE} count={ads.data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(t)} testId="profile-pager" />
      </Stack>
      <TradeDialog
        ad={trading && { ...trading, merchant: trading.merchant ?? s, nickName: trading.nickName || s.nickName }}
        places={coinPlaces(info.data, trading?.coinSymbol ?? '')}
        t={t}
        onClose={() => setTrading(undefined)}
      />
    </PageFrame>
  )
}

/** The merchant and verified-identity marks of a record. */
export function MerchantBadges({ stats, t }: { stats: Stats; t: TranslateFn }) {
  return (
    <HStack gap="2">
      {stats.merchant === 'approved' && (
        <Badge colorPalette="brand" variant="solid" data-testid="profile-merchant">
          <LuStore aria-hidden="true" />
          {t('profile.merchant')}
        </Badge>
      )}
      <Badge colorPalette={stats.kycVerified ? 'green' : 'gray'} variant="subtle" data-testid="profile-verified">
        <LuShieldCheck aria-hidden="true" />
        {t(stats.kycVerified ? 'profile.verified' : 'profile.notVerified')}
      </Badge>
    </HStack>
  )
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap="1">
      <Text textStyle="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize={{ base: 'lg', md: 'xl' }} fontWeight="semibold" fontVariantNumeric="tabular-nums" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  )
}
