import type { SocketLike } from '@/lib/reconnecting-socket'

/**
 * A WebSocket stand-in for the socket tests: it records what the client
 * sends (parsed JSON) and lets the test open, drop and push messages.
 * Every instance is kept in FakeSocket.instances, so it can also replace
 * globalThis.WebSocket for code that creates its own sockets.
 */
export class FakeSocket implements SocketLike {
  static instances: FakeSocket[] = []
  readyState = 0
  onopen: ((ev: unknown) => void) | null = null
  onclose: ((ev: unknown) => void) | null = null
  onerror: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  sent: unknown[] = []
  closed = false
  constructor(readonly url: string) {
    FakeSocket.instances.push(this)
  }
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.closed = true
    this.readyState = 3
  }
  open() {
    this.readyState = 1
    this.onopen?.({})
  }
  drop() {
    this.readyState = 3
    this.onclose?.({})
  }
  pushRaw(data: unknown) {
    this.onmessage?.({ data })
  }
  push(msg: unknown) {
    this.pushRaw(JSON.stringify(msg))
  }
}
