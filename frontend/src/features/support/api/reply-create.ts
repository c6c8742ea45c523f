import { apiPost } from '@/lib/request-client'
import type { TicketDetail } from './types'

/** Adds the user's message to a ticket (an answered ticket opens again); answers the ticket with its thread. */
export function replyToTicket(id: string, content: string, attachments: string[]) {
  return apiPost<TicketDetail>('/fe-ex-api/question/reply_create', { id, content: content.trim(), attachments })
}
