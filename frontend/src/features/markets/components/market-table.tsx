import { Badge, Button, chakra, Field, Flex, HStack, Icon, IconButton, Image, NativeSelect, Stack, Table, Text } from '@chakra-ui/react'
import { useRouter } from '@tanstack/react-router'
import { LuArrowDown, LuArrowUp, LuArrowUpDown, LuStar } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { isLive } from '@/lib/capabilities'
import { changeColor, formatRose } from '@/lib/change'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import type { MarketPair } from '../api/get-market-overview'
import { formatFiatPrice } from '../lib/fiat'
import { formatPrice, formatVolume } from '../lib/market-format'
import { SORT_KEYS, type MarketRow, type MarketSort, type SortDir, type SortKey } from '../lib/market-rows'
import { Sparkline } from './sparkline'

/**
 * The base coin's icon, from sm up: a phone's row keeps its width for the
 * figures. It never shrinks: a lazy image's own width (none until it loads)
 * would otherwise let the table's layout squeeze the pair under the name.
 */
function CoinIcon({ pair }: { pair: MarketPair }) {
  if (pair.icon) {
    return <Image src={pair.icon} alt="" boxSize="6" flexShrink="0" rounded="full" loading="lazy" hideBelow="sm" />
  }
  return (
    <Flex
      boxSize="6"
      flexShrink="0"
      hideBelow="sm"
      rounded="full"
      bg="brand.muted"
      color="brand.fg"
      align="center"
      justify="center"
      fontSize="2xs"
      fontWeight="bold"
      aria-hidden="true"
    >
      {pair.base.slice(0, 3)}
    </Flex>
  )
}

/**
 * Below which breakpoint each column is hidden: a phone (below sm) keeps the
 * pair, its last price and its change (the sort select reaches the rest).
 */
const HIDE_BELOW: Partial<Record<SortKey | 'name' | 'trend' | 'action', 'sm' | 'md' | 'lg' | 'xl'>> = {
  name: 'xl',
  fiat: 'sm',
  high: 'lg',
  low: 'lg',
  volume: 'md',
  trend: 'md',
  action: 'sm',
}

/** The header text of a sortable column. */
function columnLabel(key: SortKey, t: TranslateFn, currency: string): string {
  switch (key) {
    case 'price':
      return t('markets.lastPrice')
    case 'fiat':
      return t('markets.fiatPrice', { currency })
    case 'change':
      return t('markets.change')
    case 'high':
      return t('markets.high')
    case 'low':
      return t('markets.low')
    case 'volume':
      return t('markets.volume')
  }
}

/**
 * The header of a sortable column: a button that sorts by it (the caller's
 * order of clicks; here high to low, then low to high, then the server's
 * order), its state in aria-sort and an arrow. Long headers (mn_MN) wrap
 * instead of widening the table. The trade page's market list uses it too.
 */
export function SortHeader<K extends string>({
  column,
  label,
  sort,
  onSort,
  hideBelow,
  align = 'end',
  testId = `sort-${column}`,
}: {
  column: K
  label: string
  sort?: { key: string; dir: SortDir }
  onSort: (key: K) => void
  hideBelow?: 'sm' | 'md' | 'lg' | 'xl'
  align?: 'start' | 'end'
  testId?: string
}) {
  const dir = sort?.key === column ? sort.dir : undefined
  return (
    <Table.ColumnHeader
      textAlign={align}
      whiteSpace="normal"
      hideBelow={hideBelow}
      aria-sort={dir === 'desc' ? 'descending' : dir === 'asc' ? 'ascending' : undefined}
    >
      <chakra.button
        type="button"
        onClick={() => onSort(column)}
        display="inline-flex"
        alignItems="center"
        gap="1"
        textAlign={align}
        fontWeight="inherit"
        color={dir ? 'fg' : 'inherit'}
        cursor="pointer"
        rounded="sm"
        _hover={{ color: 'fg' }}
        focusVisibleRing="outside"
        data-testid={testId}
      >
        {label}
        <Icon boxSize="3" flexShrink="0" color={dir ? 'fg' : 'fg.subtle'} aria-hidden="true">
          {dir === 'desc' ? <LuArrowDown /> : dir === 'asc' ? <LuArrowUp /> : <LuArrowUpDown />}
        </Icon>
      </chakra.button>
    </Table.ColumnHeader>
  )
}

/** The value of a sort as the select has it ('' for the server's order). */
function sortValue(sort: MarketSort | undefined): string {
  return sort ? `${sort.key}:${sort.dir}` : ''
}

/**
 * The sort choice of a phone, where only the pair, its price and its change
 * fit: every sortable column, each way, or the server's order.
 */
export function MarketSortSelect({ sort, onChange, currency }: { sort?: MarketSort; onChange: (sort: MarketSort | undefined) => void; currency: string }) {
  const { t } = useTexts('home')
  return (
    <Field.Root orientation="horizontal" hideFrom="sm" mb="3" gap="3">
      <Field.Label flexShrink="0" fontSize="sm" color="fg.muted">
        {t('markets.sortBy')}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          value={sortValue(sort)}
          data-testid="market-sort-select"
          onChange={(e) => {
            const [key, dir] = e.currentTarget.value.split(':') as [SortKey, MarketSort['dir']]
            onChange(key ? { key, dir } : undefined)
          }}
        >
          <option value="">{t('markets.sortDefault')}</option>
          {SORT_KEYS.flatMap((key) =>
            (['desc', 'asc'] as const).map((dir) => (
              <option key={`${key}:${dir}`} value={`${key}:${dir}`}>
                {t(dir === 'desc' ? 'markets.sortDesc' : 'markets.sortAsc', { column: columnLabel(key, t, currency) })}
              </option>
            )),
          )}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  )
}

/**
 * On a phone, the figure the list is sorted by when its column is hidden
 * there (high, low or volume), under the pair: the sort select above says
 * which it is, in the pair's quote coin. The fiat price shows under the last price anyway.
 */
function phoneFigure(row: MarketRow, sort: MarketSort | undefined, t: TranslateFn): string | undefined {
  switch (sort?.key) {
    case 'high':
      return formatPrice(row.high, row.pair.pricePrecision)
    case 'low':
      return formatPrice(row.low, row.pair.pricePrecision)
    case 'volume':
      // In the quote coin, which the pair above names.
      return formatVolume(row.amount, t)
  }
  return undefined
}

/** Props of {@link MarketTable}. */
export interface MarketTableProps {
  rows: MarketRow[]
  favourites: string[]
  onToggle: (symbol: string) => void
  /** Whether any price is known (without, the figures' columns are left out). */
  showPrices: boolean
  /** Whether the tickers have answered (the trend column needs them). */
  showTrend: boolean
  sort?: MarketSort
  onSort: (key: SortKey) => void
  /** The currency of the fiat column (USD or MNT). */
  currency: string
}

/** The market table: one row per pair, its figures, a trend line and a link to trade it. */
export function MarketTable({ rows, favourites, onToggle, showPrices, showTrend, sort, onSort, currency }: MarketTableProps) {
  const { t } = useTexts('home')
  const trade = useTexts('trade')
  const router = useRouter()
  // A tap anywhere on a row opens its pair, as people tap rows on a phone;
  // the pair name stays the link for the keyboard and for a new tab, and
  // the row's own controls (favourite, links) keep their clicks.
  const openRow = (event: React.MouseEvent<HTMLElement>, symbol: string) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    if ((event.target as HTMLElement).closest('a, button, input, [role="button"]')) return
    if (window.getSelection()?.toString()) return // selecting a price to copy it
    router.history.push(`/trade/${symbol}`)
  }
  const header = (key: SortKey) => (
    <SortHeader key={key} column={key} label={columnLabel(key, t, currency)} sort={sort} onSort={onSort} hideBelow={HIDE_BELOW[key]} />
  )
  const figure = { textAlign: 'end', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" interactive data-testid="market-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('markets.pair')}</Table.ColumnHeader>
            <Table.ColumnHeader hideBelow={HIDE_BELOW.name}>{t('markets.name')}</Table.ColumnHeader>
            {showPrices && SORT_KEYS.map(header)}
            {showTrend && (
              <Table.ColumnHeader textAlign="end" hideBelow={HIDE_BELOW.trend}>
                {trade.t('markets.trend')}
              </Table.ColumnHeader>
            )}
            <Table.ColumnHeader textAlign="end" hideBelow={HIDE_BELOW.action}>
              {t('markets.action')}
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => {
            const { pair } = row
            const favourite = favourites.includes(pair.symbol)
            const label = t(favourite ? 'markets.removeFavourite' : 'markets.addFavourite', { pair: pair.showName })
            const sortedBy = showPrices ? phoneFigure(row, sort, t) : undefined
            return (
              <Table.Row key={pair.symbol} data-testid={`market-row-${pair.symbol}`} cursor="pointer" onClick={(e) => openRow(e, pair.symbol)}>
                <Table.Cell>
                  <HStack gap="2">
                    <IconButton
                      size="2xs"
                      variant="ghost"
                      aria-label={label}
                      aria-pressed={favourite}
                      title={label}
                      data-testid="favourite-toggle"
                      onClick={() => onToggle(pair.symbol)}
                      color={favourite ? 'yellow.500' : 'fg.subtle'}
                    >
                      <LuStar fill={favourite ? 'currentColor' : 'none'} />
                    </IconButton>
                    <CoinIcon pair={pair} />
                    <Stack gap="0">
                      {/* The pair opens its trade page: at phone width it is the only way in (no Trade column). */}
                      <AppLink href={`/trade/${pair.symbol}`} data-testid={`market-link-${pair.symbol}`} whiteSpace="nowrap">
                        <Text as="span" fontWeight="semibold">
                          {pair.base}
                          <Text as="span" color="fg.muted" fontWeight="normal">
                            /{pair.quote}
                          </Text>
                        </Text>
                      </AppLink>
                      {sortedBy && (
                        <Text as="span" hideFrom="sm" fontSize="xs" color="fg.muted" whiteSpace="normal" fontVariantNumeric="tabular-nums" data-testid="market-sorted-figure">
                          {sortedBy}
                        </Text>
                      )}
                    </Stack>
                    {pair.isOpenCross && isLive('margin') && (
                      <Badge size="xs" colorPalette="brand" variant="subtle" hideBelow="sm">
                        {t('markets.margin')}
                      </Badge>
                    )}
                  </HStack>
                </Table.Cell>
                <Table.Cell hideBelow={HIDE_BELOW.name} color="fg.muted">
                  {pair.longName ?? pair.base}
                </Table.Cell>
                {showPrices && (
                  <>
                    <Table.Cell {...figure} data-testid="market-price">
                      {formatPrice(row.close, pair.pricePrecision)}
                      {/* A phone has no fiat column: the price in the user's currency under the last price. */}
                      {row.fiat && (
                        <Text as="span" display="block" hideFrom="sm" fontSize="xs" color="fg.muted">
                          {formatFiatPrice(row.fiat)}
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell {...figure} hideBelow={HIDE_BELOW.fiat} data-testid="market-fiat">
                      {formatFiatPrice(row.fiat)}
                    </Table.Cell>
                    <Table.Cell {...figure} color={changeColor(row.rose, 'fg.muted')} data-testid="market-change">
                      {formatRose(row.rose)}
                    </Table.Cell>
                    <Table.Cell {...figure} hideBelow={HIDE_BELOW.high} data-testid="market-high">
                      {formatPrice(row.high, pair.pricePrecision)}
                    </Table.Cell>
                    <Table.Cell {...figure} hideBelow={HIDE_BELOW.low} data-testid="market-low">
                      {formatPrice(row.low, pair.pricePrecision)}
                    </Table.Cell>
                    <Table.Cell {...figure} hideBelow={HIDE_BELOW.volume} data-testid="market-volume">
                      {formatVolume(row.amount, t)}
                      {row.amount !== undefined && (
                        <Text as="span" color="fg.muted">
                          {' '}
                          {pair.quote}
                        </Text>
                      )}
                    </Table.Cell>
                  </>
                )}
                {showTrend && (
                  <Table.Cell textAlign="end" hideBelow={HIDE_BELOW.trend} py="1">
                    <Sparkline values={row.sparkline} rose={row.rose} label={trade.t('markets.trendOf', { pair: pair.showName })} />
                  </Table.Cell>
                )}
                <Table.Cell textAlign="end" hideBelow={HIDE_BELOW.action}>
                  <Button asChild size="xs" variant="outline">
                    <AppLink href={`/trade/${pair.symbol}`} aria-label={`${t('markets.trade')} ${pair.showName}`}>
                      {t('markets.trade')}
                    </AppLink>
                  </Button>
                </Table.Cell>
              </Table.Row>
            )
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  )
}
