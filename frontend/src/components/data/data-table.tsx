import { Box, Button, Center, HStack, Skeleton, Stack, Table, Text, useBreakpointValue, VisuallyHidden } from '@chakra-ui/react'
import { useCallback, useEffect, useState, type ReactNode } from 'react'

/** Which layout a {@link DataTable} shows: a table or one card per row. */
export type DataLayout = 'table' | 'cards'

/** One column of a {@link DataTable}: how a row shows in the table and on a card. */
export interface DataColumn<T> {
  id: string
  /** Column header; also the label of the value on a card. */
  header: string
  /** The value; `layout` lets a card show it differently from the table cell. */
  cell: (row: T, layout: DataLayout) => ReactNode
  /** data-testid of the table cell, fixed or per row. */
  testId?: string | ((row: T) => string)
  /** Numbers align to the end and use tabular figures. */
  numeric?: boolean
  nowrap?: boolean
  /**
   * Where the value goes on a card: 'title' (the heading line), 'aside'
   * (right of the heading, e.g. a status badge), 'row' (a label/value row,
   * the default), 'line' (a muted full-width line without a label) or
   * 'hidden' (table only).
   */
  card?: 'title' | 'aside' | 'row' | 'line' | 'hidden'
}

/** Error state of a {@link DataTable}: message and a retry button. */
export interface DataTableError {
  text: string
  retryText: string
  onRetry: () => void
}

/** Props of {@link DataTable}. */
export interface DataTableProps<T> {
  columns: DataColumn<T>[]
  rows: T[]
  rowKey: (row: T) => string
  /** Accessible name of the table (or of the card list). */
  label: string
  /** Buttons of a row: the last table column, the footer of a card. */
  actions?: (row: T, layout: DataLayout) => ReactNode
  /** Header of the actions column (read by screen readers only unless `showActionsLabel`). */
  actionsLabel?: string
  /** Shows the actions header on screen, aligned with the buttons. */
  showActionsLabel?: boolean
  /**
   * Keeps the actions column in view at the end of the table while the other
   * columns scroll sideways under it (wide tables, long Mongolian headers).
   */
  stickyActions?: boolean
  /** 'auto' shows cards below `cardsBelow` and a table from there up. */
  layout?: 'auto' | 'table' | 'cards'
  cardsBelow?: 'sm' | 'md' | 'lg'
  /** data-testid of the table or the card list, whichever shows. */
  testId?: string
  /** data-testid of the card list when it differs from the table's `testId`. */
  cardsTestId?: string
  /** data-testid of each table row or card, fixed or per row and layout. */
  rowTestId?: string | ((row: T, layout: DataLayout) => string)
  isLoading?: boolean
  loadingLabel?: string
  /** Shown instead of the table when there are no rows. */
  emptyText: string
  emptyTestId?: string
  error?: DataTableError
  size?: 'sm' | 'md'
}

function rowTestIdOf<T>(rowTestId: DataTableProps<T>['rowTestId'], row: T, layout: DataLayout): string | undefined {
  return typeof rowTestId === 'function' ? rowTestId(row, layout) : rowTestId
}

function Cell<T>({ column, row }: { column: DataColumn<T>; row: T }) {
  return (
    <Table.Cell
      textAlign={column.numeric ? 'end' : undefined}
      fontVariantNumeric={column.numeric ? 'tabular-nums' : undefined}
      whiteSpace={column.nowrap || column.numeric ? 'nowrap' : undefined}
      data-testid={typeof column.testId === 'function' ? column.testId(row) : column.testId}
    >
      {column.cell(row, 'table')}
    </Table.Cell>
  )
}

/**
 * Styles of a sticky actions cell: pinned to the end of the scroll area, on
 * its row's own (opaque) background so that it follows the row's hover and
 * the header's tint in light and dark, with a hairline on its start side
 * (a box shadow: collapsed table borders do not move with sticky cells).
 */
const stickyEnd = {
  position: 'sticky',
  insetInlineEnd: '0',
  zIndex: 1,
  bg: 'inherit',
  boxShadow: 'inset 1px 0 0 {colors.border}',
} as const

/**
 * Whether an element is wider inside than its box (it scrolls sideways),
 * measured when it appears, when it or the window resizes and when `deps`
 * change (rows, columns). Returns a callback ref for the element.
 */
export function useScrollsSideways(deps: string): [(el: HTMLElement | null) => void, boolean] {
  const [el, setEl] = useState<HTMLElement | null>(null)
  const [scrolls, setScrolls] = useState(false)
  const ref = useCallback((node: HTMLElement | null) => setEl(node), [])
  useEffect(() => {
    if (!el) return
    // One pixel of slack: a rounded sub-pixel width is not a scrollbar.
    const measure = () => setScrolls(el.scrollWidth - el.clientWidth > 1)
    measure()
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure)
    observer?.observe(el)
    // The table inside grows with its content without resizing the box.
    if (el.firstElementChild) observer?.observe(el.firstElementChild)
    window.addEventListener('resize', measure)
    return () => {
      observer?.disconnect()
      window.removeEventListener('resize', measure)
    }
  }, [el, deps])
  return [ref, scrolls]
}

function TableView<T>(props: DataTableProps<T>) {
  const { columns, rows, rowKey, label, actions, actionsLabel, showActionsLabel, stickyActions, testId, rowTestId, size = 'sm' } = props
  const sticky = stickyActions ? stickyEnd : undefined
  const [scrollRef, scrolls] = useScrollsSideways(`${rows.length}:${columns.length}`)
  // A table wider than the screen scrolls sideways; keyboard users reach the
  // hidden columns by focusing the scroll area (Tab) and using the arrow keys,
  // so it is a named, focusable region then (WCAG 2.1.1), and no extra Tab stop otherwise.
  const scrollProps = scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {}
  return (
    <Table.ScrollArea
      ref={scrollRef}
      borderWidth="1px"
      rounded="md"
      data-scrolls={scrolls || undefined}
      _focusVisible={{ outlineWidth: '2px', outlineStyle: 'solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
      {...scrollProps}
    >
      <Table.Root size={size} aria-label={label} data-testid={testId} data-layout="table" interactive>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {columns.map((c) => (
              <Table.ColumnHeader key={c.id} scope="col" textAlign={c.numeric ? 'end' : undefined} whiteSpace="nowrap">
                {c.header}
              </Table.ColumnHeader>
            ))}
            {actions && (
              <Table.ColumnHeader scope="col" textAlign={showActionsLabel ? 'end' : undefined} data-sticky={stickyActions || undefined} {...sticky}>
                {showActionsLabel ? actionsLabel : <VisuallyHidden>{actionsLabel}</VisuallyHidden>}
              </Table.ColumnHeader>
            )}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={rowKey(row)} data-testid={rowTestIdOf(rowTestId, row, 'table')} data-key={rowKey(row)}>
              {columns.map((c) => (
                <Cell key={c.id} column={c} row={row} />
              ))}
              {actions && (
                <Table.Cell textAlign="end" whiteSpace="nowrap" data-sticky={stickyActions || undefined} {...sticky}>
                  <HStack gap="1" justify="flex-end">
                    {actions(row, 'table')}
                  </HStack>
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  )
}

function CardsView<T>(props: DataTableProps<T>) {
  const { columns, rows, rowKey, label, actions, testId, cardsTestId, rowTestId } = props
  const title = columns.filter((c) => c.card === 'title')
  const aside = columns.filter((c) => c.card === 'aside')
  const lines = columns.filter((c) => c.card === 'line')
  const body = columns.filter((c) => !c.card || c.card === 'row')
  return (
    <Stack as="ul" role="list" aria-label={label} gap="2" listStyleType="none" m="0" p="0" data-testid={cardsTestId ?? testId} data-layout="cards">
      {rows.map((row) => {
        // A line with nothing to say (a cell of null, false or '') takes no room on its card.
        const lineCells = lines.map((c) => ({ id: c.id, node: c.cell(row, 'cards') })).filter((l) => l.node !== null && l.node !== undefined && l.node !== false && l.node !== '')
        return (
          <Box as="li" key={rowKey(row)} borderWidth="1px" rounded="md" p="3" bg="bg.panel" fontSize="sm" data-testid={rowTestIdOf(rowTestId, row, 'cards')} data-key={rowKey(row)}>
            {(title.length > 0 || aside.length > 0) && (
              <HStack justify="space-between" align="center" mb="2" gap="2">
                <HStack gap="2" fontWeight="semibold" minW="0" flexWrap="wrap">
                  {title.map((c) => (
                    <Box key={c.id}>{c.cell(row, 'cards')}</Box>
                  ))}
                </HStack>
                <HStack gap="2" flexShrink={0}>
                  {aside.map((c) => (
                    <Box key={c.id}>{c.cell(row, 'cards')}</Box>
                  ))}
                </HStack>
              </HStack>
            )}
            {lineCells.length > 0 && (
              <Stack gap="1" mb={body.length > 0 ? '2' : undefined} color="fg.muted" fontSize="xs">
                {lineCells.map((l) => (
                  <Box key={l.id} overflowWrap="anywhere">
                    {l.node}
                  </Box>
                ))}
              </Stack>
            )}
            <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1" m="0">
              {body.map((c) => (
                <Box key={c.id} display="contents">
                  <Text as="dt" color="fg.muted">
                    {c.header}
                  </Text>
                  <Box as="dd" m="0" textAlign="end" fontVariantNumeric={c.numeric ? 'tabular-nums' : undefined} overflowWrap="anywhere">
                    {c.cell(row, 'cards')}
                  </Box>
                </Box>
              ))}
            </Box>
            {actions && (
              <HStack justify="flex-end" gap="2" mt="3">
                {actions(row, 'cards')}
              </HStack>
            )}
          </Box>
        )
      })}
    </Stack>
  )
}

/**
 * A column-driven list of records: a table on wide screens and one card per
 * record on phones (390 px), with loading, empty and error states. Columns
 * say once how a value is shown; both layouts use them.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { layout = 'auto', cardsBelow = 'md', isLoading, loadingLabel, rows, emptyText, emptyTestId, error, testId } = props
  const narrow = useBreakpointValue({ base: true, [cardsBelow]: false }, { ssr: false }) ?? false
  const cards = layout === 'cards' || (layout === 'auto' && narrow)
  if (isLoading) {
    return (
      <Stack gap="2" py="2" role="status" aria-label={loadingLabel} data-testid={testId ? `${testId}-loading` : undefined}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h={cards ? '20' : '8'} rounded="md" />
        ))}
      </Stack>
    )
  }
  if (error && rows.length === 0) {
    return (
      <Stack align="center" py="8" gap="3" role="alert" data-testid={testId ? `${testId}-error` : undefined}>
        <Text color="fg.error">{error.text}</Text>
        <Button size="sm" variant="outline" onClick={error.onRetry}>
          {error.retryText}
        </Button>
      </Stack>
    )
  }
  if (rows.length === 0) {
    return (
      <Center py="8" data-testid={emptyTestId}>
        <Text color="fg.muted" fontSize="sm">
          {emptyText}
        </Text>
      </Center>
    )
  }
  return cards ? <CardsView {...props} /> : <TableView {...props} />
}
