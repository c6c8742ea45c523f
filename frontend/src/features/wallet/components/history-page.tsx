import { Badge, Button, Container, Heading, HStack, NativeSelect, Stack, Table, Tabs, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState, type ReactNode } from 'react'
import { LuArrowLeft, LuChevronLeft, LuChevronRight } from 'react-icons/lu'
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
        <Stack gap="2" hideFrom="md" data-testid={`history-cards-${tab}`}>
          {list.map((r) => (
            <HistoryCard key={r.id} t={t} tab={tab} record={r} />
          ))}
        </Stack>
        <Table.ScrollArea borderWidth="1px" rounded="md" hideBelow="md">
          <Table.Root size="sm" data-testid={`history-table-${tab}`}>
            {tab === 'deposit' ? (
              <DepositRows t={t} list={list as DepositRecord[]} />
            ) : tab === 'withdraw' ? (
              <WithdrawRows t={t} list={list as WithdrawRecord[]} />
            ) : (
              <TransferRows t={t} list={list as TransferRecord[]} />
            )}
          </Table.Root>
        </Table.ScrollArea>
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

function DepositRows({ t, list }: { t: TranslateFn; list: DepositRecord[] }) {
  return (
    <>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t('cols.time')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.chain')}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t('cols.amount')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.txid')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.status')}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {list.map((r) => (
          <Table.Row key={r.id} data-testid="deposit-row">
            <Table.Cell whiteSpace="nowrap">{formatTime(r.createTime)}</Table.Cell>
            <Table.Cell>{r.coin}</Table.Cell>
            <Table.Cell>{r.chain}</Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {r.amount}
            </Table.Cell>
            <Table.Cell fontFamily="mono" fontSize="xs" title={r.txid}>
              {shortenAddress(r.txid || '--')}
            </Table.Cell>
            <Table.Cell>
              <StatusBadge
                t={t}
                status={r.status}
                extra={r.status === 'confirming' ? t('status.confirmingN', { n: r.confirmations, of: r.requiredConfirmations }) : undefined}
              />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </>
  )
}

function WithdrawRows({ t, list }: { t: TranslateFn; list: WithdrawRecord[] }) {
  return (
    <>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t('cols.time')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.chain')}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t('cols.amount')}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t('cols.fee')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.address')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.status')}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {list.map((r) => (
          <Table.Row key={r.id} data-testid="withdraw-row">
            <Table.Cell whiteSpace="nowrap">{formatTime(r.createTime)}</Table.Cell>
            <Table.Cell>{r.coin}</Table.Cell>
            <Table.Cell>{r.chain}</Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {r.amount}
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {r.fee}
            </Table.Cell>
            <Table.Cell fontFamily="mono" fontSize="xs" title={r.address}>
              {r.kind === 'bank' ? `${r.bankName ?? ''} ${r.bankAccNo ?? ''}` : shortenAddress(r.address)}
            </Table.Cell>
            <Table.Cell>
              <StatusBadge t={t} status={r.status} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </>
  )
}

function TransferRows({ t, list }: { t: TranslateFn; list: TransferRecord[] }) {
  return (
    <>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t('cols.time')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t('cols.amount')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.from')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.to')}</Table.ColumnHeader>
          <Table.ColumnHeader>{t('cols.status')}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {list.map((r) => (
          <Table.Row key={r.id} data-testid="transfer-row">
            <Table.Cell whiteSpace="nowrap">{formatTime(r.ctime)}</Table.Cell>
            <Table.Cell>{r.coinSymbol}</Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {r.amount}
            </Table.Cell>
            <Table.Cell>{t(`accounts.${r.fromAccount}`)}{r.fromAccount === 'margin_isolated' && r.symbol ? ` (${r.symbol})` : ''}</Table.Cell>
            <Table.Cell>{t(`accounts.${r.toAccount}`)}{r.toAccount === 'margin_isolated' && r.symbol ? ` (${r.symbol})` : ''}</Table.Cell>
            <Table.Cell>
              <StatusBadge t={t} status={r.status} />
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </>
  )
}

/** One record on phones: amount and status first, then time and details. */
function HistoryCard({
  t,
  tab,
  record,
}: {
  t: TranslateFn
  tab: HistoryTab
  record: DepositRecord | WithdrawRecord | TransferRecord
}) {
  let coin: string
  let amount: string
  let time: number
  let detail: string
  let badge: ReactNode
  if (tab === 'deposit') {
    const r = record as DepositRecord
    coin = r.coin
    amount = r.amount
    time = r.createTime
    detail = `${r.chain} · ${shortenAddress(r.txid || '--')}`
    badge = (
      <StatusBadge
        t={t}
        status={r.status}
        extra={r.status === 'confirming' ? t('status.confirmingN', { n: r.confirmations, of: r.requiredConfirmations }) : undefined}
      />
    )
  } else if (tab === 'withdraw') {
    const r = record as WithdrawRecord
    coin = r.coin
    amount = r.amount
    time = r.createTime
    detail = r.kind === 'bank' ? `${r.bankName ?? ''} ${r.bankAccNo ?? ''}` : `${r.chain} · ${shortenAddress(r.address)}`
    badge = <StatusBadge t={t} status={r.status} />
  } else {
    const r = record as TransferRecord
    coin = r.coinSymbol
    amount = r.amount
    time = r.ctime
    detail = `${t(`accounts.${r.fromAccount}`)} → ${t(`accounts.${r.toAccount}`)}`
    badge = <StatusBadge t={t} status={r.status} />
  }
  return (
    <Stack gap="1" borderWidth="1px" rounded="md" p="3" fontSize="sm" data-testid={`${tab}-card`}>
      <HStack justify="space-between">
        <Text fontWeight="medium" fontVariantNumeric="tabular-nums">{`${amount} ${coin}`}</Text>
        {badge}
      </HStack>
      <Text color="fg.muted" fontSize="xs">
        {formatTime(time)}
      </Text>
      <Text color="fg.muted" fontSize="xs" fontFamily={tab === 'transfer' ? undefined : 'mono'} overflowWrap="anywhere">
        {detail}
      </Text>
    </Stack>
  )
}
