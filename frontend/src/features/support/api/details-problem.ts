import { apiData } from '@/lib/request-client'
import type { TicketDetail } from './types'

/** Code of a ticket that is not the caller's (or none). */
export const CODE_TICKET_NOT_FOUND = '16240'

/** One of the user's tickets with its thread, oldest message first. Silent: the page shows the failure. */
export async function fetchTicket(id: string, signal?: AbortSignal): Promise<TicketDetail> {
  const data = await apiData<TicketDetail>('/fe-ex-api/question/details_problem', { id }, { signal, silent: true })
  return { ...data, thread: Array.isArray(data?.thread) ? data.thread : [] }
}
