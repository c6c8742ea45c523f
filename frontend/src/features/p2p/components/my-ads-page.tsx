import { Badge, Button, Dialog, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { LuMegaphone, LuPencil, LuX } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager } from '@/components/data/pager'
import { AppLink } from '@/components/layout/app-link'
import { PageFrame } from '@/components/layout/page-frame'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { formatDateTime } from '@/lib/date-time'
import { fixed } from '@/lib/decimal'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import { closeAd, fetchPersonAds } from '../api/p2p-api'
import { p2pKeys, type Ad } from '../api/types'
import { trimZeros } from '../lib/amounts'
import { p2pTexts } from '../lib/texts'
import { coinPlaces, Empty, KindTags, PageSkeleton, pagerLabels, usePublicInfo } from './shared'

export const MY_ADS_PAGE_SIZE = 10

/**
 * /p2p/my-advertising (signed-in only): the caller's ads, open and closed,
 * newest first, with Edit (the ad form) and Close (asked first: a SELL ad's
 * remaining coins return to the OTC account; its open orders go on).
 */
export function MyAdsPage() {
  const { t, ready } = p2pTexts.useTexts()
  const { user } = useUserInfo()
  const me = user ? String(user.id) : ''
  const queryClient = useQueryClient()
  const info = usePublicInfo()
  const [page, setPage] = useState(1)
  const ads = useQuery({
    queryKey: p2pKeys.personAds(me, page),
    // No uid: the caller's own ads, closed ones too.
    queryFn: ({ signal }) => fetchPersonAds('', page, MY_ADS_PAGE_SIZE, signal),
    enabled: !!me,
    placeholderData: keepPreviousData,
  })
  const [closing, setClosing] = useState<Ad>()
  const [busy, setBusy] = useState(false)

  const close = async (ad: Ad) => {
    setBusy(true)
    try {
      await closeAd(ad.id)
      notifySuccess(t('myAds.closed'))
      setClosing(undefined)
    } catch {
      // Toasted by the request client.
    } finally {
      setBusy(false)
      void queryClient.invalidateQueries({ queryKey: ['p2p', 'person-ads'] })
      void queryClient.invalidateQueries({ queryKey: ['p2p', 'stats'] })
      void queryClient.invalidateQueries({ queryKey: ['p2p', 'search'] })
    }
  }

  if (!ready) return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>

  const columns: DataColumn<Ad>[] = [
    {
      id: 'ad',
      header: t('myAds.colAd'),
      card: 'title',
      cell: (ad) => (
        <Text as="span" fontWeight="semibold" color={ad.side === 'SELL' ? 'red.fg' : 'green.fg'} whiteSpace="nowrap">
          {t(`side.${ad.side}`)} {ad.coinSymbol}
        </Text>
      ),
    },
    {
      id: 'status',
      header: t('myAds.colStatus'),
      card: 'aside',
      cell: (ad) => (
        <Badge colorPalette={ad.status === 'open' ? 'green' : 'gray'} variant="subtle" data-testid="my-ad-status" data-status={ad.status}>
          {t(ad.status === 'open' ? 'myAds.statusOpen' : 'myAds.statusClosed')}
        </Badge>
      ),
    },
    {
      id: 'price',
      header: t('trading.colPrice'),
      cell: (ad) => (
        <Stack gap="0" align={{ base: 'flex-end', md: 'flex-start' }}>
          <Text as="span" fontWeight="semibold" whiteSpace="nowrap" data-testid="my-ad-price">
            {fixed(ad.price, 2)} {ad.paySymbol}
          </Text>
          {ad.priceType === 'floating' && (
            <Text as="span" textStyle="xs" color="fg.muted">
              {t('myAds.floatingRate', { rate: trimZeros(ad.priceRate) })}
            </Text>
          )}
        </Stack>
      ),
    },
    { id: 'remaining', header: t('myAds.colRemaining'), cell: (ad) => `${fixed(ad.volume, coinPlaces(info.data, ad.coinSymbol))} ${ad.coinSymbol}` },
    { id: 'limits', header: t('trading.colLimits'), cell: (ad) => `${fixed(ad.minTrade, 2)} – ${fixed(ad.maxTrade, 2)} ${ad.paySymbol}` },
    { id: 'payments', header: t('trading.colPayment'), cell: (ad) => <KindTags kinds={ad.payments.map((m) => m.kind)} t={t} /> },
    { id: 'time', header: t('myAds.colTime'), cell: (ad) => t('minutes', { n: ad.limitTime }) },
    { id: 'updated', header: t('myAds.colUpdated'), card: 'line', nowrap: true, cell: (ad) => formatDateTime(ad.mtime || ad.ctime, { seconds: false }) },
  ]

  const list = ads.data?.list ?? []
  return (
    <PageFrame
      title={t('myAds.title')}
      subtitle={t('myAds.subtitle')}
      maxW="7xl"
      testId="my-ads"
      action={
        <Button asChild colorPalette="brand">
          <AppLink href="/p2p/publish-ad" data-testid="my-ads-publish">
            <LuMegaphone aria-hidden="true" />
            {t('nav.publishAd')}
          </AppLink>
        </Button>
      }
    >
      {!ads.isPending && !ads.isError && list.length === 0 ? (
        <Empty
          title={t('myAds.empty')}
          hint={t('myAds.emptyHint')}
          testId="my-ads-empty"
          action={
            <Button asChild colorPalette="brand" size="sm">
              <AppLink href="/p2p/publish-ad">{t('nav.publishAd')}</AppLink>
            </Button>
          }
        />
      ) : (
        <DataTable
          columns={columns}
          rows={list}
          rowKey={(a) => a.id}
          label={t('myAds.title')}
          actions={(ad) =>
            ad.status === 'open' ? (
              <>
                <Button asChild size="xs" variant="outline">
                  <AppLink href={`/p2p/publish-ad?id=${encodeURIComponent(ad.id)}`} data-testid="my-ad-edit" aria-label={t('myAds.editLabel', { side: t(`side.${ad.side}`), coin: ad.coinSymbol })}>
                    <LuPencil aria-hidden="true" />
                    {t('myAds.edit')}
                  </AppLink>
                </Button>
                <Button size="xs" variant="outline" colorPalette="red" onClick={() => setClosing(ad)} data-testid="my-ad-close">
                  <LuX aria-hidden="true" />
                  {t('myAds.close')}
                </Button>
              </>
            ) : null
          }
          actionsLabel={t('trading.colAction')}
          stickyActions
          testId="my-ads-list"
          rowTestId="my-ad-row"
          isLoading={ads.isPending}
          loadingLabel={t('loading')}
          emptyText={t('myAds.empty')}
          error={ads.isError ? { text: t('myAds.loadError'), retryText: t('retry'), onRetry: () => void ads.refetch() } : undefined}
        />
      )}
      <Pager page={page} pageSize={MY_ADS_PAGE_SIZE} count={ads.data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(t)} testId="my-ads-pager" />
      <ConfirmDialog
        open={!!closing}
        onClose={() => setClosing(undefined)}
        onConfirm={() => closing && void close(closing)}
        title={t('myAds.closeTitle')}
        cancelLabel={t('cancel')}
        confirmLabel={t('myAds.closeConfirm')}
        busy={busy}
        testId="close-ad-dialog"
        confirmTestId="close-ad-confirm"
      >
        <Dialog.Description>{t(closing?.side === 'SELL' ? 'myAds.closeBodySell' : 'myAds.closeBody')}</Dialog.Description>
      </ConfirmDialog>
    </PageFrame>
  )
}
