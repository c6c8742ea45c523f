import { Badge, Box, Button, Checkbox, Dialog, HStack, IconButton, Stack, Tabs, Text, useBreakpointValue } from '@chakra-ui/react'
import { useMutation } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import { LuArrowUpRight, LuPencil } from 'react-icons/lu'
import { DataTable, type DataColumn, type DataLayout } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useFocusRescue } from '@/features/trade/lib/use-focus-rescue'
import { fixed, placesOf } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import { closeAllPositions, createOrder, MARGIN_ISOLATED, type ContractInfo, type PositionView, type TriggerOrder } from '../api/futures-api'
import { openBySide, useAssets, useOpenOrders, useRefreshFutures, useTriggerOrders, useUserConfig } from '../api/use-futures'
import { contracts as contractCount, liquidationNear, liquidationText, marginRatioLevel, money, pnlColor, RATIO_COLORS, ratioText, signedMoney, signedPercent } from '../lib/format'
import { hedgeClosable, hedgeSideOf } from '../lib/hedge'
import { closingSide } from '../lib/order'
import { confirmOn } from '../lib/page-config'
import { futuresTexts } from '../lib/texts'
import { positionTpsl, type TpslKind } from '../lib/tpsl'
import { OpenOrdersList, OrderHistoryList, TradeHistoryList, type ContractMap } from './order-lists'
import { AdjustMarginDialog, LimitCloseDialog } from './position-dialogs'
import { PositionHistoryList } from './position-history'
import { AdlLights, ModeBadge, notifyTransport, PositionSideText } from './shared'
import { TpslDialog } from './tpsl-dialog'
import { TriggerOrdersList } from './trigger-lists'

/** A position's row key: its contract and position side (a hedge-mode contract has a long and a short row). */
export function positionKey(p: Pick<PositionView, 'symbol' | 'positionSide'>): string {
  return `${p.symbol}:${p.positionSide || 'BOTH'}`
}

/** A position's name in the buttons' accessible names: its contract, and in hedge mode its side ("BTCUSDT Long"). */
function positionName(t: TranslateFn, p: Pick<PositionView, 'symbol' | 'positionSide'>): string {
  const ps = hedgeSideOf(p)
  return ps ? `${p.symbol} ${t(`positions.side.${ps}`)}` : p.symbol
}

function pricePlaces(contracts: ContractMap, symbol: string): number {
  const c = contracts.get(symbol)
  return c ? Math.max(c.pricePrecision, placesOf(c.priceTick)) : 2
}

/**
 * The columns of the positions: the contract (side, margin mode and
 * leverage), the size in contracts and the base coin, entry, mark and
 * liquidation prices (the liquidation price in the warning colour when the
 * mark is near it), the margin ratio coloured by its level, the margin (an
 * isolated position's with its adjust button), the unrealized PnL with the
 * ROE, coloured, its waiting take-profit and stop-loss prices, and the
 * auto-deleveraging lights.
 */
export function positionColumns(
  t: TranslateFn,
  contracts: ContractMap,
  actions: { onAdjust: (p: PositionView) => void; tpsl?: (p: PositionView) => Record<TpslKind, TriggerOrder[]> },
): DataColumn<PositionView>[] {
  const coin = (p: PositionView) => contracts.get(p.symbol)?.marginCoin ?? 'USDT'
  return [
    {
      id: 'symbol',
      header: t('positions.cols.symbol'),
      card: 'title',
      cell: (p) => (
        <Stack as="span" gap="0.5" align="flex-start">
          <HStack as="span" gap="1.5">
            <Box as="span" w="1" alignSelf="stretch" rounded="full" bg={p.side === 'LONG' ? 'up' : 'down'} aria-hidden />
            <Text as="span" fontWeight="semibold">
              {p.symbol}
            </Text>
            <PositionSideText side={p.side} t={t} />
          </HStack>
          <HStack as="span" gap="1" wrap="wrap">
            <ModeBadge mode={p.marginMode} leverage={p.leverage} t={t} />
            {hedgeSideOf(p) && (
              <Badge size="sm" variant="outline" colorPalette={hedgeSideOf(p) === 'LONG' ? 'green' : 'red'} data-testid="position-side" data-side={hedgeSideOf(p)}>
                {t(`positionMode.sides.${hedgeSideOf(p)}`)}
              </Badge>
            )}
          </HStack>
        </Stack>
      ),
    },
    {
      id: 'size',
      header: t('positions.cols.size'),
      numeric: true,
      testId: 'position-size',
      cell: (p) => {
        const c = contracts.get(p.symbol)
        return (
          <Stack as="span" gap="0" align="flex-end">
            <Text as="span" color={p.side === 'LONG' ? 'up' : 'down'}>
              {contractCount(p.volume)} {t('form.cont')}
            </Text>
            <Text as="span" fontSize="xs" color="fg.muted">
              {fixed(p.size, c?.sizePrecision ?? 3)} {c?.base ?? ''}
            </Text>
          </Stack>
        )
      },
    },
    { id: 'entry', header: t('positions.cols.entry'), numeric: true, testId: 'position-entry', cell: (p) => fixed(p.openPrice, pricePlaces(contracts, p.symbol)) },
    { id: 'mark', header: t('positions.cols.mark'), numeric: true, testId: 'position-mark', cell: (p) => fixed(p.markPrice, pricePlaces(contracts, p.symbol)) },
    {
      id: 'liquidation',
      header: t('positions.cols.liquidation'),
      numeric: true,
      testId: 'position-liquidation',
      cell: (p) => {
        const near = liquidationNear(p.markPrice, p.liquidationPrice)
        return (
          <Text as="span" color={near ? 'fg.warning' : undefined} fontWeight={near ? 'semibold' : undefined} title={near ? t('positions.liquidationNear') : undefined}>
            {liquidationText(p.liquidationPrice, pricePlaces(contracts, p.symbol))}
          </Text>
        )
      },
    },
    {
      id: 'ratio',
      header: t('positions.cols.marginRatio'),
      numeric: true,
      testId: 'position-ratio',
      cell: (p) => {
        const level = marginRatioLevel(p.marginRatio)
        return (
          <Text as="span" color={RATIO_COLORS[level]} data-level={level}>
            {ratioText(p.marginRatio)}
          </Text>
        )
      },
    },
    {
      id: 'margin',
      header: t('positions.cols.margin'),
      numeric: true,
      testId: 'position-margin',
      cell: (p) => (
        <HStack as="span" gap="1" justify="flex-end">
          <Text as="span">
            {money(p.margin)} {coin(p)}
          </Text>
          {p.marginMode === MARGIN_ISOLATED && (
            <IconButton size="2xs" variant="ghost" aria-label={t('positions.adjustOf', { symbol: positionName(t, p) })} title={t('positions.adjust')} onClick={() => actions.onAdjust(p)} data-testid="position-adjust">
              <LuPencil aria-hidden="true" />
            </IconButton>
          )}
        </HStack>
      ),
    },
    {
      id: 'pnl',
      header: t('positions.cols.pnl'),
      numeric: true,
      testId: 'position-pnl',
      cell: (p) => (
        <Stack as="span" gap="0" align="flex-end" color={pnlColor(p.unrealizedPnl)}>
          <Text as="span" fontWeight="medium" data-testid="position-pnl-value">
            {signedMoney(p.unrealizedPnl)} {coin(p)}
          </Text>
          <Text as="span" fontSize="xs" data-testid="position-roe">
            {signedPercent(p.roe)}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'tpsl',
      header: t('positions.cols.tpsl'),
      numeric: true,
      testId: 'position-tpsl',
      cell: (p) => {
        const now = actions.tpsl?.(p) ?? { tp: [], sl: [] }
        const line = (kind: TpslKind) => {
          const first = now[kind][0]
          return (
            <Text as="span" fontSize="xs" data-testid={`position-${kind}`}>
              <Text as="span" color="fg.muted">
                {t(`tpsl.${kind}Short`)}
              </Text>{' '}
              {first ? fixed(first.triggerPrice, pricePlaces(contracts, p.symbol)) : '—'}
            </Text>
          )
        }
        return (
          <Stack as="span" gap="0" align="flex-end">
            {line('tp')}
            {line('sl')}
          </Stack>
        )
      },
    },
    { id: 'adl', header: t('positions.cols.adl'), cell: (p) => <AdlLights level={p.adlLevel} t={t} /> },
  ]
}

/** Props of {@link PositionsTable}. */
export interface PositionsTableProps {
  positions: PositionView[]
  contracts: ContractMap
  available: (symbol: string) => string | undefined
  /** Contracts a reduce-only order could still close, per position. */
  closable: (p: PositionView) => number
  layout?: DataLayout | 'auto'
  isLoading?: boolean
  error?: { onRetry: () => void }
  /** Ask before closing a position at market (the user's preference, on unless turned off). */
  confirmClose?: boolean
  /** The user's waiting trigger orders: each position shows its take-profit and stop-loss. */
  triggers?: readonly TriggerOrder[]
}

/**
 * The user's open positions, each with TP/SL (its take-profit and
 * stop-loss), Market (closes it all at once, after a confirmation unless
 * turned off) and Limit (a reduce-only limit order) and, for an isolated
 * one, its margin's adjust dialog.
 */
export function PositionsTable({ positions, contracts, available, closable, layout = 'auto', isLoading, error, confirmClose = true, triggers }: PositionsTableProps) {
  const { t } = futuresTexts.useTexts()
  const refresh = useRefreshFutures()
  const [adjusting, setAdjusting] = useState<PositionView | null>(null)
  const [limitClosing, setLimitClosing] = useState<PositionView | null>(null)
  const [confirming, setConfirming] = useState<PositionView | null>(null)
  const [tpslOf, setTpslOf] = useState<PositionView | null>(null)
  const [closing, setClosing] = useState<ReadonlySet<string>>(new Set())
  const confirmSymbol = confirming?.symbol ?? ''
  const confirmName = confirming ? positionName(t, confirming) : ''
  const key = positionKey
  const close = useMutation({
    // A hedge-mode position names its side: SELL+LONG closes the long, BUY+SHORT the short.
    mutationFn: (p: PositionView) => {
      const ps = hedgeSideOf(p)
      return createOrder({ symbol: p.symbol, side: closingSide(p.side), type: 'MARKET', volume: p.volume, closePosition: true, ...(ps ? { positionSide: ps } : {}) })
    },
    onMutate: (p) => setClosing((s) => new Set(s).add(key(p))),
    onSuccess: (_o, p) => {
      notifySuccess(t('close.marketPlaced', { symbol: p.symbol }))
      refresh()
    },
    onError: (e) => {
      notifyTransport(e, t('form.unreachable'))
      refresh()
    },
    onSettled: (_d, _e, p) =>
      setClosing((s) => {
        const n = new Set(s)
        n.delete(key(p))
        return n
      }),
  })
  const askOrClose = (p: PositionView) => {
    if (confirmClose) setConfirming(p)
    else close.mutate(p)
  }
  const tpsl = useCallback((p: PositionView) => positionTpsl(triggers, p), [triggers])
  const columns = useMemo(() => positionColumns(t, contracts, { onAdjust: setAdjusting, tpsl }), [t, contracts, tpsl])
  const confirmingContract = contracts.get(confirmSymbol)
  return (
    <>
      <DataTable
        layout={layout}
        columns={columns}
        rows={positions}
        rowKey={key}
        label={t('positions.title')}
        testId="futures-positions"
        rowTestId="position-row"
        isLoading={isLoading}
        loadingLabel={t('positions.loading')}
        error={error ? { text: t('positions.error'), retryText: t('common.retry'), onRetry: error.onRetry } : undefined}
        emptyText={t('positions.empty')}
        emptyTestId="futures-positions-empty"
        actionsLabel={t('positions.cols.close')}
        showActionsLabel
        stickyActions
        actions={(p) => (
          <>
            <Button size="2xs" variant="outline" aria-label={t('tpsl.actionOf', { symbol: positionName(t, p) })} onClick={() => setTpslOf(p)} data-testid="position-tpsl-edit">
              {t('tpsl.action')}
            </Button>
            <Button
              size="2xs"
              variant="outline"
              loading={closing.has(key(p))}
              aria-label={t('positions.marketCloseOf', { symbol: positionName(t, p) })}
              onClick={() => askOrClose(p)}
              data-testid="position-close-market"
            >
              {t('positions.market')}
            </Button>
            <Button size="2xs" variant="outline" aria-label={t('positions.limitCloseOf', { symbol: positionName(t, p) })} onClick={() => setLimitClosing(p)} data-testid="position-close-limit">
              {t('positions.limit')}
            </Button>
          </>
        )}
      />
      <AdjustMarginDialog
        position={adjusting}
        contract={adjusting ? contracts.get(adjusting.symbol) : undefined}
        available={adjusting ? available(adjusting.symbol) : undefined}
        onClose={() => setAdjusting(null)}
      />
      <TpslDialog position={tpslOf} contract={tpslOf ? contracts.get(tpslOf.symbol) : undefined} current={tpslOf ? tpsl(tpslOf) : { tp: [], sl: [] }} onClose={() => setTpslOf(null)} />
      <LimitCloseDialog
        position={limitClosing}
        contract={limitClosing ? contracts.get(limitClosing.symbol) : undefined}
        closable={limitClosing ? closable(limitClosing) : 0}
        onClose={() => setLimitClosing(null)}
      />
      <ConfirmDialog
        open={!!confirming}
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) close.mutate(confirming)
          setConfirming(null)
        }}
        title={t('close.marketTitle', { symbol: confirmName })}
        cancelLabel={t('common.cancel')}
        confirmLabel={t('close.marketAction')}
        testId="market-close-confirm"
        confirmTestId="market-close-confirm-button"
      >
        <Dialog.Description data-testid="market-close-body">
          {confirming &&
            t(confirming.side === 'LONG' ? 'close.marketBodyLong' : 'close.marketBodyShort', {
              volume: contractCount(confirming.volume),
              unit: t('form.cont'),
              size: fixed(confirming.size, confirmingContract?.sizePrecision ?? 3),
              coin: confirmingContract?.base ?? '',
            })}
        </Dialog.Description>
      </ConfirmDialog>
    </>
  )
}

/** Cards on a phone, a table from tablet width (the panel spans the page there). */
function usePanelLayout(): DataLayout {
  return useBreakpointValue<DataLayout>({ base: 'cards', md: 'table' }, { ssr: false }) ?? 'cards'
}

/**
 * Under the chart: Positions (with their TP/SL), Open orders, Trigger
 * orders, Order history, Trade history and Position history of the
 * signed-in user (every contract, or only the page's with "This
 * contract only"); Close all positions with a confirmation; the full orders
 * page one link away. Visitors are asked to log in.
 */
export function PositionsPanel({ contract, contracts }: { contract: ContractInfo; contracts: ContractMap }) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  const [tab, setTab] = useState('positions')
  const [onlyThis, setOnlyThis] = useState(false)
  const [closingAll, setClosingAll] = useState(false)
  const layout = usePanelLayout()
  const assets = useAssets()
  const orders = useOpenOrders()
  const triggers = useTriggerOrders()
  const config = useUserConfig(contract.symbol)
  const refresh = useRefreshFutures()
  const allPositions = (assets.data?.positionList ?? []).filter((p) => p.volume > 0)
  const positions = onlyThis ? allPositions.filter((p) => p.symbol === contract.symbol) : allPositions
  const openCount = onlyThis ? (orders.data?.orderList ?? []).filter((o) => o.symbol === contract.symbol).length : (orders.data?.count ?? 0)
  const triggerCount = onlyThis ? (triggers.data?.triggerList ?? []).filter((o) => o.symbol === contract.symbol).length : (triggers.data?.count ?? 0)
  const available = useCallback(
    (symbol: string) => {
      const c = contracts.get(symbol)
      const account = assets.data?.accountList?.find((a) => a.coin === (c?.marginCoin ?? 'USDT'))
      return assets.data ? (account?.availableBalance ?? '0') : undefined
    },
    [assets.data, contracts],
  )
  const closable = useCallback(
    (p: PositionView) => {
      // A hedge-mode position: less what that side's open closing orders cover.
      if (hedgeSideOf(p)) return hedgeClosable(p, orders.data?.orderList)
      const open = openBySide(orders.data?.orderList, p.symbol)
      return Math.max(0, p.volume - open[closingSide(p.side)])
    },
    [orders.data],
  )
  const closeAll = useMutation({
    mutationFn: () => closeAllPositions(),
    onSuccess: () => {
      notifySuccess(t('close.allPlaced'))
      refresh()
    },
    onError: (e) => notifyTransport(e, t('form.unreachable')),
    onSettled: () => setClosingAll(false),
  })
  const panel = useRef<HTMLDivElement>(null)
  const toTab = useCallback(() => panel.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'), [])
  useFocusRescue(panel, toTab)
  const symbol = onlyThis ? contract.symbol : undefined
  return (
    <Box
      ref={panel}
      borderWidth="1px"
      rounded="lg"
      bg="bg.panel"
      // A long heading (mn_MN "Албадан хаалтын үнэ") takes two lines rather than push the PnL out of sight.
      css={{ '& [data-layout=table] th': { whiteSpace: 'normal' } }}
      data-testid="futures-positions-panel"
    >
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} size="sm" lazyMount unmountOnExit>
        <HStack justify="space-between" borderBottomWidth="1px" pe="2" gap="2" flexWrap="wrap">
          <Tabs.List px="2" borderBottomWidth="0" overflowX="auto" overflowY="hidden" flex="1 1 auto" data-testid="futures-panel-tabs">
            {(
              [
                ['positions', `${t('positions.title')}${isSignedIn ? ` (${positions.length})` : ''}`],
                ['open', `${t('orders.open')}${isSignedIn ? ` (${openCount})` : ''}`],
                ['triggers', `${t('triggers.open')}${isSignedIn ? ` (${triggerCount})` : ''}`],
                ['history', t('orders.history')],
                ['trades', t('orders.trades')],
                ['positionHistory', t('closed.title')],
              ] as const
            ).map(([value, label]) => (
              <Tabs.Trigger key={value} value={value} whiteSpace="nowrap" flexShrink={0} px="2.5" data-testid={`futures-tab-${value}`}>
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {isSignedIn && (
            <HStack gap="2" ps="2" py="1" flexWrap="wrap">
              <Checkbox.Root size="sm" checked={onlyThis} onCheckedChange={(e) => setOnlyThis(e.checked === true)} data-testid="futures-only-this">
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label fontWeight="normal" fontSize="xs" whiteSpace="nowrap">
                  {t('positions.onlyThis', { symbol: contract.symbol })}
                </Checkbox.Label>
              </Checkbox.Root>
              {tab === 'positions' && allPositions.length > 0 && (
                <Button size="xs" variant="outline" colorPalette="red" onClick={() => setClosingAll(true)} data-testid="futures-close-all">
                  {t('positions.closeAll')}
                </Button>
              )}
              <Button asChild size="xs" variant="ghost" colorPalette="brand">
                <AppLink href={`/order/futures?tab=${tab === 'positions' ? 'open' : tab}`} data-testid="futures-view-all">
                  {t('orders.viewAll')}
                  <LuArrowUpRight aria-hidden="true" />
                </AppLink>
              </Button>
            </HStack>
          )}
        </HStack>
        <Box px="3" pb="3">
          {!isSignedIn ? (
            <Text py="8" textAlign="center" color="fg.muted" fontSize="sm" data-testid="futures-panel-signin">
              {t('positions.signIn')}
            </Text>
          ) : (
            <>
              <Tabs.Content value="positions">
                <PositionsTable
                  positions={positions}
                  contracts={contracts}
                  available={available}
                  closable={closable}
                  layout={layout}
                  isLoading={assets.isLoading}
                  error={assets.isError && !assets.data ? { onRetry: () => void assets.refetch() } : undefined}
                  confirmClose={confirmOn(config.data, 'closeConfirm')}
                  triggers={triggers.data?.triggerList}
                />
              </Tabs.Content>
              <Tabs.Content value="open">
                {/* A page of 50, as the form reads them: all contracts' first page is one query, polled once. */}
                <OpenOrdersList symbol={symbol} contracts={contracts} layout={layout} pageSize={50} />
              </Tabs.Content>
              <Tabs.Content value="triggers">
                {/* All contracts' waiting trigger orders are one page of 100 (at most 50 a user): the positions' query, polled once. */}
                <TriggerOrdersList symbol={symbol} contracts={contracts} layout={layout} pageSize={100} />
              </Tabs.Content>
              <Tabs.Content value="history">
                <OrderHistoryList symbol={symbol} contracts={contracts} layout={layout} />
              </Tabs.Content>
              <Tabs.Content value="trades">
                <TradeHistoryList symbol={symbol} contracts={contracts} layout={layout} />
              </Tabs.Content>
              <Tabs.Content value="positionHistory">
                <PositionHistoryList symbol={symbol} contracts={contracts} layout={layout} />
              </Tabs.Content>
            </>
          )}
        </Box>
      </Tabs.Root>
      <ConfirmDialog
        open={closingAll}
        onClose={() => setClosingAll(false)}
        onConfirm={() => closeAll.mutate()}
        busy={closeAll.isPending}
        title={t('close.allTitle')}
        cancelLabel={t('common.cancel')}
        confirmLabel={t('close.allAction')}
        testId="close-all-confirm"
        confirmTestId="close-all-confirm-button"
      >
        <Dialog.Description>{t('close.allBody', { n: allPositions.length })}</Dialog.Description>
      </ConfirmDialog>
    </Box>
  )
}
