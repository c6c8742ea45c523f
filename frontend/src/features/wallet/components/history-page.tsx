import { Badge, Button, Container, Heading, HStack, Link, NativeSelect, Stack, Tabs, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { LuArrowLeft, LuExternalLink } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { Pager, pageCount, type PagerLabels } from '@/components/data/pager'
import { AppLink } from '@/components/layout/app-link'
import { formatAtLeast } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import {
  getAssets,
  getDepositHistory,
  getPaymentList,
  getTransferHistory,
  getWithdrawHistory,
  recordBankTitle,
  walletKeys,
  type DepositRecord,
  type HistoryFilter,
  type Page,
  type TransferRecord,
  type WithdrawRecord,
} from '../api/wallet-api'
import { explorerHref, formatTime, shortenAddress } from '../lib/format'
import { HISTORY_TABS, type HistoryTab } from '../lib/search'
import { QueryState } from './shared'

export { HISTORY_TABS, type HistoryTab } from '../lib/search'
/** The history covers the last 180 days (spec §9). */
export const HISTORY_DAYS = [7, 30, 90, 180] as const
export const HISTORY_PAGE_SIZE = 10
/** Poll interval while a record is still moving (confirming deposit, pending withdrawal). */
export const LIVE_POLL_MS = 3000

/** The time window of a range choice: from `days` back to now. */
export function historyWindow(days: number, now = Date.now()): { startTime: number; endTime: number } {
  return { startTime: now - days * 86_400_000, endTime: now }
}

const DEPOSIT_STATUSES = ['confirming', 'credited', 'review', 'below_min']
const WITHDRAW_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED']
const TRANSFER_TYPES = ['otc', 'futures', 'margin']

/** The shared pager's texts, from the history texts. */
function pagerLabels(t: TranslateFn): PagerLabels {
  return {
    nav: t('pager.nav'),
    prev: t('pager.prev'),
    next: t('pager.next'),
    page: (page) => t('pager.page', { page }),
    status: (page, pages) => t('pager.status', { page, pages }),
  }
}

function isMoving(tab: HistoryTab, list: unknown[]): boolean {
  if (tab === 'deposit') return (list as DepositRecord[]).some((r) => r.status === 'confirming')
  if (tab === 'withdraw') return (list as WithdrawRecord[]).some((r) => r.status === 'PENDING' || r.status === 'PROCESSING')
  return false
}

/** /wallet/history: deposits, withdrawals and transfers with filters and pages. */
export function HistoryPage({ tab, onTab }: { tab: HistoryTab; onTab: (tab: HistoryTab) => void }) {
  const { t } = useTexts('history')
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
  const { t, lan } = useTexts('history')
  const common = useTexts('common')
  const [coin, setCoin] = useState('')
  const [status, setStatus] = useState('')
  const [days, setDays] = useState<number>(30)
  const [page, setPage] = useState(1)
  const assets = useQuery({ queryKey: walletKeys.assets('deposit'), queryFn: () => getAssets('deposit') })
  // A bank withdrawal names its bank as the modals do: the record keeps the
  // Mongolian name; for records from before it did, the payment list gives it.
  const payments = useQuery({ queryKey: walletKeys.payments, queryFn: getPaymentList, staleTime: 10 * 60 * 1000, enabled: tab === 'withdraw' && lan === 'mn_MN' })
  const bankName: BankNameFn = (r) => (lan === 'mn_MN' && r.bankNameMn ? r.bankNameMn : recordBankTitle(r.bankName ?? '', payments.data, lan))
  const filter: HistoryFilter = useMemo(() => {
    const w = historyWindow(days)
    // Round to the minute so the query key stays stable between renders.
    const startTime = Math.floor(w.startTime / 60_000) * 60_000
    return {
      coinSymbol: coin || undefined,
      ...(tab === 'transfer' ? { type: status || undefined } : { status: status || undefined }),
      startTime,
      page,
      pageSize: HISTORY_PAGE_SIZE,
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
  const count = query.data?.count
  // A page that no longer exists (records aged out of the window) falls back to the last one.
  useEffect(() => {
    if (count !== undefined && count > 0 && page > pageCount(count, HISTORY_PAGE_SIZE)) setPage(pageCount(count, HISTORY_PAGE_SIZE))
  }, [count, page])
  const statuses = tab === 'deposit' ? DEPOSIT_STATUSES : tab === 'withdraw' ? WITHDRAW_STATUSES : TRANSFER_TYPES
  const coins = Array.from(new Set((assets.data ?? []).map((a) => a.code)))
  // Amounts at their coin's precision (spec §9), by code and by symbol (MNT and MONT).
  const amount: AmountFn = useMemo(() => {
    const fix = new Map<string, number>()
    for (const a of assets.data ?? []) {
      fix.set(a.code, a.fix)
      fix.set(a.value, a.fix)
    }
    return (value, coin) => formatAtLeast(value, fix.get(coin) ?? 0)
  }, [assets.data])

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
          <HistoryRecords tab={tab} t={t} rows={list as DepositRecord[]} columns={depositColumns(t, amount)} />
        ) : tab === 'withdraw' ? (
          <HistoryRecords tab={tab} t={t} rows={list as WithdrawRecord[]} columns={withdrawColumns(t, amount, bankName)} />
        ) : (
          <HistoryRecords tab={tab} t={t} rows={list as TransferRecord[]} columns={transferColumns(t, amount)} />
        )}
        <Pager
          page={page}
          pageSize={HISTORY_PAGE_SIZE}
          count={count ?? 0}
          onPageChange={setPage}
          labels={pagerLabels(t)}
          testId="history-pager"
        />
      </QueryState>
    </Stack>
  )
}

function StatusBadge({ t, status, extra }: { t: TranslateFn; status: string; extra?: string }) {
  const palette =
    status === 'credited' || status === 'SUCCESS' || status === 'success'
      ? 'green'
      : status === 'FAILED' || status === 'below_min'
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

/**
 * A transaction id, shortened, linked to its page on the chain's block
 * explorer when the record has one (a new tab); '--' before it has an id.
 */
function TxId({ t, txid, url }: { t: TranslateFn; txid?: string; url?: string }) {
  if (!txid) return <Mono text="--" />
  const href = explorerHref(url)
  const short = shortenAddress(txid)
  if (!href) return <Mono text={short} title={txid} />
  return (
    <Link
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      fontFamily="mono"
      fontSize="xs"
      color="brand.fg"
      title={txid}
      aria-label={t('explorerLabel', { txid: short })}
      data-testid="tx-explorer-link"
    >
      {short}
      <LuExternalLink aria-hidden="true" />
    </Link>
  )
}

/** A network name; the bank 'chain' of MNT is named in the page's language. */
function chainName(t: TranslateFn, chain: string): string {
  return chain.toLowerCase() === 'bank' ? t('bankChain') : chain
}

/** An amount of a coin as the history shows it. */
type AmountFn = (value: string, coin: string) => string
/** A withdrawal's bank name in the page's language. */
type BankNameFn = (r: WithdrawRecord) => string

function depositColumns(t: TranslateFn, amount: AmountFn): DataColumn<DepositRecord>[] {
  return [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'line', cell: (r) => formatTime(r.createTime) },
    { id: 'coin', header: t('cols.coin'), card: 'hidden', cell: (r) => r.coin },
    {
      id: 'chain',
      header: t('cols.chain'),
      card: 'line',
      cell: (r, layout) => (layout === 'cards' ? <Text as="span" fontFamily="mono">{`${chainName(t, r.chain)} · ${shortenAddress(r.txid || '--')}`}</Text> : chainName(t, r.chain)),
    },
    { id: 'amount', header: t('cols.amount'), numeric: true, card: 'title', cell: (r, layout) => (layout === 'cards' ? <CardAmount amount={amount(r.amount, r.coin)} coin={r.coin} /> : amount(r.amount, r.coin)) },
    { id: 'txid', header: t('cols.txid'), card: 'hidden', cell: (r) => <TxId t={t} txid={r.txid} url={r.explorerUrl} /> },
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

function withdrawColumns(t: TranslateFn, amount: AmountFn, bankName: BankNameFn): DataColumn<WithdrawRecord>[] {
  const bank = (r: WithdrawRecord) => `${bankName(r)} ${r.bankAccNo ?? ''}`.trim()
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
          chainName(t, r.chain)
        ),
    },
    { id: 'amount', header: t('cols.amount'), numeric: true, card: 'title', cell: (r, layout) => (layout === 'cards' ? <CardAmount amount={amount(r.amount, r.coin)} coin={r.coin} /> : amount(r.amount, r.coin)) },
    // Fees at 2 places (spec §9), with every significant digit of a smaller crypto fee.
    { id: 'fee', header: t('cols.fee'), numeric: true, card: 'hidden', cell: (r) => formatAtLeast(r.fee, 2) },
    { id: 'address', header: t('cols.address'), card: 'hidden', cell: (r) => <Mono text={r.kind === 'bank' ? bank(r) : shortenAddress(r.address)} title={r.address} /> },
    // Once sent, a chain withdrawal has its transaction id, linked to the chain's explorer.
    {
      id: 'txid',
      header: t('cols.txid'),
      card: 'line',
      cell: (r, layout) =>
        layout === 'cards' ? (
          r.txid ? (
            <Text as="span">
              {`${t('cols.txid')}: `}
              <TxId t={t} txid={r.txid} url={r.explorerUrl} />
            </Text>
          ) : null
        ) : (
          <TxId t={t} txid={r.txid} url={r.explorerUrl} />
        ),
    },
    { id: 'status', header: t('cols.status'), card: 'aside', cell: (r) => <StatusBadge t={t} status={r.status} /> },
  ]
}

/**
 * An isolated margin pair as BASE/QUOTE: the record's pair code (BTCUSDT)
 * split at its coin, which is the base or the quote; the code as it is
 * otherwise.
 */
export function pairName(symbol: string, coin: string): string {
  const s = symbol.toUpperCase().replace(/[/_-]/g, '')
  const c = coin.toUpperCase()
  if (c && s.length > c.length) {
    if (s.startsWith(c)) return `${c}/${s.slice(c.length)}`
    if (s.endsWith(c)) return `${s.slice(0, -c.length)}/${c}`
  }
  return symbol
}

function transferColumns(t: TranslateFn, amount: AmountFn): DataColumn<TransferRecord>[] {
  // An isolated margin account is named with its pair, when the record has it.
  const account = (r: TransferRecord, which: string) =>
    `${t(`accounts.${which}`)}${which === 'margin_isolated' && r.symbol ? ` (${pairName(r.symbol, r.coinSymbol)})` : ''}`
  return [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'line', cell: (r) => formatTime(r.ctime) },
    { id: 'coin', header: t('cols.coin'), card: 'hidden', cell: (r) => r.coinSymbol },
    { id: 'amount', header: t('cols.amount'), numeric: true, card: 'title', cell: (r, layout) => (layout === 'cards' ? <CardAmount amount={amount(r.amount, r.coinSymbol)} coin={r.coinSymbol} /> : amount(r.amount, r.coinSymbol)) },
    {
      id: 'from',
      header: t('cols.from'),
      card: 'line',
      cell: (r, layout) => (layout === 'cards' ? `${account(r, r.fromAccount)} → ${account(r, r.toAccount)}` : account(r, r.fromAccount)),
    },
    { id: 'to', header: t('cols.to'), card: 'hidden', cell: (r) => account(r, r.toAccount) },
    { id: 'status', header: t('cols.status'), card: 'aside', cell: (r) => <StatusBadge t={t} status={r.status} /> },
  ]
}
