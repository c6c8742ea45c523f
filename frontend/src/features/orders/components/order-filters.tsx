import { Button, Field, Flex, Input, NativeSelect } from '@chakra-ui/react'
import { LuRotateCcw } from 'react-icons/lu'
import { HISTORY_PRESETS, HISTORY_WINDOW_DAYS, clampDateRange, historyDateBounds, isPresetRange, presetRange } from '@/components/data/history-range'
import { useTexts } from '@/lib/i18n'
import { FINISHED_STATUSES, SIDES, type Side, type SpotPair } from '../api/orders-api'
import { nextSearch, searchRange, type OrdersSearch } from '../lib/order-filters'

/** A labelled date input kept within the history window; an emptied input changes nothing. */
function DateField({
  label,
  value,
  bounds,
  onChange,
  testId,
}: {
  label: string
  value: string
  bounds: { min: string; max: string }
  onChange: (v: string) => void
  testId: string
}) {
  return (
    <Field.Root width={{ base: 'full', sm: 'auto' }} flex={{ base: '1 1 40%', sm: '0 0 auto' }}>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <Input
        type="date"
        size="sm"
        min={bounds.min}
        max={bounds.max}
        value={value}
        onChange={(e) => e.target.value && onChange(e.target.value)}
        data-testid={testId}
      />
    </Field.Root>
  )
}

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
    <Field.Root width={{ base: 'full', sm: 'auto' }} minW={{ sm: '36' }} flex={{ base: '1 1 40%', sm: '0 0 auto' }}>
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
 * leave the last 180 days (quick ranges and two date inputs).
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
  const range = searchRange(search)
  const bounds = historyDateBounds()
  const preset = HISTORY_PRESETS.find((d) => isPresetRange(range, d)) ?? 'custom'
  const filtered = !!(search.symbol || search.side || search.status || search.from || search.to)
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
        <>
          <Select
            label={t('filters.range')}
            value={String(preset)}
            onChange={(v) => {
              if (v === 'custom') return
              const r = presetRange(Number(v))
              change(Number(v) === HISTORY_WINDOW_DAYS ? { from: undefined, to: undefined } : r)
            }}
            options={[
              ...HISTORY_PRESETS.map((d) => ({ value: String(d), label: t('filters.days', { n: d }) })),
              ...(preset === 'custom' ? [{ value: 'custom', label: t('filters.custom') }] : []),
            ]}
            testId="filter-range"
          />
          <DateField
            label={t('filters.from')}
            value={range.from}
            bounds={bounds}
            onChange={(v) => change(clampDateRange(v, range.to))}
            testId="filter-from"
          />
          <DateField
            label={t('filters.to')}
            value={range.to}
            bounds={bounds}
            onChange={(v) => change(clampDateRange(range.from, v))}
            testId="filter-to"
          />
        </>
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
