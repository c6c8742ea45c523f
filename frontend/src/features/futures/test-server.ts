/**
 * A stand-in for the exchange in the futures component tests: it replaces
 * aws-amplify's REST `post` (the request client's transport), so the real
 * request client runs (its envelope, and its error toast with the server's
 * message for a refusal). Each test says what the paths answer:
 *
 *   vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)
 *   serve({ '/fe-co-api/user/get_user_config': CONFIG, '/fe-co-api/order/order_create': (body) => refuse('20301', 'Not enough margin') })
 *
 * {@link positionModeRoute} answers /user/position_model_edit as the server
 * does: the settings in the new mode, or 18003 while anything is open.
 */
import { vi } from 'vitest'

/** A refusal: the server's code and message in the envelope. */
export interface Refusal {
  refused: { code: string; msg: string }
}

export function refuse(code: string, msg: string): Refusal {
  return { refused: { code, msg } }
}

type Answer = unknown | ((body: Record<string, unknown>) => unknown)

let routes: Record<string, Answer> = {}

/** Every request sent, oldest first: its full path and body (with the request client's envelope fields). */
export const requests: { path: string; body: Record<string, unknown> }[] = []

/** What the paths answer from now on (the requests seen so far are forgotten). */
export function serve(next: Record<string, Answer>): void {
  routes = next
  requests.length = 0
}

/** Changes or adds some answers, keeping the others. */
export function answer(more: Record<string, Answer>): void {
  routes = { ...routes, ...more }
}

/** The bodies sent to a path. */
export function sentTo(path: string): Record<string, unknown>[] {
  return requests.filter((r) => r.path === path).map((r) => r.body)
}

async function envelope(path: string, body: Record<string, unknown>) {
  const route = routes[path]
  const value = typeof route === 'function' ? await (route as (b: Record<string, unknown>) => unknown)(body) : route
  if (value && typeof value === 'object' && 'refused' in value) {
    const { code, msg } = (value as Refusal).refused
    return { code, msg, data: null }
  }
  return { code: '0', msg: 'ok', data: value ?? null }
}

/** The path of the position mode's change. */
export const POSITION_MODE = '/fe-co-api/user/position_model_edit'

/**
 * An answer of /user/position_model_edit: the settings (`config`) in the
 * mode asked for, or, while `locked`, the server's refusal (the mode cannot
 * change while the user has a position, an open order or a trigger order).
 */
export function positionModeRoute(config: object, locked = false): (body: Record<string, unknown>) => unknown {
  return (body) =>
    locked
      ? refuse('18003', 'The position mode cannot change while you have positions, open orders or trigger orders')
      : { ...config, positionMode: Number(body.positionMode) }
}

/** The mocked module: `post` answers from the routes. */
export const amplifyApi = {
  post: vi.fn(({ apiName, path, options }: { apiName: string; path: string; options: { body: Record<string, unknown> } }) => {
    const full = `${apiName}${path}`
    requests.push({ path: full, body: options.body })
    return {
      response: envelope(full, options.body).then((json) => ({ body: { json: async () => json } })),
      cancel: () => {},
    }
  }),
}
