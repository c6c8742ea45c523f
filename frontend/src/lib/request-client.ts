import { post } from 'aws-amplify/api'
import { SERVICE_PREFIXES, type ServicePrefix } from './config'
import { COOKIE, ensureChfitDeviceId, ensureDeviceId, getCookie, getLanguage, getToken } from './cookies'
import { notifyError, reportReachable, reportUnreachable } from './notify'

/**
 * The one request client of the web app (spec §7, §8). Every call is a POST
 * with a JSON body carrying the uaTime/securityInfo envelope, sent through
 * aws-amplify's REST API so the same build talks to `tenger serve` or to API
 * Gateway, whichever /config.json names.
 */

/** Response envelope of every service: code "0" (or 0) means success. */
export interface ApiEnvelope<T = unknown> {
  code: string
  msg: string
  data: T
  message?: string
  errorMsg?: string
}

/** Code passed on silently: not signed in or session expired. */
export const CODE_NOT_SIGNED_IN = '10002'
/** Code whose toast reads 'Parameter error'. */
export const CODE_PARAMETER_ERROR = '410'
export const PARAMETER_ERROR_TEXT = 'Parameter error'

/** Options of {@link apiPost}. */
export interface RequestOptions {
  /** Do not show the error toast for a non-zero code (the caller shows it). */
  silent?: boolean
  /** Abort the request, e.g. from a TanStack Query signal. */
  signal?: AbortSignal
}

/** Thrown by {@link apiData} when the server answers a non-zero code. */
export class ApiError extends Error {
  readonly code: string
  readonly data: unknown
  readonly errorMsg?: string
  constructor(envelope: ApiEnvelope) {
    super(envelope.message || envelope.msg || `Request failed with code ${envelope.code}`)
    this.name = 'ApiError'
    this.code = envelope.code
    this.data = envelope.data
    this.errorMsg = envelope.errorMsg
  }
}

/**
 * Thrown by {@link apiPost} when the server could not be reached (no
 * answer: offline, server down, a gateway that cannot reach it). Its text
 * starts with 'Error:' like every transport failure's.
 */
export class NetworkError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NetworkError'
  }
}

/** True for a {@link NetworkError}: the request got no answer from the exchange. */
export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError
}

/** Gateway statuses that mean the exchange behind it did not answer. */
const GATEWAY_DOWN = new Set([502, 503, 504])

/**
 * Whether a transport failure means the exchange was not reached: no HTTP
 * answer at all, or a gateway saying it could not reach it. A request
 * cancelled by its caller (a query unmounted or superseded) is not one.
 */
function isUnreachable(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false
  const status = (error as { response?: { statusCode?: number } } | null)?.response?.statusCode
  if (status !== undefined) return GATEWAY_DOWN.has(status)
  // Amplify's name for a fetch that got no answer; a bare fetch failure is a TypeError.
  return (error as { name?: string } | null)?.name === 'NetworkError' || error instanceof TypeError
}

/** True when the envelope's code is 0 / "0". */
export function isSuccess(envelope: Pick<ApiEnvelope, 'code'>): boolean {
  return String(envelope.code) === '0'
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Local time as 'YYYY-MM-DD HH:mm:ss' (the uaTime field). */
export function formatUaTime(date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  )
}

/** The securityInfo JSON string: time stamp, device identifiers and client flags. */
export function buildSecurityInfo(now = Date.now()): string {
  const nav = typeof navigator !== 'undefined' ? navigator : undefined
  return JSON.stringify({
    timestamp: now,
    dId: ensureDeviceId(),
    deviceId: ensureChfitDeviceId(),
    platform: 'web',
    language: getLanguage(),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    cookieEnabled: nav?.cookieEnabled ? 1 : 0,
    webdriver: nav?.webdriver ? 1 : 0,
    screen: typeof screen !== 'undefined' ? `${screen.width}x${screen.height}` : '',
  })
}

/** Request headers of spec §7 plus the anti-forgery header. */
export function buildHeaders(service: ServicePrefix): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'exchange-client': 'pc',
    'exchange-language': getLanguage(),
    device: ensureDeviceId(),
  }
  const token = getToken()
  if (token) headers['exchange-token'] = token
  const xsrf = getCookie(COOKIE.xsrf)
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf
  if (service === '/fe-co-api') headers['futures-version'] = '101'
  return headers
}

/** Adds the uaTime/securityInfo envelope to a request body. */
export function buildBody(body: Record<string, unknown> = {}, now = new Date()): Record<string, unknown> {
  return { ...body, uaTime: formatUaTime(now), securityInfo: buildSecurityInfo(now.getTime()) }
}

/** Splits '/fe-ex-api/common/user_info' into its service prefix and path. */
export function splitPath(fullPath: string): { service: ServicePrefix; path: string } {
  const service = SERVICE_PREFIXES.find((p) => fullPath === p || fullPath.startsWith(`${p}/`))
  if (!service) throw new Error(`Error: unknown service for path ${fullPath}`)
  return { service, path: fullPath.slice(service.length) || '/' }
}

type SessionExpiredListener = () => void
const sessionListeners = new Set<SessionExpiredListener>()

/**
 * Registers a callback run when a call answers 10002, so the signed-in state
 * can be cleared without this module knowing about the query cache.
 */
export function onSessionExpired(listener: SessionExpiredListener): () => void {
  sessionListeners.add(listener)
  return () => sessionListeners.delete(listener)
}

/** Tells every listener that the session ended (a 10002 answer). */
export function emitSessionExpired(): void {
  sessionListeners.forEach((listener) => listener())
}

function normalize(raw: unknown): ApiEnvelope | undefined {
  if (typeof raw !== 'object' || raw === null || !('code' in raw)) return undefined
  const r = raw as Record<string, unknown>
  return {
    code: String(r.code),
    msg: typeof r.msg === 'string' ? r.msg : '',
    data: r.data ?? null,
    ...(typeof r.message === 'string' ? { message: r.message } : {}),
    ...(typeof r.errorMsg === 'string' ? { errorMsg: r.errorMsg } : {}),
  }
}

/**
 * The global handler of spec §8 for a non-zero code: 10002 is passed on
 * silently (and the signed-in state cleared), 410 reads 'Parameter error',
 * anything else shows the server's message.
 */
function handleFailure(envelope: ApiEnvelope, options: RequestOptions): void {
  if (envelope.code === CODE_NOT_SIGNED_IN) {
    emitSessionExpired()
    return
  }
  if (options.silent) return
  notifyError(failureText(envelope))
}

/**
 * The text of a refusal as the error toast shows it (spec §8: 410 reads
 * 'Parameter error', anything else the server's message), for a caller
 * that shows it in place instead (a `silent` request).
 */
export function failureText(envelope: ApiEnvelope): string {
  if (envelope.code === CODE_PARAMETER_ERROR) return PARAMETER_ERROR_TEXT
  return envelope.message || envelope.msg || `Request failed (${envelope.code})`
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return String(error)
}

async function readErrorBody(error: unknown): Promise<unknown> {
  // Amplify throws for HTTP statuses >= 300; the server's envelope may still be in the body.
  const response = (error as { response?: { body?: string } } | null)?.response
  if (!response?.body) return undefined
  try {
    return JSON.parse(response.body)
  } catch {
    return undefined
  }
}

/**
 * POSTs to a service path such as '/fe-ex-api/common/user_info' and returns
 * the envelope. A non-zero code has already been handled (toast or silent)
 * when this resolves; the caller decides what else to do. A network or other
 * transport failure rejects with Error('Error: ...'); when the exchange was not
 * reached it is a {@link NetworkError} and the user is told once (see
 * reportUnreachable in notify.ts).
 */
export async function apiPost<T = unknown>(
  fullPath: string,
  body: Record<string, unknown> | FormData = {},
  options: RequestOptions = {},
): Promise<ApiEnvelope<T>> {
  const { service, path } = splitPath(fullPath)
  const headers = buildHeaders(service)
  let payload: Record<string, unknown> | FormData
  if (body instanceof FormData) {
    delete headers['Content-Type']
    payload = body
  } else {
    payload = buildBody(body)
  }
  let raw: unknown
  try {
    const operation = post({
      apiName: service,
      path,
      options: {
        headers,
        body: payload as never,
        withCredentials: true,
      },
    })
    if (options.signal) {
      if (options.signal.aborted) operation.cancel()
      options.signal.addEventListener('abort', () => operation.cancel(), { once: true })
    }
    const response = await operation.response
    raw = await response.body.json()
  } catch (error) {
    raw = await readErrorBody(error)
    if (normalize(raw) === undefined) {
      const text = errorText(error)
      const message = text.startsWith('Error:') ? text : `Error: ${text}`
      if (!isUnreachable(error, options.signal)) throw new Error(message)
      // One "server unreachable" toast for a burst of failures, unless the screen says it itself.
      reportUnreachable()
      throw new NetworkError(message)
    }
  }
  const envelope = normalize(raw)
  if (!envelope) throw new Error('Error: malformed response')
  // An answer: the exchange is reachable again, so a later outage is told again.
  reportReachable()
  if (!isSuccess(envelope)) handleFailure(envelope, options)
  return envelope as ApiEnvelope<T>
}

/**
 * Like {@link apiPost} but resolves with data on success and rejects with
 * {@link ApiError} on a non-zero code; convenient as a TanStack Query queryFn.
 */
export async function apiData<T = unknown>(
  fullPath: string,
  body: Record<string, unknown> | FormData = {},
  options: RequestOptions = {},
): Promise<T> {
  const envelope = await apiPost<T>(fullPath, body, options)
  if (!isSuccess(envelope)) throw new ApiError(envelope)
  return envelope.data
}
