import { apiData, apiPost } from '@/lib/request-client'

/**
 * Calls of the API management page (API contract: the keys bots and tools
 * sign the Binance-compatible API at /api/v3 with). Creating and changing a
 * key needs the verification codes a withdrawal needs.
 */

/** What a key may do; 'read' is always there. */
export type Permission = 'read' | 'spot' | 'margin' | 'futures' | 'withdraw'

/** Every permission, in the order the server keeps and the page shows them. */
export const PERMISSIONS: readonly Permission[] = ['read', 'spot', 'margin', 'futures', 'withdraw']

/** How a key signs: a secret the server made (HMAC) or the user's own Ed25519 key pair. */
export type KeyType = 'HMAC_SHA256' | 'ED25519'

/** One API key as its owner sees it (never with its secret). */
export interface ApiKey {
  /** 64 characters. */
  apiKey: string
  label: string
  permissions: Permission[]
  /** Canonical IPs and CIDR ranges; empty means any IP may use the key. */
  ips: string[]
  keyType: KeyType
  /** ms */
  createdAt: number
  /** ms; 0 when never used. */
  lastUsedAt: number
}

/** Answer of the list call. */
export interface ApiKeyList {
  keys: ApiKey[]
  /** The most keys a user may have. */
  max: number
}

/** A new key with its secret, shown once ("" for an Ed25519 key). */
export interface CreatedKey extends ApiKey {
  secretKey: string
}

/** The verification codes a create or an update carries (only those the user needs). */
export interface VerificationCodes {
  emailCode?: string
  smsAuthCode?: string
  googleCode?: string
}

/** What the create and update forms send. */
export interface KeyInput {
  label: string
  permissions: Permission[]
  ips: string[]
}

/** The most keys when the server does not say. */
export const DEFAULT_MAX_KEYS = 30

/** operationType of the codes of this page (the withdrawal's e-mail code, the security SMS code). */
export const API_KEY_OPERATION = { email: 17, sms: 11 } as const

/** A key from an answer, with every field present (missing lists empty, 'read' at least). */
export function normalizeKey(raw: Partial<ApiKey> | null | undefined): ApiKey {
  return {
    apiKey: String(raw?.apiKey ?? ''),
    label: String(raw?.label ?? ''),
    permissions: Array.isArray(raw?.permissions) ? raw.permissions : ['read'],
    ips: Array.isArray(raw?.ips) ? raw.ips : [],
    keyType: raw?.keyType === 'ED25519' ? 'ED25519' : 'HMAC_SHA256',
    createdAt: Number(raw?.createdAt ?? 0),
    lastUsedAt: Number(raw?.lastUsedAt ?? 0),
  }
}

/** The user's keys, newest first, and the most allowed. */
export async function listKeys(signal?: AbortSignal): Promise<ApiKeyList> {
  const data = await apiData<Partial<ApiKeyList> | null>('/fe-ex-api/sub_user/openapi/sub_user_api_list', {}, { signal })
  const max = Number(data?.max)
  return {
    keys: Array.isArray(data?.keys) ? data.keys.map(normalizeKey) : [],
    max: Number.isFinite(max) && max > 0 ? max : DEFAULT_MAX_KEYS,
  }
}

/**
 * Creates a key; a PEM public key makes an Ed25519 key, none an HMAC one.
 * Silent: the form shows a refusal beside its field or in a toast.
 */
export function createKey(input: KeyInput & { publicKey?: string }, codes: VerificationCodes) {
  const body: Record<string, unknown> = { label: input.label, permissions: input.permissions, ips: input.ips, ...codes }
  if (input.publicKey) body.publicKey = input.publicKey
  return apiPost<CreatedKey>('/fe-ex-api/openapi/create_open_api', body, { silent: true })
}

/** Changes a key's label, permissions and IPs (silent, like {@link createKey}). */
export function updateKey(apiKey: string, input: KeyInput, codes: VerificationCodes) {
  return apiPost<ApiKey>(
    '/fe-ex-api/openapi/update_open_api',
    { apiKey, label: input.label, permissions: input.permissions, ips: input.ips, ...codes },
    { silent: true },
  )
}

/** Deletes a key at once (a refusal shows in the global error toast). */
export function deleteKey(apiKey: string) {
  return apiPost<null>('/fe-ex-api/openapi/delete_open_api', { apiKey })
}

/** Sends an e-mail code to the user's bound address. */
export function sendEmailCode() {
  return apiPost('/fe-ex-api/v4/common/emailValidCode', { operationType: String(API_KEY_OPERATION.email) })
}

/** Query keys of this page. */
export const apiKeysKeys = {
  all: ['api-keys'] as const,
  list: ['api-keys', 'list'] as const,
}
