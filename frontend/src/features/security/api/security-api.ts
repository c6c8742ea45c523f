import { apiData, apiPost } from '@/lib/request-client'

/**
 * Calls of the account security page (API contract: Google authenticator,
 * phone binding and check, password, nickname, histories). Errors reach the
 * user through the request client's global handler.
 */

/** operationType values used here. */
export const SECURITY_OPERATION = {
  bindPhone: 4,
  changeTarget: 5,
  /** Open/close the SMS check, turn the authenticator off. */
  security: 11,
} as const

/** Answer of /user/toopen_google_authenticator. */
export interface GoogleSetup {
  secret: string
  otpauthUri: string
  /** PNG data URL of the otpauth URI. */
  qrCode: string
}

/** One row of the login or settings history. */
export interface HistoryEntry {
  time: number
  ip: string
  device: string
  /** The browser and system from the request's user agent ("Chrome 131 on Windows"); "" when not known. */
  deviceName?: string
  action: string
}

/** A page of history rows with the total count. */
export interface HistoryPage {
  count: number
  list: HistoryEntry[]
}

/** Which history table. */
export type HistoryKind = 'login' | 'setting'

export function startGoogleSetup() {
  return apiData<GoogleSetup>('/fe-ex-api/user/toopen_google_authenticator', {})
}

export function enableGoogle(googleCode: string, loginPwd: string) {
  return apiPost('/fe-ex-api/user/google_verify', { googleCode, loginPwd })
}

export function disableGoogle(googleCode: string, smsAuthCode?: string) {
  return apiPost('/fe-ex-api/user/close_google_verify', smsAuthCode ? { googleCode, smsAuthCode } : { googleCode })
}

/**
 * Sends an SMS code. Without a phone the code goes to the user's bound phone
 * (operations on the account itself); binding or changing names the new phone.
 */
export function sendSecuritySms(operationType: number, phone?: { countryCode: string; mobileNumber: string }) {
  return apiPost('/fe-ex-api/v4/common/smsValidCode', { ...(phone ?? {}), smsType: '0', operationType })
}

export interface PhoneChange {
  countryCode: string
  mobileNumber: string
  smsAuthCode: string
  googleCode?: string
}

/** Binds a first phone (code operationType 4) or changes it (operationType 5). */
export function savePhone(change: PhoneChange, replacing: boolean) {
  const body: Record<string, unknown> = {
    countryCode: change.countryCode,
    mobileNumber: change.mobileNumber,
    smsAuthCode: change.smsAuthCode,
  }
  if (change.googleCode) body.googleCode = change.googleCode
  return apiPost(replacing ? '/fe-ex-api/user/mobile_update' : '/fe-ex-api/user/mobile_bind_save', body)
}

export function openMobileCheck(smsAuthCode: string) {
  return apiPost('/fe-ex-api/user/open_mobile_verify', { smsAuthCode })
}

export function closeMobileCheck(smsAuthCode: string, googleCode?: string) {
  return apiPost('/fe-ex-api/user/close_mobile_verify', googleCode ? { smsAuthCode, googleCode } : { smsAuthCode })
}

export function updatePassword(loginPword: string, newLoginPword: string, googleCode?: string) {
  const body: Record<string, unknown> = { loginPword, newLoginPword }
  if (googleCode) body.googleCode = googleCode
  return apiPost('/fe-ex-api/user/password_update', body)
}

export function updateNickname(nickName: string) {
  return apiPost('/fe-ex-api/user/nickname_update', { nickName: nickName.trim() })
}

const HISTORY_PATH: Record<HistoryKind, string> = {
  login: '/fe-ex-api/security/login_history',
  setting: '/fe-ex-api/security/setting_history',
}

export async function fetchHistory(kind: HistoryKind, page: number, pageSize: number, signal?: AbortSignal) {
  const data = await apiData<HistoryPage | null>(HISTORY_PATH[kind], { page, pageSize }, { signal })
  return { count: Number(data?.count ?? 0), list: Array.isArray(data?.list) ? data.list : [] }
}

/** Query keys of this page, so a change can refresh the settings history. */
export const securityKeys = {
  all: ['security'] as const,
  history: (kind: HistoryKind, page: number, pageSize: number) =>
    ['security', 'history', kind, page, pageSize] as const,
}
