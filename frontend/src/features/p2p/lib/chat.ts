import type { ChatMessage } from '../api/types'

/**
 * The order chat as the page keeps it: what polling and the socket bring is
 * merged by message id (either may bring a message the other already did),
 * oldest first.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current as ChatMessage[]
  const byId = new Map<string, ChatMessage>()
  for (const m of current) byId.set(m.id, m)
  let added = false
  for (const m of incoming) {
    if (!m || typeof m.id !== 'string') continue
    if (!byId.has(m.id)) added = true
    byId.set(m.id, m)
  }
  if (!added) return current as ChatMessage[]
  // Ids begin with the message's time in microseconds (fixed width), so they sort as they were written.
  return [...byId.values()].sort((a, b) => a.ctime - b.ctime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The id after which to ask for new messages: the last one's, '' for none. */
export function lastId(messages: readonly ChatMessage[]): string {
  return messages.length > 0 ? messages[messages.length - 1].id : ''
}

/** Who wrote a message, as the chat shows it. */
export type Author = 'me' | 'peer' | 'system' | 'operator'

export function authorOf(message: Pick<ChatMessage, 'by'>, uid: string | number | undefined): Author {
  if (message.by === 'system') return 'system'
  if (message.by === 'operator') return 'operator'
  return uid !== undefined && message.by === String(uid) ? 'me' : 'peer'
}
