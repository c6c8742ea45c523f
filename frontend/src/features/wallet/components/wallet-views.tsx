import { Badge, Box, Button, Checkbox, HStack, Input, InputGroup, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState, type ReactNode } from 'react'
import { LuSearch } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useLinkResolver } from '@/components/layout/link-target'
import type { TranslateFn } from '@/lib/i18n'
import { useTexts } from '@/lib/i18n'
import {
  getCrossBalance,
  getEarnBalance,
  getFuturesBalance,
  getFuturesStats,
  getIsolatedBalance,
  getOtcAccount,
  getOverview,
  getSpotBalances,
  walletKeys,
  type SpotRow,
} from '../api/wallet-api'
import { compareDecimals, formatFixed, HIDDEN_BALANCE, toChartNumber } from '../lib/format'
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

function useStateTexts() {
  const common = useTexts('common')
  return {
    loadingText: common.t('loading'),
    errorText: common.t('error'),
    retryText: common.t('retry'),
  }
}

function hide(hidden: boolean, v: string): string {
  return hidden ? HIDDEN_BALANCE : v
}

/** A summary figure: label, main value, secondary value. */
function Figure({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId?: string }) {
  return (
    <Stack gap="0.5" data-testid={testId}>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="xl" fontWeight="semibold" fontVariantNumeric="tabular-nums">
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
function TradeLink({ coin, children }: { coin: string; children: ReactNode }) {
  const resolve = useLinkResolver()
  return (
    <AppLink href={resolve(tradeHref(coin))}>
      {children}
    </AppLink>
  )
}

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

/** The fiat and spot coin list with the per-coin actions (spec §2). */
export function SpotView({ hidden, openModal }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const [search, setSearch] = useState('')
  const [hideSmall, setHideSmall] = useState(false)
  const rows = useMemo(() => filterSpotRows(q.data?.coinList ?? [], search, hideSmall), [q.data, search, hideSmall])
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
        {rows.length === 0 ? (
          <Text color="fg.muted" py="6" textAlign="center" data-testid="wallet-empty">
            {t('spot.empty')}
          </Text>
        ) : (
          <>
          <Stack gap="2" hideFrom="md" data-testid="spot-cards">
            {rows.map((r) => (
              <SpotCard key={r.coin} row={r} hidden={hidden} fiat={fiat} openModal={openModal} />
            ))}
          </Stack>
          <Table.ScrollArea borderWidth="1px" rounded="md" hideBelow="md">
            <Table.Root size="sm" data-testid="spot-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.total')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.available')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.frozen')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.valuation')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.actions')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((r) => (
                  <Table.Row key={r.coin} data-testid={`spot-row-${r.coin}`}>
                    <Table.Cell>
                      <HStack gap="2">
                        <CoinIcon coin={r.coin} src={r.icon} />
                        <Stack gap="0">
                          <Text fontWeight="medium">{r.showName || r.coin}</Text>
                          <Text fontSize="xs" color="fg.muted">
                            {r.longName}
                          </Text>
                        </Stack>
                      </HStack>
                    </Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" data-testid="spot-total">
                      {hide(hidden, formatFixed(r.total, r.showPrecision))}
                    </Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" data-testid="spot-available">
                      {hide(hidden, formatFixed(r.normal, r.showPrecision))}
                    </Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                      {hide(hidden, formatFixed(r.freeze, r.showPrecision))}
                    </Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                      {hide(hidden, fiat(r.btcValuation))}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <HStack gap="1" justify="flex-end">
                        {r.depositOpen ? (
                          <Button size="xs" variant="ghost" colorPalette="brand" onClick={() => openModal({ modal: 'deposit', coin: r.coin })} data-testid={`deposit-${r.coin}`}>
                            {t('actions.deposit')}
                          </Button>
                        ) : null}
                        {r.withdrawOpen ? (
                          <Button size="xs" variant="ghost" colorPalette="brand" onClick={() => openModal({ modal: 'withdraw', coin: r.coin })} data-testid={`withdraw-${r.coin}`}>
                            {t('actions.withdraw')}
                          </Button>
                        ) : null}
                        {!r.isFiat ? (
                          <Button asChild size="xs" variant="ghost">
                            <TradeLink coin={r.coin}>{t('actions.trade')}</TradeLink>
                          </Button>
                        ) : null}
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          </>
        )}
      </Stack>
    </QueryState>
  )
}

/** One coin of the spot list on phones: balances and the same actions as the table row. */
function SpotCard({
  row: r,
  hidden,
  fiat,
  openModal,
}: {
  row: SpotRow
  hidden: boolean
  fiat: (amount: string | undefined, coin?: string) => string
  openModal: (state: ModalState) => void
}) {
  const { t } = useTexts('wallet')
  return (
    <Box borderWidth="1px" rounded="md" p="3" data-testid={`spot-card-${r.coin}`}>
      <HStack justify="space-between" mb="2">
        <HStack gap="2">
          <CoinIcon coin={r.coin} src={r.icon} />
          <Stack gap="0">
            <Text fontWeight="medium">{r.showName || r.coin}</Text>
            <Text fontSize="xs" color="fg.muted">
              {r.longName}
            </Text>
          </Stack>
        </HStack>
        <Stack gap="0" textAlign="right">
          <Text fontWeight="medium" fontVariantNumeric="tabular-nums">
            {hide(hidden, formatFixed(r.total, r.showPrecision))}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {hide(hidden, fiat(r.btcValuation))}
          </Text>
        </Stack>
      </HStack>
      <SimpleGrid columns={2} gap="1" fontSize="xs" mb="2">
        <Text color="fg.muted">{t('cols.available')}</Text>
        <Text textAlign="right" fontVariantNumeric="tabular-nums">
          {hide(hidden, formatFixed(r.normal, r.showPrecision))}
        </Text>
        <Text color="fg.muted">{t('cols.frozen')}</Text>
        <Text textAlign="right" fontVariantNumeric="tabular-nums">
          {hide(hidden, formatFixed(r.freeze, r.showPrecision))}
        </Text>
      </SimpleGrid>
      <HStack gap="2">
        {r.depositOpen ? (
          <Button size="xs" flex="1" variant="outline" onClick={() => openModal({ modal: 'deposit', coin: r.coin })} data-testid={`m-deposit-${r.coin}`}>
            {t('actions.deposit')}
          </Button>
        ) : null}
        {r.withdrawOpen ? (
          <Button size="xs" flex="1" variant="outline" onClick={() => openModal({ modal: 'withdraw', coin: r.coin })} data-testid={`m-withdraw-${r.coin}`}>
            {t('actions.withdraw')}
          </Button>
        ) : null}
        {!r.isFiat ? (
          <Button asChild size="xs" flex="1" variant="outline">
            <TradeLink coin={r.coin}>{t('actions.trade')}</TradeLink>
          </Button>
        ) : null}
      </HStack>
    </Box>
  )
}

function TransferButton({ t, onClick, testId }: { t: TranslateFn; onClick: () => void; testId: string }) {
  return (
    <Button size="sm" variant="outline" onClick={onClick} data-testid={testId}>
      {t('actions.transfer')}
    </Button>
  )
}

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
            <SimpleGrid columns={{ base: 2, md: 4 }} gap="4" flex="1">
              <Figure label={t('margin.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
              <Figure label={t('margin.net')} value={hide(hidden, formatFixed(d.netAssetBalance, 8))} />
              <Figure label={t('margin.borrowed')} value={hide(hidden, formatFixed(d.totalBorrowBalance, 8))} />
              <Figure label={t('margin.risk')} value={formatFixed(d.riskRate, 2)} sub={t('margin.remind', { rate: formatFixed(d.remindRiskRate, 2) })} />
            </SimpleGrid>
            <TransferButton t={t} onClick={() => openModal({ modal: 'transfer', account: 'margin_cross' })} testId="transfer-cross" />
          </HStack>
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" data-testid="cross-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.total')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.available')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.borrowed')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.interest')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.net')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {d.coinList.map((c) => {
                  const p = c.returnPrecision || 4
                  return (
                    <Table.Row key={c.coinSymbol} data-testid={`cross-row-${c.coinSymbol}`}>
                      <Table.Cell>
                        <HStack gap="2">
                          <CoinIcon coin={c.coinSymbol} src={c.icon} />
                          <Text>{c.coinSymbol}</Text>
                        </HStack>
                      </Table.Cell>
                      <Table.Cell textAlign="end" data-testid="cross-total">{hide(hidden, formatFixed(c.totalBalance, p))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.normalBalance, p))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.borrowBalance, p))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.interest, p))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.netAssetBalance, p))}</Table.Cell>
                    </Table.Row>
                  )
                })}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
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
                <Table.Root size="sm">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('cols.total')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('cols.available')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('cols.borrowed')}</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    <Table.Row>
                      <Table.Cell>{p.baseCoin}</Table.Cell>
                      <Table.Cell textAlign="end" data-testid="isolated-base-total">{hide(hidden, formatFixed(p.baseTotalBalance, 4))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(p.baseNormalBalance, 4))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(p.baseBorrowBalance, 4))}</Table.Cell>
                    </Table.Row>
                    <Table.Row>
                      <Table.Cell>{p.quoteCoin}</Table.Cell>
                      <Table.Cell textAlign="end" data-testid="isolated-quote-total">{hide(hidden, formatFixed(p.quoteTotalBalance, 4))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(p.quoteNormalBalance, 4))}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(p.quoteBorrowBalance, 4))}</Table.Cell>
                    </Table.Row>
                  </Table.Body>
                </Table.Root>
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
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" data-testid="otc-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.available')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.frozen')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.total')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.valuation')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {d.coinList.map((c) => (
                  <Table.Row key={c.coinSymbol} data-testid={`otc-row-${c.coinSymbol}`}>
                    <Table.Cell>
                      <HStack gap="2">
                        <CoinIcon coin={c.coinSymbol} src={c.icon} />
                        <Text>{c.coinSymbol}</Text>
                      </HStack>
                    </Table.Cell>
                    <Table.Cell textAlign="end" data-testid="otc-available">{hide(hidden, formatFixed(c.normal, 2))}</Table.Cell>
                    <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.lock, 2))}</Table.Cell>
                    <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.total, 2))}</Table.Cell>
                    <Table.Cell textAlign="end">{hide(hidden, fiat(c.btcValuation))}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
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
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" data-testid="futures-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.available')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.margin')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.frozen')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('cols.total')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {d.accountList.map((a) => (
                  <Table.Row key={a.symbol} data-testid={`futures-row-${a.symbol}`}>
                    <Table.Cell>
                      <HStack gap="2">
                        <CoinIcon coin={a.symbol} src={a.icon} />
                        <Text>{a.symbol}</Text>
                      </HStack>
                    </Table.Cell>
                    <Table.Cell textAlign="end" data-testid="futures-available">{hide(hidden, formatFixed(a.canUseAmount, 8))}</Table.Cell>
                    <Table.Cell textAlign="end">{hide(hidden, formatFixed(a.totalMargin, 8))}</Table.Cell>
                    <Table.Cell textAlign="end">{hide(hidden, formatFixed(a.lockAmount, 8))}</Table.Cell>
                    <Table.Cell textAlign="end">{hide(hidden, formatFixed(a.totalAmount, 8))}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </Stack>
      ) : null}
    </QueryState>
  )
}

/** Earn account. */
export function EarnView({ hidden }: ViewProps) {
  const { t } = useTexts('wallet')
  const states = useStateTexts()
  const { currency, fiat } = useValuation()
  const q = useQuery({ queryKey: walletKeys.earn(currency), queryFn: () => getEarnBalance(currency) })
  const d = q.data
  return (
    <QueryState isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} {...states}>
      {d ? (
        <Stack gap="4" data-testid="earn-view">
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
            <Figure label={t('earn.total')} value={hide(hidden, `${formatFixed(d.totalBalance, 8)} ${d.totalBalanceSymbol}`)} sub={hide(hidden, fiat(d.totalBalance, d.totalBalanceSymbol))} />
            <Figure label={t('earn.yesterday')} value={hide(hidden, `${formatFixed(d.interestYesterday, 8)} ${d.interestSymbol}`)} />
            <Figure label={t('earn.days30')} value={hide(hidden, `${formatFixed(d.interest30days, 8)} ${d.interestSymbol}`)} />
          </SimpleGrid>
          {d.coinList.length === 0 ? (
            <Text color="fg.muted" textAlign="center" py="6">
              {t('empty')}
            </Text>
          ) : (
            <Table.ScrollArea borderWidth="1px" rounded="md">
              <Table.Root size="sm" data-testid="earn-table">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('cols.balance')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('cols.yearRate')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('cols.totalInterest')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('cols.auto')}</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {d.coinList.map((c) => (
                    <Table.Row key={c.coinSymbol}>
                      <Table.Cell>
                        <HStack gap="2">
                          <CoinIcon coin={c.coinSymbol} src={c.icon} />
                          <Text>{c.coinSymbol}</Text>
                        </HStack>
                      </Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.balance, 8))}</Table.Cell>
                      <Table.Cell textAlign="end">{`${formatFixed(c.yearRate, 2)}%`}</Table.Cell>
                      <Table.Cell textAlign="end">{hide(hidden, formatFixed(c.totalInterest, 8))}</Table.Cell>
                      <Table.Cell textAlign="end">{c.autoStatus === 1 ? t('earn.on') : t('earn.off')}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
        </Stack>
      ) : null}
    </QueryState>
  )
}
