import type { UserInfo } from '@/lib/session'
import type { ApiKey, KeyInput, KeyType, Permission } from '../api/api-keys-api'
import { PERMISSIONS } from '../api/api-keys-api'
import { checkIpList, MAX_IPS } from './ip-list'

/**
 * The rules of the create and edit forms, as the server checks them (label,
 * permissions, IP restriction, Ed25519 public key), so a mistake shows
 * before a verification code is sent. The server checks everything again.
 */

/** The longest label, in characters. */
export const LABEL_MAX = 32

/** Whether the key may be used from any IP or only from the listed ones. */
export type IpMode = 'any' | 'restrict'

/** The values of the form. */
export interface KeyFormValues {
  label: string
  keyType: KeyType
  /** PEM, for an Ed25519 key. */
  publicKey: string
  /** The permissions ticked besides read. */
  permissions: Permission[]
  ipMode: IpMode
  ipText: string
}

/** A message of the page texts with its values. */
export interface FieldMessage {
  key: string
  vars?: Record<string, string | number>
}

/** The fields a message can stand beside. */
export type KeyFormField = 'label' | 'publicKey' | 'permissions' | 'ips'

export type KeyFormErrors = Partial<Record<KeyFormField, FieldMessage>>

/** Empty values of the create form: an HMAC key that reads, usable from any IP. */
export function emptyForm(): KeyFormValues {
  return { label: '', keyType: 'HMAC_SHA256', publicKey: '', permissions: [], ipMode: 'any', ipText: '' }
}

/** The edit form's values of a key. */
export function formOf(key: ApiKey): KeyFormValues {
  return {
    label: key.label,
    keyType: key.keyType,
    publicKey: '',
    permissions: key.permissions.filter((p) => p !== 'read'),
    ipMode: key.ips.length > 0 ? 'restrict' : 'any',
    ipText: key.ips.join('\n'),
  }
}

/** The label's problem: required, or 1–32 printable characters (control and format characters are refused). */
export function labelError(label: string): FieldMessage | undefined {
  const v = label.trim()
  if (v === '') return { key: 'errors.required' }
  if (Array.from(v).length > LABEL_MAX || /[\p{Cc}\p{Cf}\uFFFD]/u.test(v)) return { key: 'errors.label', vars: { max: LABEL_MAX } }
  return undefined
}

// SubjectPublicKeyInfo of an Ed25519 key: this DER prefix (id-Ed25519, 1.3.101.112) and 32 bytes of key.
const ED25519_SPKI_PREFIX = [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]
const PEM = /^-----BEGIN PUBLIC KEY-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END PUBLIC KEY-----$/

/** True for an Ed25519 public key in PEM form ('-----BEGIN PUBLIC KEY-----' …). */
export function isEd25519PublicKeyPem(text: string): boolean {
  const m = PEM.exec(text.trim())
  if (!m) return false
  let der: string
  try {
    der = atob(m[1].replace(/\s+/g, ''))
  } catch {
    return false
  }
  if (der.length !== ED25519_SPKI_PREFIX.length + 32) return false
  return ED25519_SPKI_PREFIX.every((b, i) => der.charCodeAt(i) === b)
}

/** The public key's problem on an Ed25519 key: required, then an Ed25519 key in PEM form. */
export function publicKeyError(values: Pick<KeyFormValues, 'keyType' | 'publicKey'>): FieldMessage | undefined {
  if (values.keyType !== 'ED25519') return undefined
  if (values.publicKey.trim() === '') return { key: 'errors.required' }
  return isEd25519PublicKeyPem(values.publicKey) ? undefined : { key: 'errors.publicKey' }
}

/** The distinct IPs the form restricts the key to (none when it is not restricted). */
export function restrictedIps(values: Pick<KeyFormValues, 'ipMode' | 'ipText'>): string[] {
  return values.ipMode === 'restrict' ? checkIpList(values.ipText).ips : []
}

/**
 * The withdraw rule: a key may withdraw only when it is restricted to at
 * least one IP (the server refuses it otherwise, code 15004).
 */
export function withdrawAllowed(values: Pick<KeyFormValues, 'ipMode' | 'ipText'>): boolean {
  return restrictedIps(values).length > 0
}

/**
 * The IP list's problem: entries that are not addresses or ranges (the
 * first three named), too many, or none at all. While `typing`, the entry
 * being typed is not called invalid yet; `requireOne: false` leaves an
 * empty list alone (as it is typed, before Next).
 */
export function ipsError(
  values: Pick<KeyFormValues, 'ipMode' | 'ipText'>,
  { typing = false, requireOne = true }: { typing?: boolean; requireOne?: boolean } = {},
): FieldMessage | undefined {
  if (values.ipMode !== 'restrict') return undefined
  const check = checkIpList(values.ipText, { typing })
  if (check.invalid.length > 0) return { key: 'errors.ipInvalid', vars: { list: check.invalid.slice(0, 3).join(', ') } }
  if (check.tooMany) return { key: 'errors.ipTooMany', vars: { max: MAX_IPS } }
  if (requireOne && check.ips.length === 0) return { key: 'errors.ipRequired' }
  return undefined
}

/** The permissions sent: read, then those ticked, in the server's order; withdraw only when allowed. */
export function permissionsOf(values: KeyFormValues): Permission[] {
  const allowWithdraw = withdrawAllowed(values)
  return PERMISSIONS.filter((p) => p === 'read' || (values.permissions.includes(p) && (p !== 'withdraw' || allowWithdraw)))
}

/** Every problem of the form on submit. */
export function validateKeyForm(values: KeyFormValues, mode: 'create' | 'edit'): KeyFormErrors {
  const errors: KeyFormErrors = {}
  const label = labelError(values.label)
  if (label) errors.label = label
  const publicKey = mode === 'create' ? publicKeyError(values) : undefined
  if (publicKey) errors.publicKey = publicKey
  const ips = ipsError(values)
  if (ips) errors.ips = ips
  if (values.permissions.includes('withdraw') && !withdrawAllowed(values)) errors.permissions = { key: 'form.withdrawNeedsIp' }
  return errors
}

/** What the create or update call sends for valid values. */
export function inputOf(values: KeyFormValues): KeyInput {
  return { label: values.label.trim(), permissions: permissionsOf(values), ips: restrictedIps(values) }
}

/** True when a key may trade or withdraw from any IP: its "Unrestricted" shows as a warning. */
export function unrestrictedRisk(key: Pick<ApiKey, 'permissions' | 'ips'>): boolean {
  return key.ips.length === 0 && key.permissions.some((p) => p !== 'read')
}

/** The codes a create or update needs: the withdrawal's rule. */
export interface NeededCodes {
  email: boolean
  sms: boolean
  google: boolean
}

/**
 * An e-mail code when the account has an e-mail; an SMS code when the SMS
 * check is on, or when the account has none of the three but has a phone;
 * a Google code when the authenticator is on.
 */
export function neededCodes(user: Pick<UserInfo, 'email' | 'isOpenMobileCheck' | 'googleStatus' | 'mobileNumber'> | null | undefined): NeededCodes {
  const email = !!user?.email
  const google = user?.googleStatus === 1
  let sms = user?.isOpenMobileCheck === 1
  if (!email && !sms && !google && !!user?.mobileNumber) sms = true
  return { email, sms, google }
}

/** The form field a refusal of the server belongs beside (catalogue codes 15000–15007). */
export function fieldOfCode(code: string): KeyFormField | undefined {
  switch (code) {
    case '15000':
      return 'label'
    case '15001':
      return 'permissions'
    case '15002':
    case '15003':
    case '15004':
      return 'ips'
    case '15007':
      return 'publicKey'
    default:
      return undefined
  }
}
