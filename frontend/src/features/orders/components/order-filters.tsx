import { Button, Field, Flex, NativeSelect } from '@chakra-ui/react'
import { LuRotateCcw } from 'react-icons/lu'
import { HISTORY_PRESETS } from '@/components/data/history-range'
import { useTexts } from '@/lib/i18n'
import { FINISHED_STATUSES, SIDES, type Side, type SpotPair } from '../api/orders-api'
import { nextSearch, searchDays, type HistoryDays, type OrdersSearch } from '../lib/order-filters'

function Select({
  label,
  value,
  onChange,
  options,
  testId,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  options: { value: string; label: string }[]
  testId: string
}) {
  return (
    // Two to a row on a phone, but never narrower than the longest choice: at 390 px in mn_MN "Сүүлийн 180 хоног"
    // and "Хэсэгчлэн биелээд цуцлагдсан" were cut under the arrow; such a select takes a row of its own instead.
    <Field.Root width={{ base: 'full', sm: 'auto' }} minW={{ base: 'fit-content', sm: '36' }} flex={{ base: '1 1 40%', sm: '0 0 auto' }} data-testid={`${testId}-field`}>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  )
}

/**
 * The filters of the orders page: pair and side everywhere, the status on
 * the order history, and on both history tabs a time range that cannot
 * leave the last 180 days: the choice of the last 7, 30, 90 or 180 days
 * the wallet history offers, named in the app's language (the browser's
 * own date inputs would show dates in the browser's format instead).
 */
export function OrderFilters({
  search,
  onSearch,
  pairs,
}: {
  search: OrdersSearch
  onSearch: (next: OrdersSearch) => void
  pairs: SpotPair[] | undefined
}) {
  const { t } = useTexts('orders')
  const tab = search.tab ?? 'open'
  const change = (c: Partial<OrdersSearch>) => onSearch(nextSearch(search, c))
  const filtered = !!(search.symbol || search.side || search.status || search.days)
  return (
    <Flex as="form" role="search" aria-label={t('filters.label')} gap="3" flexWrap="wrap" align="flex-end" onSubmit={(e) => e.preventDefault()} data-testid="order-filters">
      <Select
        label={t('filters.pair')}
        value={search.symbol ?? ''}
        onChange={(v) => change({ symbol: v || undefined })}
        options={[{ value: '', label: t('filters.allPairs') }, ...(pairs ?? []).map((p) => ({ value: p.symbol, label: p.showName }))]}
        testId="filter-pair"
      />
      <Select
        label={t('filters.side')}
        value={search.side ?? ''}
        onChange={(v) => change({ side: (v || undefined) as Side | undefined })}
        options={[{ value: '', label: t('filters.allSides') }, ...SIDES.map((s) => ({ value: s, label: t(`side.${s}`) }))]}
        testId="filter-side"
      />
      {tab === 'history' && (
        <Select
          label={t('filters.status')}
          value={search.status ? String(search.status) : ''}
          onChange={(v) => change({ status: v ? Number(v) : undefined })}
          options={[{ value: '', label: t('filters.allStatuses') }, ...FINISHED_STATUSES.map((s) => ({ value: String(s), label: t(`status.${s}`) }))]}
          testId="filter-status"
        />
      )}
      {tab !== 'open' && (
        <Select
          label={t('filters.range')}
          value={String(searchDays(search))}
          onChange={(v) => change({ days: Number(v) as HistoryDays })}
          options={HISTORY_PRESETS.map((d) => ({ value: String(d), label: t('filters.days', { n: d }) }))}
          testId="filter-range"
        />
      )}
      {filtered && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => onSearch({ tab: search.tab })}
          data-testid="filter-reset"
        >
          <LuRotateCcw aria-hidden="true" />
          {t('filters.reset')}
        </Button>
      )}
    </Flex>
  )
}
