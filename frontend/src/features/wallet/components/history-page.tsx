import { Badge, Button, Container, Heading, HStack, NativeSelect, Stack, Tabs, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { LuArrowLeft, LuChevronLeft, LuChevronRight } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import {
  getAssets,
  getDepositHistory,
  getTransferHistory,
  getWithdrawHistory,
  walletKeys,
  type DepositRecord,
  type HistoryFilter,
  type Page,
  type TransferRecord,
  type WithdrawRecord,
} from '../api/wallet-api'
import { useWalletLive } from '../hooks/use-wallet-live'
import { formatTime, shortenAddress } from '../lib/format'
import { QueryState } from './shared'

export const HISTORY_TABS = ['deposit', 'withdraw', 'transfer'] as const
export type HistoryTab = (typeof HISTORY_TABS)[number]
/** Order history covers the last 180 days (spec §9). */
export const HISTORY_DAYS = [7, 30, 90, 180] as const
const PAGE_SIZE = 10
/** Poll interval while a record is still moving (confirming deposit, pending withdrawal). */
export const LIVE_POLL_MS = 3000

/** The time window of a range choice: from `days` back to now. */
export function historyWindow(days: number, now = Date.now()): { startTime: number; endTime: number } {
  return { startTime: now - days * 86_400_000, endTime: now }
}

const DEPOSIT_STATUSES = ['confirming', 'credited', 'review']
const WITHDRAW_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED']
const TRANSFER_TYPES = ['otc', 'futures', 'margin']

function isMoving(tab: HistoryTab, list: unknown[]): boolean {
  if (tab === 'deposit') return (list as DepositRecord[]).some((r) => r.status === 'confirming')
  if (tab === 'withdraw') return (list as WithdrawRecord[]).some((r) => r.status === 'PENDING' || r.status === 'PROCESSING')
  return false
}

/** /wallet/history: deposits, withdrawals and transfers with filters and pages. */
export function HistoryPage({ tab, onTab }: { tab: HistoryTab; onTab: (tab: HistoryTab) => void }) {
  const { t } = useTexts('history')
  useWalletLive()
  return (
    <Container maxW="7xl" py={{ base: '4', md: '8' }} data-testid="history-page">
      <HStack mb="6" gap="3">
        <Button asChild size="sm" variant="ghost" aria-label={t('backToWallet')}>
          <AppLink href="/wallet">
            <LuArrowLeft aria-hidden="true" />
          </AppLink>
        </Button>
        <Heading as="h1" size="xl">
          {t('title')}
        </Heading>
      </HStack>
      <Tabs.Root value={tab} onValueChange={(d) => onTab(d.value as HistoryTab)} lazyMount unmountOnExit>
        <Tabs.List>
          {HISTORY_TABS.map((k) => (
            <Tabs.Trigger key={k} value={k} data-testid={`history-tab-${k}`}>
              {t(`tabs.${k}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {HISTORY_TABS.map((k) => (
          <Tabs.Content key={k} value={k}>
            <HistoryTable tab={k} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Container>
  )
}

function HistoryTable({ tab }: { tab: HistoryTab }) {
  const { t } = useTexts('history')
  const common = useTexts('common')
  const [coin, setCoin] = useState('')
  const [status, setStatus] = useState('')
  const [days, setDays] = useState<number>(30)
  const [page, setPage] = useState(1)
  const assets = useQuery({ queryKey: walletKeys.assets('deposit'), queryFn: () => getAssets('deposit') })
  const filter: HistoryFilter = useMemo(() => {
    const w = historyWindow(days)
    // Round to the minute so the query key stays stable between renders.
    const startTime = Math.floor(w.startTime / 60_000) * 60_000
    return {
      coinSymbol: coin || undefined,
      ...(tab === 'transfer' ? { type: status || undefined } : { status: status || undefined }),
      startTime,
      page,
      pageSize: PAGE_SIZE,
    }
  }, [coin, status, days, page, tab])
  const query = useQuery<Page<DepositRecord | WithdrawRecord | TransferRecord>>({
    queryKey: walletKeys.history(tab, filter),
    queryFn: () =>
      tab === 'deposit' ? getDepositHistory(filter) : tab === 'withdraw' ? getWithdrawHistory(filter) : getTransferHistory(filter),
    placeholderData: keepPreviousData,
    // Confirmations and statuses update live while something is still moving.
    refetchInterval: (q) => (isMoving(tab, q.state.data?.list ?? []) ? LIVE_POLL_MS : false),
  })
  const list = query.data?.list ?? []
  const count = query.data?.count ?? 0
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE))
  const statuses = tab === 'deposit' ? DEPOSIT_STATUSES : tab === 'withdraw' ? WITHDRAW_STATUSES : TRANSFER_TYPES
  const coins = Array.from(new Set((assets.data ?? []).map((a) => a.code)))

  const select = (label: string, value: string, onChange: (v: string) => void, options: { value: string; label: string }[], testId: string) => (
    <NativeSelect.Root size="sm" width="auto" minW="36">
      <NativeSelect.Field
        aria-label={label}
        value={value}
        onChange={(e) => {
          onChange(e.target.value)
          setPage(1)
        }}
        data-testid={testId}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  )

  return (
    <Stack gap="4" pt="4">
      <HStack gap="3" flexWrap="wrap">
        {select(t('filters.coin'), coin, setCoin, [{ value: '', label: t('filters.allCoins') }, ...coins.map((c) => ({ value: c, label: c }))], 'filter-coin')}
        {select(
          tab === 'transfer' ? t('filters.type') : t('filters.status'),
          status,
          setStatus,
          [
            { value: '', label: tab === 'transfer' ? t('filters.allTypes') : t('filters.allStatuses') },
            ...statuses.map((s) => ({ value: s, label: t(`status.${s}`) })),
          ],
          'filter-status',
        )}
        {select(
          t('filters.range'),
          String(days),
          (v) => setDays(Number(v)),
          HISTORY_DAYS.map((d) => ({ value: String(d), label: t('filters.days', { n: d }) })),
          'filter-range',
        )}
      </HStack>
      <QueryState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={list.length === 0}
        onRetry={() => void query.refetch()}
        loadingText={common.t('loading')}
        errorText={common.t('error')}
        retryText={common.t('retry')}
        emptyText={t('empty')}
      >
        {tab === 'deposit' ? (
          <HistoryRecords tab={tab} t={t} rows={list as DepositRecord[]} columns={depositColumns(t)} />
        ) : tab === 'withdraw' ? (
          <HistoryRecords tab={tab} t={t} rows={list as WithdrawRecord[]} columns={withdrawColumns(t)} />
        ) : (
          <HistoryRecords tab={tab} t={t} rows={list as TransferRecord[]} columns={transferColumns(t)} />
        )}
        <HStack justify="flex-end" gap="2" data-testid="history-pagination">
          <Button size="xs" variant="outline" aria-label={t('prev')} disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            <LuChevronLeft aria-hidden="true" />
          </Button>
          <Text fontSize="sm">{t('pageOf', { page, pages })}</Text>
          <Button size="xs" variant="outline" aria-label={t('next')} disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            <LuChevronRight aria-hidden="true" />
          </Button>
        </HStack>
      </QueryState>
    </Stack>
  )
}

function StatusBadge({ t, status, extra }: { t: TranslateFn; status: string; extra?: string }) {
  const palette =
    status === 'credited' || status === 'SUCCESS' || status === 'success'
      ? 'green'
      : status === 'FAILED'
        ? 'red'
        : status === 'review'
          ? 'gray'
          : 'orange'
  return (
    <Badge colorPalette={palette} data-testid="history-status" data-status={status}>
      {extra ?? t(`status.${status}`)}
    </Badge>
  )
}

/**
 * The records of a tab: a table on wide screens and on phones one card per
 * record with the amount and status first, then time and details.
 */
function HistoryRecords<T extends { id: string }>({
  tab,
  t,
  rows,
  columns,
}: {
  tab: HistoryTab
  t: TranslateFn
  rows: T[]
  columns: DataColumn<T>[]
}) {
  return (
    <DataTable<T>
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      label={t(`tabs.${tab}`)}
      testId={`history-table-${tab}`}
      cardsTestId={`history-cards-${tab}`}
      rowTestId={(_, layout) => (layout === 'cards' ? `${tab}-card` : `${tab}-row`)}
      emptyText={t('empty')}
    />
  )
}

/** The amount and coin, the heading of a card. */
function CardAmount({ amount, coin }: { amount: string; coin: string }) {
  return (
    <Text as="span" fontWeight="medium" fontVariantNumeric="tabular-nums">{`${amount} ${coin}`}</Text>
  )
}

/** An address or transaction id, shortened, with the full value on hover. */
function Mono({ text, title }: { text: string; title?: string }) {
  return (
    <Text as="span" fontFamily="mono" fontSize="xs" title={title}>
      {text}
    </Text>
  )
}

function depositColumns(t: TranslateFn): DataColumn<DepositRecord>[] {
  return [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'line', cell: (r) => formatTime(r.createTime) },
    { id: 'coin', header: t('cols.coin'), card: 'hidden', cell: (r) => r.coin },
    {
      id: 'chain',
      header: t('cols.chain'),
      card: 'line',
      cell: (r, layout) => (layout === 'cards' ? <Text as="span" fontFamily="mono">{`${r.chain} · ${shortenAddress(r.txid || '--')}`}</Text> : r.chain),
    },
    { id: 'amount', header: t('cols.amount'), numeric: true, card: 'title', cell: (r, layout) => (layout === 'cards' ? <CardAmount amount={r.amount} coin={r.coin} /> : r.amount) },
    { id: 'txid', header: t('cols.txid'), card: 'hidden', cell: (r) => <Mono text={shortenAddress(r.txid || '--')} title={r.txid} /> },
    {
      id: 'status',
      header: t('cols.status'),
      card: 'aside',
      cell: (r) => (
        <StatusBadge
          t={t}
          status={r.status}
          extra={r.status === 'confirming' ? t('status.confirmingN', { n: r.confirmations, of: r.requiredConfirmations }) : undefined}
        />
      ),
    },
  ]
}

function withdrawColumns(t: TranslateFn): DataColumn<WithdrawRecord>[] {
  const bank = (r: WithdrawRecord) => `${r.bankName ?? ''} ${r.bankAccNo ?? ''}`
  return [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'line', cell: (r) => formatTime(r.createTime) },
    { id: 'coin', header: t('cols.coin'), card: 'hidden', cell: (r) => r.coin },
    {
      id: 'chain',
      header: t('cols.chain'),
      card: 'line',
      cell: (r, layout) =>
        layout === 'cards' ? (
          <Text as="span" fontFamily="mono">
            {r.kind === 'bank' ? bank(r) : `${r.chain} · ${shortenAddress(r.address)}`}
          </Text>
        ) : (
          r.chain
        ),
    },
    { id: 'amount', header: t('cols.amount'), numeric: true, card: 'title', cell: (r, layout) => (layout === 'cards' ? <CardAmount amount={r.amount} coin={r.coin} /> : r.amount) },
    { id: 'fee', header: t('cols.fee'), numeric: true, card: 'hidden', cell: (r) => r.fee },
    { id: 'address', header: t('cols.address'), card: 'hidden', cell: (r) => <Mono text={r.kind === 'bank' ? bank(r) : shortenAddress(r.address)} title={r.address} /> },
    { id: 'status', header: t('cols.status'), card: 'aside', cell: (r) => <StatusBadge t={t} status={r.status} /> },
  ]
}

function transferColumns(t: TranslateFn): DataColumn<TransferRecord>[] {
  const account = (r: TransferRecord, which: string) => `${t(`accounts.${which}`)}${which === 'margin_isolated' && r.symbol ? ` (${r.symbol})` : ''}`
  return [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'line', cell: (r) => formatTime(r.ctime) },
    { id: 'coin', header: t('cols.coin'), card: 'hidden', cell: (r) => r.coinSymbol },
    { id: 'amount', header: t('cols.amount'), numeric: true, card: 'title', cell: (r, layout) => (layout === 'cards' ? <CardAmount amount={r.amount} coin={r.coinSymbol} /> : r.amount) },
    {
      id: 'from',
      header: t('cols.from'),
      card: 'line',
      cell: (r, layout) => (layout === 'cards' ? `${t(`accounts.${r.fromAccount}`)} → ${t(`accounts.${r.toAccount}`)}` : account(r, r.fromAccount)),
    },
    { id: 'to', header: t('cols.to'), card: 'hidden', cell: (r) => account(r, r.toAccount) },
    { id: 'status', header: t('cols.status'), card: 'aside', cell: (r) => <StatusBadge t={t} status={r.status} /> },
  ]
}
