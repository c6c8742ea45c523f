import { apiPost } from '@/lib/request-client'
import type { TicketDetail } from './types'

/** What create_problem takes. */
export interface NewTicket {
  type: string
  title: string
  description: string
  /** Upload ids from common/upload_img. */
  attachments: string[]
}

/** Opens a ticket; answers it with its thread. Refusals are toasted by the request client. */
export function createTicket(ticket: NewTicket) {
  return apiPost<TicketDetail>('/fe-ex-api/question/create_problem', {
    type: ticket.type,
    title: ticket.title.trim(),
    description: ticket.description.trim(),
    attachments: ticket.attachments,
  })
}
