import { MutationObserver, onlineManager } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { queryClient } from './query-client'

describe('queryClient', () => {
  afterEach(() => onlineManager.setOnline(true))

  it('sends a change at once while the browser is offline, so its failure is shown instead of held and sent later', async () => {
    onlineManager.setOnline(false)
    const send = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'))
    const onError = vi.fn()
    const m = new MutationObserver(queryClient, { mutationFn: send, onError })
    const outcome = await Promise.race([
      m.mutate(undefined).then(
        () => 'sent',
        (e: Error) => e.message,
      ),
      new Promise((r) => setTimeout(() => r('held'), 300)),
    ])
    expect(outcome).toBe('Failed to fetch')
    expect(send).toHaveBeenCalledTimes(1)
    expect(onError).toHaveBeenCalledTimes(1)
    // Nothing is left to be sent when the network returns.
    onlineManager.setOnline(true)
    await new Promise((r) => setTimeout(r, 50))
    expect(send).toHaveBeenCalledTimes(1)
  })
})
