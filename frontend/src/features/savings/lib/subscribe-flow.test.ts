import { describe, expect, it, vi } from 'vitest'
import { NetworkError, type ApiEnvelope } from '@/lib/request-client'
import type { OpResult, SubscribeInput } from '../api/savings-api'
import { subscribeThenAuto } from './subscribe-flow'

const INPUT: SubscribeInput = { projectId: 'usdt', coinSymbol: 'USDT', amount: '1000', requestId: 'r-1' }
const DONE: OpResult = { id: 'op1', kind: 'subscribe', projectId: 'usdt', coinSymbol: 'USDT', amount: '1000.000000', status: 'success', ctime: 1, replayed: false }
const ok = <T>(data: T): ApiEnvelope<T> => ({ code: '0', msg: 'ok', data })
const refusal = (code: string, msg: string): ApiEnvelope<never> => ({ code, msg, data: null as never })

function calls(sub: () => Promise<ApiEnvelope<OpResult>>, auto: () => Promise<ApiEnvelope<null>> = async () => ok(null)) {
  const order: string[] = []
  return {
    order,
    confirmSubscription: vi.fn(async (input: SubscribeInput) => {
      order.push(`subscribe ${input.amount} ${input.requestId}`)
      return sub()
    }),
    confirmAutoSub: vi.fn(async (projectId: string, coin: string, on: boolean) => {
      order.push(`auto ${projectId} ${coin} ${on ? 1 : 0}`)
      return auto()
    }),
  }
}

describe('the savings subscription of spec §4', () => {
  it('confirms the subscription first, then sets auto-subscribe on (type 1)', async () => {
    const c = calls(async () => ok(DONE))
    const out = await subscribeThenAuto(c, INPUT, true)
    expect(out).toEqual({ status: 'done', result: DONE })
    expect(c.order).toEqual(['subscribe 1000 r-1', 'auto usdt USDT 1'])
  })

  it('sets auto-subscribe off (type 0) when it is not ticked', async () => {
    const c = calls(async () => ok(DONE))
    await subscribeThenAuto(c, INPUT, false)
    expect(c.order).toEqual(['subscribe 1000 r-1', 'auto usdt USDT 0'])
  })

  it('a refused subscription is Failed with the server code and message, and auto-subscribe is not touched', async () => {
    const c = calls(async () => refusal('13500', 'Insufficient balance'))
    const out = await subscribeThenAuto(c, INPUT, true)
    expect(out).toEqual({ status: 'failed', step: 'subscribe', code: '13500', msg: 'Insufficient balance', unreachable: false, result: undefined })
    expect(c.confirmAutoSub).not.toHaveBeenCalled()
  })

  it('a refused auto-subscribe is Failed too, naming its step and keeping what the subscription did', async () => {
    const c = calls(async () => ok(DONE), async () => refusal('19007', 'Busy, try again'))
    const out = await subscribeThenAuto(c, INPUT, true)
    expect(out).toMatchObject({ status: 'failed', step: 'auto', code: '19007', msg: 'Busy, try again', result: DONE })
  })

  it('no answer: Failed, marked unreachable, never thrown', async () => {
    const c = calls(async () => {
      throw new NetworkError('Error: Network error')
    })
    const out = await subscribeThenAuto(c, INPUT, true)
    expect(out).toMatchObject({ status: 'failed', step: 'subscribe', code: '', unreachable: true })
    expect(c.confirmAutoSub).not.toHaveBeenCalled()
  })
})
