import { Amplify } from 'aws-amplify'

/**
 * Runtime configuration. The same build runs against `tenger serve` and the AWS
 * deployment, so endpoints are read at start from /config.json (served by the
 * Go server locally, written by the CDK web stack next to the site in AWS).
 */

/** The HTTP API service prefixes of spec §7; each is one Amplify REST API. */
export const SERVICE_PREFIXES = [
  '/fe-ex-api',
  '/fe-co-api',
  '/fe-otc-api',
  '/fe-increment-api',
  '/fe-quant-api',
  '/fe-task-api',
] as const
export type ServicePrefix = (typeof SERVICE_PREFIXES)[number]

/** Feature flags that the server can switch without a new build. */
export interface RuntimeFlags {
  /** Futures trading is live; while false futures links lead to /maintenance. */
  futuresLive: boolean
  /** The wallet pages exist; while false the deposit button is not offered. */
  walletLive: boolean
}

/**
 * The parsed /config.json document. In the document `api` maps each prefix
 * to the base URL serving it and the app appends the prefix; here `api`
 * holds the resulting endpoint of each service (base + prefix).
 */
export interface RuntimeConfig {
  region: string
  api: Record<ServicePrefix, string>
  ws: string
  content: string
  flags: RuntimeFlags
}

function sameOrigin(): string {
  return typeof location !== 'undefined' ? location.origin : 'http://localhost'
}

/** Configuration used when /config.json is missing fields: everything on this origin. */
export function defaultConfig(origin = sameOrigin()): RuntimeConfig {
  const wsOrigin = origin.replace(/^http/, 'ws')
  return {
    region: 'local',
    api: Object.fromEntries(SERVICE_PREFIXES.map((p) => [p, `${origin}${p}`])) as Record<ServicePrefix, string>,
    ws: `${wsOrigin}/ws`,
    content: `${origin}/graphql`,
    flags: { futuresLive: false, walletLive: false },
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Turns a possibly relative base url into an absolute one without a trailing slash. */
export function absoluteUrl(value: string, origin = sameOrigin()): string {
  const url = new URL(value, `${origin}/`).toString()
  return url.endsWith('/') ? url.slice(0, -1) : url
}

/** The endpoint of a service: the base url plus the prefix (unless the base already ends with it). */
export function serviceEndpoint(base: string, prefix: ServicePrefix, origin = sameOrigin()): string {
  const abs = absoluteUrl(base, origin)
  return abs.endsWith(prefix) ? abs : `${abs}${prefix}`
}

/**
 * Validates a config document, filling missing parts with same-origin
 * defaults. An empty base url ("") also means the same origin.
 */
export function parseConfig(raw: unknown, origin = sameOrigin()): RuntimeConfig {
  const fallback = defaultConfig(origin)
  if (!isRecord(raw)) return fallback
  const api = { ...fallback.api }
  if (isRecord(raw.api)) {
    for (const prefix of SERVICE_PREFIXES) {
      const base = raw.api[prefix]
      if (typeof base === 'string' && base.trim() !== '') {
        api[prefix] = serviceEndpoint(base, prefix, origin)
      }
    }
  }
  const flags = isRecord(raw.flags) ? raw.flags : {}
  return {
    region: typeof raw.region === 'string' ? raw.region : fallback.region,
    api,
    ws: typeof raw.ws === 'string' && raw.ws ? raw.ws : fallback.ws,
    content: typeof raw.content === 'string' && raw.content ? absoluteUrl(raw.content, origin) : fallback.content,
    flags: {
      futuresLive: flags.futuresLive === true,
      walletLive: flags.walletLive === true,
    },
  }
}

let current: RuntimeConfig = defaultConfig()

/** The active runtime configuration. */
export function getConfig(): RuntimeConfig {
  return current
}

/** Configures aws-amplify with one REST API per service prefix (the API name is the prefix). */
export function configureAmplify(config: RuntimeConfig): void {
  const rest = Object.fromEntries(
    SERVICE_PREFIXES.map((prefix) => [prefix, { endpoint: config.api[prefix], region: config.region }]),
  )
  Amplify.configure(
    { API: { REST: rest } },
    { API: { REST: { retryStrategy: { strategy: 'no-retry' }, defaultAuthMode: 'none' } } },
  )
}

/** Sets the active config and configures Amplify; used at start and by tests. */
export function applyConfig(config: RuntimeConfig): void {
  current = config
  configureAmplify(config)
}

/**
 * Loads /config.json and applies it. When the document cannot be read (for
 * example `vite` without a backend) the app still starts on same-origin defaults.
 */
export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  let config = defaultConfig()
  try {
    const res = await fetchImpl('/config.json', { cache: 'no-store', credentials: 'same-origin' })
    if (res.ok) config = parseConfig(await res.json())
  } catch {
    // Keep the defaults: same-origin endpoints are right for `tenger serve`.
  }
  applyConfig(config)
  return config
}
