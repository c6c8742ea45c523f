import { Badge, Box, Button, Checkbox, HStack, Input, InputGroup, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { forwardRef, useMemo, useState, type ReactNode } from 'react'
import { LuSearch } from 'react-icons/lu'
import { DataTable, type DataColumn, type DataLayout } from '@/components/data/data-table'
import { AppLink, type AppLinkProps } from '@/components/layout/app-link'
import { useLinkResolver } from '@/components/layout/link-target'
import { compareDecimals, formatFixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { useTexts } from '@/lib/i18n'
import {
  getCrossBalance,
  getFuturesBalance,
  getFuturesStats,
  getIsolatedBalance,
  getOtcAccount,
  getOverview,
  getSpotBalances,
  walletKeys,
  type CrossCoin,
  type FuturesAccount,
  type IsolatedPair,
  type OTCCoin,
  type SpotRow,
} from '../api/wallet-api'
import { HIDDEN_BALANCE, toChartNumber } from '../lib/format'
import { PortfolioDonut } from './portfolio-donut'
import { CoinIcon, QueryState } from './shared'
import { useValuation } from './valuation'
import type { ModalState } from './wallet-modals'

/** Props every view gets. */
export interface ViewProps {
  hidden: boolean
  openModal: (state: ModalState) => void
}

const SLICE_COLORS = {
  spot: '#3182ce',
  earn: '#38a169',
  futures: '#d69e2e',
  margin: '#e53e3e',
  otc: '#805ad5',
}

/** The loading, error and retry texts of the views. */
export function useStateTexts() {
  const common = useTexts('common')
  return {
    loadingText: common.t('loading'),
    errorText: common.t('error'),
    retryText: common.t('retry'),
  }
}

/** A value, or the hidden placeholder when balances are hidden. */
export function hide(hidden: boolean, v: string): string {
  return hidden ? HIDDEN_BALANCE : v
}

/**
 * A summary figure: label, main value, secondary value. A value never breaks
 * inside a number: it wraps only at a space (before its unit), and the grids
 * give each figure a full row on phones.
 */
export function Figure({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId?: string }) {
  return (
    <Stack gap="0.5" minW="0" data-testid={testId}>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="xl" fontWeight="semibold" fontVariantNumeric="tabular-nums" overflowWrap="normal" wordBreak="keep-all" data-figure-value="">
        {value}
      </Text>
      {sub ? (
        <Text fontSize="sm" color="fg.muted" fontVariantNumeric="tabular-nums">
          {sub}
        </Text>
      ) : null}
    </Stack>
  )
}

/** Overview: totals in BTC and the chosen currency, and the portfolio chart per account kind. */
export function OverviewView({ hidden }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.overview(currency), queryFn: () => getOverview(currency) })
  const o = q.data
  const slices = o
    ? [
        { id: 'spot', value: o.balance },
        { id: 'earn', value: o.savingsBalance },
        { id: 'futures', value: o.futuresBalance },
        { id: 'margin', value: o.leverBalance },
        { id: 'otc', value: o.otcBalance },
      ].map((s) => ({
        id: s.id,
        label: t(`accounts.${s.id}`),
        value: toChartNumber(s.value),
        color: SLICE_COLORS[s.id as keyof typeof SLICE_COLORS],
        display: hidden ? HIDDEN_BALANCE : `${formatFixed(s.value, 8)} BTC · ${fiat(s.value)}`,
      }))
    : []
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      {o ? (
        <Stack gap="6" data-testid="wallet-overview">
          <Figure
            label={t('overview.total')}
            value={hide(hidden, `${formatFixed(o.totalbalance, 8)} BTC`)}
            sub={hide(hidden, fiat(o.totalbalance))}
            testId="total-balance"
          />
          <PortfolioDonut slices={slices} title={t('overview.chart')} emptyLabel={t('overview.empty')} hidden={hidden} />
        </Stack>
      ) : null}
    </QueryState>
  )
}

/** The spot trade page of a coin (its USDT pair; USDT itself trades as the quote of BTC). */
export function tradeHref(coin: string): string {
  return `/trade/${coin === 'USDT' ? 'BTC' : coin}_USDT`
}

/** The Trade action of a coin: its trade page, or the spot maintenance page while the trade route has not landed. */
// It forwards the props and ref a Button with asChild hands its child, so
// the link takes the button's look.
const TradeLink = forwardRef<HTMLAnchorElement, { coin: string; children: ReactNode } & Omit<AppLinkProps, 'href'>>(
  function TradeLink({ coin, children, ...rest }, ref) {
    const resolve = useLinkResolver()
    return (
      <AppLink ref={ref} href={resolve(tradeHref(coin))} {...rest}>
        {children}
      </AppLink>
    )
  },
)

/** Rows with a value under this many BTC count as small balances. */
export const SMALL_BALANCE_BTC = '0.0001'

/** Filters spot rows by search text and the hide-small-balances switch. */
export function filterSpotRows(rows: SpotRow[], search: string, hideSmall: boolean): SpotRow[] {
  const q = search.trim().toLowerCase()
  return rows.filter((r) => {
    if (q && !r.coin.toLowerCase().includes(q) && !(r.longName ?? '').toLowerCase().includes(q)) return false
    if (hideSmall && compareDecimals(r.btcValuation, SMALL_BALANCE_BTC) < 0) return false
    return true
  })
}

/**
 * The server names coins in English; the fiat's name is shown in the page's
 * language (the currency names of the common texts: 'Монгол төгрөг' in mn_MN).
 */
export function localizeFiatName(rows: SpotRow[], mntName: string): SpotRow[] {
  if (!mntName) return rows
  return rows.map((r) => (r.coin === 'MNT' ? { ...r, longName: mntName } : r))
}

/** The fiat and spot coin list with the per-coin actions (spec §2). */
export function SpotView({ hidden, openModal }: ViewProps) {
  const { t } = useTexts('wallet')
  const common = useTexts('common')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const [search, setSearch] = useState('')
  const [hideSmall, setHideSmall] = useState(false)
  const mntName = common.t('currencies.MNT')
  const rows = useMemo(
    () => filterSpotRows(localizeFiatName(q.data?.coinList ?? [], mntName), search, hideSmall),
    [q.data, mntName, search, hideSmall],
  )
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      <Stack gap="4" data-testid="spot-view">
        {q.data ? (
          <Figure
            label={t('spot.total')}
            value={hide(hidden, `${formatFixed(q.data.totalBalance, 8)} ${q.data.totalBalanceSymbol}`)}
            sub={hide(hidden, fiat(q.data.totalBalance, q.data.totalBalanceSymbol))}
          />
        ) : null}
        <HStack gap="4" flexWrap="wrap">
          <InputGroup startElement={<LuSearch aria-hidden="true" />} maxW="xs">
            <Input size="sm" aria-label={t('spot.search')} placeholder={t('spot.search')} value={search} onChange={(e) => setSearch(e.target.value)} data-testid="spot-search" />
          </InputGroup>
          <Checkbox.Root checked={hideSmall} onCheckedChange={(d) => setHideSmall(!!d.checked)} size="sm" data-testid="hide-small">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{t('spot.hideSmall')}</Checkbox.Label>
          </Checkbox.Root>
        </HStack>
        <DataTable<SpotRow>
          columns={spotColumns(t, hidden, fiat)}
          rows={rows}
          rowKey={(r) => r.coin}
          label={t('views.spot')}
          testId="spot-table"
          cardsTestId="spot-cards"
          rowTestId={(r, layout) => (layout === 'cards' ? `spot-card-${r.coin}` : `spot-row-${r.coin}`)}
          actions={(r, layout) => <SpotActions row={r} layout={layout} openModal={openModal} />}
          actionsLabel={t('cols.actions')}
          showActionsLabel
          emptyText={t('spot.empty')}
          emptyTestId="wallet-empty"
        />
      </Stack>
    </QueryState>
  )
}

type Fiat = (amount: string | undefined, coin?: string) => string

/** A coin with its icon, the first cell of the account tables. */
export function CoinCell({ coin, icon }: { coin: string; icon?: string }) {
  return (
    <HStack gap="2">
      <CoinIcon coin={coin} src={icon} />
      <Text>{coin}</Text>
    </HStack>
  )
}

/**
 * The spot list's columns. On phones a card shows the coin as its title, the
 * total with its valuation beside it, then available and frozen.
 */
function spotColumns(t: TranslateFn, hidden: boolean, fiat: Fiat): DataColumn<SpotRow>[] {
  return [
    {
      id: 'coin',
      header: t('cols.coin'),
      card: 'title',
      cell: (r) => (
        <HStack gap="2">
          <CoinIcon coin={r.coin} src={r.icon} />
          <Stack gap="0">
            <Text fontWeight="medium">{r.showName || r.coin}</Text>
            <Text fontSize="xs" fontWeight="normal" color="fg.muted">
              {r.longName}
            </Text>
          </Stack>
        </HStack>
      ),
    },
    {
      id: 'total',
      header: t('cols.total'),
      numeric: true,
      card: 'aside',
      testId: 'spot-total',
      cell: (r, layout) =>
        layout === 'cards' ? (
          <Stack gap="0" textAlign="right">
            <Text fontWeight="medium" fontVariantNumeric="tabular-nums">
              {hide(hidden, formatFixed(r.total, r.showPrecision))}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              {hide(hidden, fiat(r.total, r.coin))}
            </Text>
          </Stack>
        ) : (
          hide(hidden, formatFixed(r.total, r.showPrecision))
        ),
    },
    { id: 'available', header: t('cols.available'), numeric: true, testId: 'spot-available', cell: (r) => hide(hidden, formatFixed(r.normal, r.showPrecision)) },
    { id: 'frozen', header: t('cols.frozen'), numeric: true, cell: (r) => hide(hidden, formatFixed(r.freeze, r.showPrecision)) },
    // The card shows the valuation under the total.
    { id: 'valuation', header: t('cols.valuation'), numeric: true, card: 'hidden', cell: (r) => hide(hidden, fiat(r.total, r.coin)) },
  ]
}

/**
 * The per-coin actions: small ghost buttons in the table, full-width outline
 * buttons on a card, all in the same colour. Each action keeps its slot
 * (Deposit, Withdraw, Trade): one that is not offered for the coin leaves an
 * invisible placeholder, so the others stay in their columns row after row.
 */
function SpotActions({ row: r, layout, openModal }: { row: SpotRow; layout: DataLayout; openModal: (state: ModalState) => void }) {
  const { t } = useTexts('wallet')
  const card = layout === 'cards'
  const style = card ? ({ flex: '1', variant: 'outline' } as const) : ({ variant: 'ghost', colorPalette: 'brand' } as const)
  const prefix = card ? 'm-' : ''
  const slot = (label: string, testId: string) => (
    <Button size="xs" {...style} visibility="hidden" aria-hidden="true" tabIndex={-1} disabled data-testid={`${prefix}slot-${testId}`}>
      {label}
    </Button>
  )
  return (
    <>
      {r.depositOpen ? (
        <Button size="xs" {...style} onClick={() => openModal({ modal: 'deposit', coin: r.coin })} data-testid={`${prefix}deposit-${r.coin}`}>
          {t('actions.deposit')}
        </Button>
      ) : (
        slot(t('actions.deposit'), `deposit-${r.coin}`)
      )}
      {r.withdrawOpen ? (
        <Button size="xs" {...style} onClick={() => openModal({ modal: 'withdraw', coin: r.coin })} data-testid={`${prefix}withdraw-${r.coin}`}>
          {t('actions.withdraw')}
        </Button>
      ) : (
        slot(t('actions.withdraw'), `withdraw-${r.coin}`)
      )}
      {!r.isFiat ? (
        <Button asChild size="xs" {...style}>
          <TradeLink coin={r.coin} data-testid={`${prefix}trade-${r.coin}`}>
            {t('actions.trade')}
          </TradeLink>
        </Button>
      ) : (
        slot(t('actions.trade'), `trade-${r.coin}`)
      )}
    </>
  )
}

function TransferButton({ t, onClick, testId }: { t: TranslateFn; onClick: () => void; testId: string }) {
  return (
    <Button size="sm" variant="outline" onClick={onClick} data-testid={testId}>
      {t('actions.transfer')}
    </Button>
  )
}

/*
 * The account lists (cross, OTC, futures, earn) are tables from md up and one
 * card per coin on phones, like the spot list: at 390 px a table hid its last
 * columns behind a sideways scroll that a keyboard could not reach.
 */
function crossColumns(t: TranslateFn, hidden: boolean): DataColumn<CrossCoin>[] {
  const v = (c: CrossCoin, amount: string) => hide(hidden, formatFixed(amount, c.returnPrecision || 4))
  return [
    { id: 'coin', header: t('cols.coin'), card: 'title', cell: (c) => <CoinCell coin={c.coinSymbol} icon={c.icon} /> },
    { id: 'total', header: t('cols.total'), numeric: true, testId: 'cross-total', cell: (c) => v(c, c.totalBalance) },
    { id: 'available', header: t('cols.available'), numeric: true, cell: (c) => v(c, c.normalBalance) },
    { id: 'borrowed', header: t('cols.borrowed'), numeric: true, cell: (c) => v(c, c.borrowBalance) },
    { id: 'interest', header: t('cols.interest'), numeric: true, cell: (c) => v(c, c.interest) },
    { id: 'net', header: t('cols.net'), numeric: true, cell: (c) => v(c, c.netAssetBalance) },
  ]
}

/** One side (base or quote coin) of an isolated margin pair. */
export interface IsolatedSide {
  side: 'base' | 'quote'
  coin: string
  total: string
  available: string
  borrowed: string
  interest: string
  net: string
}

/** The base and quote rows of an isolated pair (spec §3: total, available, borrowed, interest, net asset). */
export function isolatedSides(p: IsolatedPair): IsolatedSide[] {
  return [
    {
      side: 'base', coin: p.baseCoin, total: p.baseTotalBalance, available: p.baseNormalBalance, borrowed: p.baseBorrowBalance,
      interest: p.baseInterest, net: p.baseNetAssetBalance,
    },
    {
      side: 'quote', coin: p.quoteCoin, total: p.quoteTotalBalance, available: p.quoteNormalBalance, borrowed: p.quoteBorrowBalance,
      interest: p.quoteInterest, net: p.quoteNetAssetBalance,
    },
  ]
}

function isolatedColumns(t: TranslateFn, hidden: boolean): DataColumn<IsolatedSide>[] {
  return [
    { id: 'coin', header: t('cols.coin'), card: 'title', cell: (r) => r.coin },
    { id: 'total', header: t('cols.total'), numeric: true, testId: (r) => `isolated-${r.side}-total`, cell: (r) => hide(hidden, formatFixed(r.total, 4)) },
    { id: 'available', header: t('cols.available'), numeric: true, cell: (r) => hide(hidden, formatFixed(r.available, 4)) },
    { id: 'borrowed', header: t('cols.borrowed'), numeric: true, cell: (r) => hide(hidden, formatFixed(r.borrowed, 4)) },
    { id: 'interest', header: t('cols.interest'), numeric: true, cell: (r) => hide(hidden, formatFixed(r.interest, 4)) },
    { id: 'net', header: t('cols.net'), numeric: true, cell: (r) => hide(hidden, formatFixed(r.net, 4)) },
  ]
}

function otcColumns(t: TranslateFn, hidden: boolean, fiat: Fiat): DataColumn<OTCCoin>[] {
  return [
    { id: 'coin', header: t('cols.coin'), card: 'title', cell: (c) => <CoinCell coin={c.coinSymbol} icon={c.icon} /> },
    { id: 'available', header: t('cols.available'), numeric: true, testId: 'otc-available', cell: (c) => hide(hidden, formatFixed(c.normal, 2)) },
    { id: 'frozen', header: t('cols.frozen'), numeric: true, cell: (c) => hide(hidden, formatFixed(c.lock, 2)) },
    { id: 'total', header: t('cols.total'), numeric: true, cell: (c) => hide(hidden, formatFixed(c.total, 2)) },
    { id: 'valuation', header: t('cols.valuation'), numeric: true, cell: (c) => hide(hidden, fiat(c.total, c.coinSymbol)) },
  ]
}

function futuresColumns(t: TranslateFn, hidden: boolean): DataColumn<FuturesAccount>[] {
  return [
    { id: 'coin', header: t('cols.coin'), card: 'title', cell: (a) => <CoinCell coin={a.symbol} icon={a.icon} /> },
    { id: 'available', header: t('cols.available'), numeric: true, testId: 'futures-available', cell: (a) => hide(hidden, formatFixed(a.canUseAmount, 8)) },
    { id: 'margin', header: t('cols.margin'), numeric: true, cell: (a) => hide(hidden, formatFixed(a.totalMargin, 8)) },
    { id: 'frozen', header: t('cols.frozen'), numeric: true, cell: (a) => hide(hidden, formatFixed(a.lockAmount, 8)) },
    { id: 'total', header: t('cols.total'), numeric: true, cell: (a) => hide(hidden, formatFixed(a.totalAmount, 8)) },
  ]
}

/** The decimals of the totals (spec §9), and of a coin whose precision is not known. */
export const TOTAL_DECIMALS = 8

/** Cross margin account: summary and per-coin balances. */
export function CrossView({ hidden, openModal }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.cross(currency), queryFn: () => getCrossBalance(currency) })
  const d = q.data
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      {d ? (
        <Stack gap="4" data-testid="cross-view">
          <HStack justify="space-between" align="flex-start" flexWrap="wrap" gap="4">
            <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4" flex="1" data-testid="cross-summary">
              <Figure label={t('margin.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
              <Figure label={t('margin.net')} value={hide(hidden, `${formatFixed(d.netAssetBalance, 8)} ${d.totalBalanceSymbol}`)} testId="cross-net" />
              <Figure label={t('margin.borrowed')} value={hide(hidden, `${formatFixed(d.totalBorrowBalance, 8)} ${d.totalBalanceSymbol}`)} testId="cross-borrowed" />
              <Figure label={t('margin.risk')} value={formatFixed(d.riskRate, 2)} sub={t('margin.remind', { rate: formatFixed(d.remindRiskRate, 2) })} />
            </SimpleGrid>
            <TransferButton t={t} onClick={() => openModal({ modal: 'transfer', account: 'margin_cross' })} testId="transfer-cross" />
          </HStack>
          <DataTable<CrossCoin>
            columns={crossColumns(t, hidden)}
            rows={d.coinList}
            rowKey={(c) => c.coinSymbol}
            label={t('views.cross')}
            testId="cross-table"
            rowTestId={(c) => `cross-row-${c.coinSymbol}`}
            emptyText={t('empty')}
          />
        </Stack>
      ) : null}
    </QueryState>
  )
}

/** Isolated margin: one card per pair with its base and quote balances. */
export function IsolatedView({ hidden, openModal }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.isolated(currency), queryFn: () => getIsolatedBalance(currency) })
  const d = q.data
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} isEmpty={!!d && d.list.length === 0} emptyText={t('empty')} onRetry={() => void q.refetch()} {...states}>
      {d ? (
        <Stack gap="4" data-testid="isolated-view">
          <HStack justify="space-between" flexWrap="wrap" gap="4">
            <Figure label={t('margin.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
            <TransferButton t={t} onClick={() => openModal({ modal: 'transfer', account: 'margin_isolated' })} testId="transfer-isolated" />
          </HStack>
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
            {d.list.map((p) => (
              <Box key={p.symbol} borderWidth="1px" rounded="md" p="4" data-testid={`isolated-${p.symbol}`}>
                <HStack justify="space-between" mb="3">
                  <HStack gap="2">
                    <Text fontWeight="semibold">{p.name}</Text>
                    <Badge>{`${p.multiple}x`}</Badge>
                  </HStack>
                  <Text fontSize="sm" color="fg.muted">
                    {t('margin.riskShort', { rate: formatFixed(p.riskRate, 2) })}
                  </Text>
                </HStack>
                <DataTable<IsolatedSide>
                  layout="auto"
                  cardsBelow="md"
                  columns={isolatedColumns(t, hidden)}
                  rows={isolatedSides(p)}
                  rowKey={(r) => r.side}
                  label={p.name}
                  emptyText={t('empty')}
                />
              </Box>
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
    </QueryState>
  )
}

/** OTC account (2 decimals, spec §9). */
export function OtcView({ hidden, openModal }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.otc(currency), queryFn: () => getOtcAccount(currency) })
  const d = q.data
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      {d ? (
        <Stack gap="4" data-testid="otc-view">
          <HStack justify="space-between" flexWrap="wrap" gap="4">
            <Figure label={t('otc.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
            <TransferButton t={t} onClick={() => openModal({ modal: 'transfer', account: 'otc' })} testId="transfer-otc" />
          </HStack>
          <DataTable<OTCCoin>
            columns={otcColumns(t, hidden, fiat)}
            rows={d.coinList}
            rowKey={(c) => c.coinSymbol}
            label={t('views.otc')}
            testId="otc-table"
            rowTestId={(c) => `otc-row-${c.coinSymbol}`}
            emptyText={t('empty')}
          />
        </Stack>
      ) : null}
    </QueryState>
  )
}

/** Futures account (8 decimals) with the 7-days-back statistics. */
export function FuturesView({ hidden, openModal }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.futures(currency), queryFn: () => getFuturesBalance(currency) })
  const stats = useQuery({ queryKey: walletKeys.futuresStats, queryFn: getFuturesStats })
  const d = q.data
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      {d ? (
        <Stack gap="4" data-testid="futures-view">
          <HStack justify="space-between" flexWrap="wrap" gap="4" align="flex-start">
            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" flex="1">
              <Figure label={t('futures.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
              {stats.data ? (
                <Figure
                  label={t('futures.lastDay')}
                  value={hide(hidden, `${formatFixed(stats.data.lastDayAmount, 8)} ${stats.data.coinSymbol}`)}
                  sub={`${formatFixed(stats.data.lastRealizedAmountRate, 2)}%`}
                />
              ) : null}
            </SimpleGrid>
            <TransferButton t={t} onClick={() => openModal({ modal: 'transfer', account: 'futures' })} testId="transfer-futures" />
          </HStack>
          <DataTable<FuturesAccount>
            columns={futuresColumns(t, hidden)}
            rows={d.accountList}
            rowKey={(a) => a.symbol}
            label={t('views.futures')}
            testId="futures-table"
            rowTestId={(a) => `futures-row-${a.symbol}`}
            emptyText={t('empty')}
          />
        </Stack>
      ) : null}
    </QueryState>
  )
}
