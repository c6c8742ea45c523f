/** Ticket states (API contract: open waits for support, answered waits for the user). */
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const
export type TicketStatus = (typeof TICKET_STATUSES)[number]

/** A ticket without its messages (problem_list rows). */
export interface Ticket {
  id: string
  /** account, security, deposit, withdrawal, trading, verification, api or other. */
  type: string
  title: string
  status: TicketStatus | string
  /** Unix ms. */
  createdAt: number
  /** Unix ms of the last message or state change. */
  updatedAt: number
  /** Messages, the description included. */
  messages: number
  /** Who wrote last: user or support. */
  lastBy: 'user' | 'support' | string
}

/** One message of a ticket (the first is the description). */
export interface TicketMessage {
  seq: number
  by: 'user' | 'support' | string
  text: string
  /** Upload ids of the user's images. */
  attachments: string[] | null
  /** Unix ms. */
  at: number
}

/** A ticket with its thread, oldest message first. */
export interface TicketDetail extends Ticket {
  thread: TicketMessage[]
}

/** Query keys of the support area. */
export const supportKeys = {
  all: ['support'] as const,
  types: ['support', 'types'] as const,
  list: (status: string, page: number, pageSize: number) => ['support', 'list', status, page, pageSize] as const,
  detail: (id: string) => ['support', 'detail', id] as const,
}
