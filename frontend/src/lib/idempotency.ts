/** A fresh idempotency key for one submit (a UUID: letters, digits and dashes, 36 characters). */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`
}

/**
 * Idempotency keys of a form whose submit may be sent again: the same request
 * sent again after it got no answer (a timeout, the network gone) carries the
 * same key, so the server applies it once and answers the first outcome; any
 * answer from the server, or a different request, starts a new key, so a new
 * order is never mistaken for the retry of an earlier one.
 */
export class RetryKeys {
  private last: { request: string; key: string } | null = null

  /** The key to send with `request`: the previous one when this is the same request again after no answer. */
  keyFor(request: unknown): string {
    const text = JSON.stringify(request)
    if (this.last?.request !== text) this.last = { request: text, key: newRequestId() }
    return this.last.key
  }

  /** The server answered the last request (accepted or refused): the next submit is a new request. */
  answered(): void {
    this.last = null
  }
}
