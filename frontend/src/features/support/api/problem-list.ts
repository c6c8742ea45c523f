import { apiData } from '@/lib/request-client'
import type { Ticket } from './types'

/** A page of the user's tickets, newest first, with the count of all that match. */
export interface TicketPage {
  count: number
  list: Ticket[]
}

/** The user's tickets in a state ('' for all), one page. */
export async function fetchTickets(
  filter: { status: string; page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<TicketPage> {
  const data = await apiData<TicketPage | null>('/fe-ex-api/question/problem_list', filter, { signal })
  return { count: Number(data?.count ?? 0) || 0, list: Array.isArray(data?.list) ? data.list : [] }
}
