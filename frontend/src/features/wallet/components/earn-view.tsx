import { Button, HStack, SimpleGrid, Stack } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { LuPiggyBank } from 'react-icons/lu'
import { DataTable, type DataColumn, type DataLayout } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { useLinkResolver } from '@/components/layout/link-target'
import { RedeemDialog } from '@/features/savings/components/redeem-dialog'
import { SubscribeDialog } from '@/features/savings/components/subscribe-dialog'
import { savingsTexts } from '@/features/savings/lib/texts'
import { isLive } from '@/lib/capabilities'
import { formatCut, formatFixed, isPositive } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { useTexts } from '@/lib/i18n'
import { getEarnBalance, getSpotBalances, walletKeys, type EarnCoin } from '../api/wallet-api'
import { QueryState } from './shared'
import { useValuation } from './valuation'
import { CoinCell, Figure, hide, TOTAL_DECIMALS, useStateTexts, type ViewProps } from './wallet-views'

/*
 * The earn account view (spec §2), with the savings subscription: each
 * coin's Subscribe and Redeem open the savings page's dialogs. It loads
 * with its tab (wallet-page.tsx), so the savings dialogs come with it
 * rather than with the wallet.
 */

function earnColumns(t: TranslateFn, hidden: boolean, places: (coin: string) => number): DataColumn<EarnCoin>[] {
  // A coin's amounts at its showPrecision (spec §9), cut and never rounded up.
  const amount = (c: EarnCoin, value: string) => hide(hidden, formatCut(value, places(c.coinSymbol)))
  return [
    { id: 'coin', header: t('cols.coin'), card: 'title', cell: (c) => <CoinCell coin={c.coinSymbol} icon={c.icon} /> },
    { id: 'balance', header: t('cols.balance'), numeric: true, testId: (c) => `earn-balance-${c.coinSymbol}`, cell: (c) => amount(c, c.balance) },
    // A savings rate is shown once savings can be used (capabilities.ts).
    ...(isLive('savings')
      ? [{ id: 'yearRate', header: t('cols.yearRate'), numeric: true, cell: (c: EarnCoin) => `${formatFixed(c.yearRate, 2)}%` }]
      : []),
    { id: 'totalInterest', header: t('cols.totalInterest'), numeric: true, testId: (c) => `earn-interest-${c.coinSymbol}`, cell: (c) => amount(c, c.totalInterest) },
    { id: 'auto', header: t('cols.auto'), numeric: true, cell: (c) => (c.autoStatus === 1 ? t('earn.on') : t('earn.off')) },
  ]
}

/**
 * The per-coin actions of the earn list: Subscribe (the savings
 * subscription of spec §2 and §4) and Redeem, the dialogs of the savings
 * page. Redeem is offered when the coin has something in savings.
 */
function EarnActions({ coin, layout, onOpen }: { coin: EarnCoin; layout: DataLayout; onOpen: (kind: 'subscribe' | 'redeem', coin: string) => void }) {
  const { t } = savingsTexts.useTexts()
  const card = layout === 'cards'
  const style = card ? ({ flex: '1', variant: 'outline' } as const) : ({ variant: 'ghost', colorPalette: 'brand' } as const)
  const prefix = card ? 'm-' : ''
  return (
    <>
      <Button size="xs" {...style} onClick={() => onOpen('subscribe', coin.coinSymbol)} data-testid={`${prefix}earn-subscribe-${coin.coinSymbol}`}>
        {t('wallet.subscribe')}
      </Button>
      <Button
        size="xs"
        {...style}
        disabled={!isPositive(coin.balance)}
        onClick={() => onOpen('redeem', coin.coinSymbol)}
        data-testid={`${prefix}earn-redeem-${coin.coinSymbol}`}
      >
        {t('wallet.redeem')}
      </Button>
    </>
  )
}

/** Earn account: the savings balance per coin with its rate and auto-subscribe, and Subscribe and Redeem. */
export function EarnView({ hidden }: ViewProps) {
  const { t } = useTexts('wallet')
  const savings = savingsTexts.useTexts()
  const resolve = useLinkResolver()
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.earn(currency), queryFn: () => getEarnBalance(currency) })
  // The coins' showPrecision comes with the spot coin list (the same query as the spot view).
  const spot = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const precision = useMemo(() => new Map((spot.data?.coinList ?? []).map((r) => [r.coin, r.showPrecision])), [spot.data])
  const places = (coin: string) => precision.get(coin) ?? TOTAL_DECIMALS
  // The open savings dialog, and its coin (kept while the dialog closes, so its title stays).
  const [dialog, setDialog] = useState<{ kind: 'subscribe' | 'redeem' | null; coin: string }>({ kind: null, coin: '' })
  const open = (kind: 'subscribe' | 'redeem', coin: string) => setDialog({ kind, coin })
  const close = () => setDialog((d) => ({ ...d, kind: null }))
  const live = isLive('savings')
  const d = q.data
  return (
    <QueryState isLoading={q.isLoading || spot.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      {d ? (
        <Stack gap="4" data-testid="earn-view">
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
            <Figure label={t('earn.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
            <Figure label={t('earn.yesterday')} value={hide(hidden, `${formatFixed(d.interestYesterday, 8)} ${d.interestSymbol}`)} />
            <Figure label={t('earn.days30')} value={hide(hidden, `${formatFixed(d.interest30days, 8)} ${d.interestSymbol}`)} />
          </SimpleGrid>
          {live && savings.ready ? (
            <HStack justify="flex-end">
              <Button asChild size="xs" variant="ghost">
                <AppLink href={resolve('/savings')} data-testid="earn-savings-link">
                  <LuPiggyBank aria-hidden="true" />
                  {savings.t('wallet.page')}
                </AppLink>
              </Button>
            </HStack>
          ) : null}
          <DataTable<EarnCoin>
            columns={earnColumns(t, hidden, places)}
            rows={d.coinList}
            rowKey={(c) => c.coinSymbol}
            label={t('views.earn')}
            testId="earn-table"
            rowTestId={(c, layout) => (layout === 'cards' ? `earn-card-${c.coinSymbol}` : `earn-row-${c.coinSymbol}`)}
            actions={live && savings.ready ? (c, layout) => <EarnActions coin={c} layout={layout} onOpen={open} /> : undefined}
            actionsLabel={t('cols.actions')}
            showActionsLabel
            emptyText={t('empty')}
          />
          {live ? (
            <>
              <SubscribeDialog open={dialog.kind === 'subscribe'} coin={dialog.coin} onClose={close} />
              <RedeemDialog open={dialog.kind === 'redeem'} coin={dialog.coin} onClose={close} />
            </>
          ) : null}
        </Stack>
      ) : null}
    </QueryState>
  )
}
