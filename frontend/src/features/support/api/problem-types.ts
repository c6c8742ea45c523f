import { apiData } from '@/lib/request-client'

/** problem_types' answer: the ticket types in the order offered and the limits. */
export interface TicketTypes {
  types: string[]
  maxTitle: number
  maxText: number
  maxAttachments: number
  /** Tickets a user may open per day. */
  perDay: number
}

/** The server's limits as they stand when the answer is late or missing (support.Max*). */
export const DEFAULT_TICKET_TYPES: TicketTypes = {
  types: ['account', 'security', 'deposit', 'withdrawal', 'trading', 'verification', 'api', 'other'],
  maxTitle: 100,
  maxText: 2000,
  maxAttachments: 5,
  perDay: 5,
}

/** Reads the ticket types and limits (public). */
export async function fetchTicketTypes(signal?: AbortSignal): Promise<TicketTypes> {
  const data = await apiData<Partial<TicketTypes> | null>('/fe-ex-api/question/problem_types', {}, { signal, silent: true })
  const positive = (n: unknown, fallback: number) => (Number(n) > 0 ? Number(n) : fallback)
  return {
    types: Array.isArray(data?.types) && data.types.length > 0 ? data.types : DEFAULT_TICKET_TYPES.types,
    maxTitle: positive(data?.maxTitle, DEFAULT_TICKET_TYPES.maxTitle),
    maxText: positive(data?.maxText, DEFAULT_TICKET_TYPES.maxText),
    maxAttachments: positive(data?.maxAttachments, DEFAULT_TICKET_TYPES.maxAttachments),
    perDay: positive(data?.perDay, DEFAULT_TICKET_TYPES.perDay),
  }
}
