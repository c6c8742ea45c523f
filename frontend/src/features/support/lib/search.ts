/**
 * The support list's URL search values (?status=&page=). Route files are
 * part of the first load, so this module imports nothing of the pages.
 */

/** The list's status filter: every ticket, or the tickets in one state. */
export const TICKET_FILTERS = ['all', 'open', 'answered', 'closed'] as const
export type TicketFilter = (typeof TICKET_FILTERS)[number]

/** The list's search parameters. */
export interface TicketListSearch {
  status?: Exclude<TicketFilter, 'all'>
  page?: number
}

/** Validates ?status=&page= (anything else is left out: all tickets, page 1). */
export function parseTicketListSearch(raw: Record<string, unknown>): TicketListSearch {
  const status =
    typeof raw.status === 'string' && raw.status !== 'all' && (TICKET_FILTERS as readonly string[]).includes(raw.status)
      ? (raw.status as TicketListSearch['status'])
      : undefined
  const page = Number(raw.page)
  return {
    status,
    page: Number.isInteger(page) && page > 1 && page <= 10_000 ? page : undefined,
  }
}
