import { isNetworkError, isSuccess, type ApiEnvelope } from '@/lib/request-client'
import type { OpResult, SubscribeInput } from '../api/savings-api'

/**
 * The savings subscription of spec §4: confirm the subscription first; if it
 * succeeds (code "0"), set auto-subscribe (type 1 on, 0 off); otherwise the
 * result is Failed with the server's code and message (§8).
 */

/** The calls the flow makes (the API module's, or a test's). */
export interface SubscribeCalls {
  confirmSubscription: (input: SubscribeInput) => Promise<ApiEnvelope<OpResult>>
  confirmAutoSub: (projectId: string, coinSymbol: string, on: boolean) => Promise<ApiEnvelope<null>>
}

/** What the two steps came to. */
export type SubscribeOutcome =
  | { status: 'done'; result: OpResult }
  | {
      status: 'failed'
      /** Which step was refused: the subscription (nothing moved) or auto-subscribe (the subscription went through). */
      step: 'subscribe' | 'auto'
      /** The server's code; '' when it did not answer. */
      code: string
      msg: string
      /** The exchange could not be reached: the same request may be sent again. */
      unreachable: boolean
      /** Set when the subscription itself went through (step 'auto'). */
      result?: OpResult
    }

function failure(step: 'subscribe' | 'auto', e: unknown, result?: OpResult): SubscribeOutcome {
  return {
    status: 'failed',
    step,
    code: '',
    msg: e instanceof Error ? e.message : String(e),
    unreachable: isNetworkError(e),
    result,
  }
}

function refused(step: 'subscribe' | 'auto', envelope: ApiEnvelope, result?: OpResult): SubscribeOutcome {
  return { status: 'failed', step, code: String(envelope.code), msg: envelope.message || envelope.msg, unreachable: false, result }
}

/**
 * Subscribes, then sets auto-subscribe to `auto` (on or off) when the
 * subscription succeeded. Never throws: a refusal or a failed call is a
 * 'failed' outcome naming its step.
 */
export async function subscribeThenAuto(calls: SubscribeCalls, input: SubscribeInput, auto: boolean): Promise<SubscribeOutcome> {
  let sub: ApiEnvelope<OpResult>
  try {
    sub = await calls.confirmSubscription(input)
  } catch (e) {
    return failure('subscribe', e)
  }
  if (!isSuccess(sub)) return refused('subscribe', sub)
  let autoAnswer: ApiEnvelope<null>
  try {
    autoAnswer = await calls.confirmAutoSub(input.projectId, input.coinSymbol, auto)
  } catch (e) {
    return failure('auto', e, sub.data)
  }
  if (!isSuccess(autoAnswer)) return refused('auto', autoAnswer, sub.data)
  return { status: 'done', result: sub.data }
}
