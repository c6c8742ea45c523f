import type { Appeal, Order } from '../api/types'

/**
 * What an order's state means to the one reading it (spec §4 OTC labels:
 * unpaid, paid, complaining, processing, completed, cancelled, failed
 * order, completed complaint, cancelled complaint) and which actions each
 * side has in it (internal/p2p: the buyer marks paid or cancels until the
 * release; the seller releases a paid or appealed order; either side
 * appeals a paid order; the appellant withdraws the appeal).
 */

/** The label keys of the OTC order states (texts status.*). */
export type StatusLabel =
  | 'unpaid'
  | 'paid'
  | 'complaining'
  | 'processing'
  | 'completed'
  | 'cancelled'
  | 'failed'
  | 'completedComplaint'
  | 'cancelledComplaint'

/** The colour of a status badge. */
export type StatusTone = 'orange' | 'blue' | 'red' | 'green' | 'gray'

/** The label of an order's state; an appeal that an operator decided shows as a completed complaint. */
export function statusLabel(order: Pick<Order, 'status' | 'appeal'>): StatusLabel {
  switch (order.status) {
    case 'PENDING':
      return 'unpaid'
    case 'BUYER_PAID':
      return 'paid'
    case 'IN_APPEAL':
      return 'complaining'
    case 'COMPLETED':
      return order.appeal?.status === 'decided' ? 'completedComplaint' : 'completed'
    case 'CANCELLED':
      return order.appeal?.status === 'decided' ? 'completedComplaint' : 'cancelled'
    case 'CANCELLED_BY_SYSTEM':
      return 'failed'
    default:
      return 'processing'
  }
}

/** The badge colour of a label. */
export function statusTone(label: StatusLabel): StatusTone {
  switch (label) {
    case 'unpaid':
      return 'orange'
    case 'paid':
    case 'processing':
      return 'blue'
    case 'complaining':
      return 'red'
    case 'completed':
    case 'completedComplaint':
      return 'green'
    default:
      return 'gray'
  }
}

/** The label of an appeal's own state. */
export function appealLabel(appeal: Pick<Appeal, 'status'>): StatusLabel {
  if (appeal.status === 'open') return 'complaining'
  if (appeal.status === 'cancelled') return 'cancelledComplaint'
  return 'completedComplaint'
}

/** True for a final state. */
export function isFinished(status: string): boolean {
  return status === 'COMPLETED' || status === 'CANCELLED' || status === 'CANCELLED_BY_SYSTEM'
}

/** The reader's role in an order. */
export type Role = 'buyer' | 'seller'

/** The reader's role: from the user id when known, else from the order's side (the reader's). */
export function roleOf(order: Pick<Order, 'side' | 'buyerUid' | 'sellerUid'>, uid?: string | number): Role {
  const me = uid === undefined ? '' : String(uid)
  if (me && me === order.buyerUid) return 'buyer'
  if (me && me === order.sellerUid) return 'seller'
  return order.side === 'SELL' ? 'seller' : 'buyer'
}

/** An action of the order page. */
export type OrderAction = 'markPaid' | 'cancel' | 'release' | 'appeal' | 'cancelAppeal'

/** The actions the reader has now, in the order the page shows them. */
export function availableActions(order: Pick<Order, 'status' | 'appeal'>, role: Role, uid?: string | number): OrderAction[] {
  const out: OrderAction[] = []
  const appellant = !!order.appeal && order.appeal.status === 'open' && uid !== undefined && order.appeal.by === String(uid)
  switch (order.status) {
    case 'PENDING':
      if (role === 'buyer') out.push('markPaid', 'cancel')
      break
    case 'BUYER_PAID':
      if (role === 'seller') out.push('release')
      out.push('appeal')
      if (role === 'buyer') out.push('cancel')
      break
    case 'IN_APPEAL':
      if (role === 'seller') out.push('release')
      if (appellant) out.push('cancelAppeal')
      break
  }
  return out
}

/** The system messages of the chat (their content is a key; texts chat.system.*). */
export const SYSTEM_MESSAGES = [
  'created',
  'paid',
  'released',
  'cancelled',
  'expired',
  'appealed',
  'appeal_cancelled',
  'decided_release',
  'decided_refund',
] as const

/** The text key of a system message, or undefined for one the app does not know. */
export function systemMessageKey(content: string): string | undefined {
  return (SYSTEM_MESSAGES as readonly string[]).includes(content) ? `chat.system.${content}` : undefined
}
