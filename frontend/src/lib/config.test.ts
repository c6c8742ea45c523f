import { describe, expect, it, vi } from 'vitest'
import { Amplify } from 'aws-amplify'
import { defaultConfig, loadConfig, parseConfig, SERVICE_PREFIXES } from './config'

describe('runtime config', () => {
  it('defaults every service to the same origin', () => {
    const c = defaultConfig('https://ex.mn')
    expect(c.api['/fe-ex-api']).toBe('https://ex.mn/fe-ex-api')
    expect(c.content).toBe('https://ex.mn/graphql')
    expect(c.ws).toBe('wss://ex.mn/ws')
    expect(c.flags).toEqual({ futuresLive: false, walletLive: false })
  })

  it('reads base urls (absolute or relative) and appends the prefix, plus ws, content and flags', () => {
    const c = parseConfig(
      {
        region: 'ap-east-1',
        api: {
          '/fe-ex-api': 'https://api.example.com/fe-ex-api/',
          '/fe-co-api': '/',
          '/fe-otc-api': '',
          '/fe-task-api': 'https://api.example.com/prod',
          '/fe-quant-api': 'http://localhost:8080',
        },
        ws: 'wss://ws.example.com/prod',
        content: 'https://cms.example.com/graphql',
        flags: { futuresLive: true },
      },
      'https://ex.mn',
    )
    expect(c.region).toBe('ap-east-1')
    expect(c.api['/fe-ex-api']).toBe('https://api.example.com/fe-ex-api')
    expect(c.api['/fe-co-api']).toBe('https://ex.mn/fe-co-api')
    expect(c.api['/fe-otc-api']).toBe('https://ex.mn/fe-otc-api')
    expect(c.api['/fe-task-api']).toBe('https://api.example.com/prod/fe-task-api')
    expect(c.api['/fe-quant-api']).toBe('http://localhost:8080/fe-quant-api')
    expect(c.ws).toBe('wss://ws.example.com/prod')
    expect(c.content).toBe('https://cms.example.com/graphql')
    expect(c.flags.futuresLive).toBe(true)
    expect(c.flags.walletLive).toBe(false)
  })

  it('configures one Amplify REST API per service prefix from /config.json', async () => {
    const fetchImpl = vi.fn(async () => ({ ok: true, json: async () => ({ region: 'local', api: { '/fe-ex-api': location.origin } }) }) as Response)
    await loadConfig(fetchImpl)
    expect(fetchImpl).toHaveBeenCalledWith('/config.json', expect.anything())
    const rest = Amplify.getConfig().API?.REST ?? {}
    expect(Object.keys(rest).sort()).toEqual([...SERVICE_PREFIXES].sort())
    expect(rest['/fe-ex-api']?.endpoint).toBe(`${location.origin}/fe-ex-api`)
  })

  it('starts on defaults when /config.json is unreachable', async () => {
    const c = await loadConfig(vi.fn(async () => Promise.reject(new TypeError('offline'))))
    expect(c.api['/fe-task-api']).toBe(`${location.origin}/fe-task-api`)
  })
})
