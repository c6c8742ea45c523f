import { Button, HStack, IconButton, Text } from '@chakra-ui/react'
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu'

/** Number of pages for `count` items, at least 1. */
export function pageCount(count: number, pageSize: number): number {
  if (!Number.isFinite(count) || count <= 0 || pageSize <= 0) return 1
  return Math.ceil(count / pageSize)
}

/** One entry of the page row: a page number or a gap ('…'). */
export type PageItem = number | 'gap'

/**
 * The page buttons to show: the first and the last page, the current one
 * with `siblings` neighbours each side, and gaps for what lies between. A
 * gap that would hide a single page shows that page instead.
 */
export function pageItems(page: number, pages: number, siblings = 1): PageItem[] {
  const current = Math.min(Math.max(1, page), Math.max(1, pages))
  const shown = new Set<number>([1, pages])
  for (let p = current - siblings; p <= current + siblings; p++) if (p >= 1 && p <= pages) shown.add(p)
  const sorted = [...shown].sort((a, b) => a - b)
  const out: PageItem[] = []
  for (const p of sorted) {
    const last = out[out.length - 1]
    if (typeof last === 'number' && p - last === 2) out.push(last + 1)
    else if (typeof last === 'number' && p - last > 2) out.push('gap')
    out.push(p)
  }
  return out
}

/** The texts of a {@link Pager}, in the page's language. */
export interface PagerLabels {
  /** Name of the navigation landmark, e.g. 'Order history pages'. */
  nav: string
  prev: string
  next: string
  /** Accessible name of a page button, e.g. 'Page 3'. */
  page: (page: number) => string
  /** Visible position on narrow screens, e.g. 'Page 3 of 7'. */
  status: (page: number, pages: number) => string
}

/**
 * Page navigation for server-paged lists: previous and next buttons, page
 * numbers on wide screens and 'Page x of y' on phones. Renders nothing
 * while everything fits on one page.
 */
export function Pager({
  page,
  pageSize,
  count,
  onPageChange,
  labels,
  testId = 'pager',
}: {
  page: number
  pageSize: number
  count: number
  onPageChange: (page: number) => void
  labels: PagerLabels
  testId?: string
}) {
  const pages = pageCount(count, pageSize)
  if (pages <= 1) return null
  const current = Math.min(Math.max(1, page), pages)
  return (
    <HStack as="nav" aria-label={labels.nav} justify="flex-end" gap="1" flexWrap="wrap" data-testid={testId} data-page={current} data-pages={pages}>
      <IconButton
        size="xs"
        variant="outline"
        aria-label={labels.prev}
        disabled={current <= 1}
        onClick={() => onPageChange(current - 1)}
        data-testid={`${testId}-prev`}
      >
        <LuChevronLeft aria-hidden="true" />
      </IconButton>
      <HStack gap="1" hideBelow="sm">
        {pageItems(current, pages).map((item, i) =>
          item === 'gap' ? (
            <Text key={`gap-${i}`} px="1" color="fg.muted" aria-hidden="true">
              …
            </Text>
          ) : (
            <Button
              key={item}
              size="xs"
              variant={item === current ? 'solid' : 'ghost'}
              aria-label={labels.page(item)}
              aria-current={item === current ? 'page' : undefined}
              onClick={() => item !== current && onPageChange(item)}
              data-testid={`${testId}-page-${item}`}
              minW="8"
            >
              {item}
            </Button>
          ),
        )}
      </HStack>
      <Text fontSize="sm" px="2" hideFrom="sm" aria-live="polite" data-testid={`${testId}-status`}>
        {labels.status(current, pages)}
      </Text>
      <IconButton
        size="xs"
        variant="outline"
        aria-label={labels.next}
        disabled={current >= pages}
        onClick={() => onPageChange(current + 1)}
        data-testid={`${testId}-next`}
      >
        <LuChevronRight aria-hidden="true" />
      </IconButton>
    </HStack>
  )
}
