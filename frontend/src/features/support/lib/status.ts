/** Badge colour of a ticket state: open waits for support, answered for the user. */
export function statusPalette(status: string): 'orange' | 'green' | 'gray' {
  if (status === 'answered') return 'green'
  if (status === 'open') return 'orange'
  return 'gray'
}

/** True when a ticket takes no more messages. */
export function isClosed(status: string): boolean {
  return status === 'closed'
}
