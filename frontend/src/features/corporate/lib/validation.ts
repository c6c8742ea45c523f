import type { Role } from '../api/types'
import { isCountryCode } from './countries'

/**
 * The checks of the five steps' forms, as the server makes them
 * (internal/corporate/validate.go), so a mistake shows as it is typed. The
 * server checks everything again; its refusals are mapped onto the same
 * fields (server-errors.ts).
 *
 * Two modes: a draft ("Save") may leave fields blank but none malformed
 * (the server refuses malformed ones; a person of step 3 is always saved
 * whole), while "Save and continue" needs the step complete.
 */

/** A message of the general page's texts with its values. */
export interface FieldMessage {
  key: string
  vars?: Record<string, string | number>
}

/** Problems by field, the field named as the API names it (entityName, people[1].name, files.proof_of_address). */
export type FieldErrors = Record<string, FieldMessage>

/** What the check is for. */
export type CheckMode = 'draft' | 'complete'

/** Bounds of the fields (the server's). */
export const LIMITS = {
  short: 100,
  entity: 200,
  street: 200,
  long: 500,
  regNo: 64,
  zip: 16,
  email: 254,
  people: 20,
  files: 40,
  filesPerDocument: 10,
  minAge: 18,
} as const

// Control and format characters; line breaks and tabs are allowed where a field takes several lines.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cf}\uFFFD]/u
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\p{Cf}\uFFFD]/u

/** The length as the server counts it (characters, not UTF-16 units). */
function length(v: string): number {
  return Array.from(v).length
}

/** A free text: at most max characters, no control or format characters. */
export function textError(value: string, max: number, multiline = false): FieldMessage | undefined {
  const v = value.trim()
  if (length(v) > max) return { key: 'errors.tooLong', vars: { max } }
  if ((multiline ? CONTROL : CONTROL_SINGLE_LINE).test(v)) return { key: 'errors.text' }
  return undefined
}

/** A blank value. */
export function requiredError(value: string): FieldMessage | undefined {
  return value.trim() === '' ? { key: 'errors.required' } : undefined
}

/** A phone number: an optional leading +, 6 to 20 digits, single spaces or dashes between them. */
export function phoneError(value: string): FieldMessage | undefined {
  const v = value.trim()
  if (v === '') return undefined
  const body = v.startsWith('+') ? v.slice(1) : v
  if (!/^[0-9]+([ -][0-9]+)*$/.test(body)) return { key: 'errors.phone' }
  const digits = body.replace(/[^0-9]/g, '').length
  return digits < 6 || digits > 20 ? { key: 'errors.phone' } : undefined
}

/** A bare e-mail address with a dot in its domain. */
export function emailError(value: string): FieldMessage | undefined {
  const v = value.trim()
  if (v === '') return undefined
  if (v.length > LIMITS.email || !/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/.test(v)) return { key: 'errors.email' }
  return undefined
}

/** A registration number or a zip: letters, digits, spaces and - / . only. */
export function charsError(value: string, max: number): FieldMessage | undefined {
  const v = value.trim()
  if (length(v) > max) return { key: 'errors.tooLong', vars: { max } }
  return /^[\p{L}\p{N} ./-]*$/u.test(v) ? undefined : { key: 'errors.chars' }
}

/** Today as YYYY-MM-DD in the browser's time zone. */
export function todayISO(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isISODate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}

/** A date YYYY-MM-DD from 1800 up to today. */
export function dateError(value: string, today: string): FieldMessage | undefined {
  const v = value.trim()
  if (v === '') return undefined
  if (!isISODate(v) || v < '1800-01-01') return { key: 'errors.date' }
  return v > today ? { key: 'errors.dateFuture' } : undefined
}

/** A date of birth at least 18 years before today. */
export function ageError(dateOfBirth: string, today: string): FieldMessage | undefined {
  const v = dateOfBirth.trim()
  if (!isISODate(v)) return undefined
  const [y, m, d] = today.split('-').map(Number)
  const limit = `${String(y - LIMITS.minAge).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
  return v > limit ? { key: 'errors.age', vars: { age: LIMITS.minAge } } : undefined
}

/** A country code the server takes. */
export function countryError(value: string): FieldMessage | undefined {
  const v = value.trim().toUpperCase()
  return v === '' || isCountryCode(v) ? undefined : { key: 'errors.country' }
}

/** An owner's share: above 0, at most 100, at most two decimals. */
export function percentError(value: string): FieldMessage | undefined {
  const v = value.trim()
  if (v === '') return undefined
  if (!/^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(v)) return { key: 'errors.percent' }
  const n = Number(v)
  return n > 0 && n <= 100 ? undefined : { key: 'errors.percent' }
}

/** Adds the first problem of a field (a field keeps one message). */
function put(errors: FieldErrors, field: string, ...checks: (FieldMessage | undefined)[]) {
  const first = checks.find(Boolean)
  if (first && !errors[field]) errors[field] = first
}

/** Step 1's values. */
export interface ApplicantValues {
  fullName: string
  position: string
  email: string
  phone: string
}

export function validateApplicant(v: ApplicantValues, mode: CheckMode): FieldErrors {
  const req = (value: string) => (mode === 'complete' ? requiredError(value) : undefined)
  const errors: FieldErrors = {}
  put(errors, 'fullName', textError(v.fullName, LIMITS.short), req(v.fullName))
  put(errors, 'position', textError(v.position, LIMITS.short), req(v.position))
  put(errors, 'email', emailError(v.email), req(v.email))
  put(errors, 'phone', phoneError(v.phone), req(v.phone))
  return errors
}

/** An address's values. */
export interface AddressValues {
  country: string
  city: string
  street: string
  zip: string
}

/** Yes, no, or not answered. */
export type YesNo = 'yes' | 'no' | ''

/** Step 2's values, with the business address asked when it is not the registered one. */
export interface CompanyValues {
  entityName: string
  registrationNumber: string
  registrationDate: string
  contactNumber: string
  sourceOfFunds: string
  businessType: string
  applyReason: string
  registeredCountry: string
  registeredCity: string
  registeredStreet: string
  registeredZip: string
  businessAddressSame: YesNo
  businessAddress: AddressValues
}

export function validateCompany(v: CompanyValues, mode: CheckMode, today: string): FieldErrors {
  const req = (value: string) => (mode === 'complete' ? requiredError(value) : undefined)
  const errors: FieldErrors = {}
  put(errors, 'entityName', textError(v.entityName, LIMITS.entity), req(v.entityName))
  put(errors, 'registrationNumber', charsError(v.registrationNumber, LIMITS.regNo), req(v.registrationNumber))
  put(errors, 'registrationDate', dateError(v.registrationDate, today), req(v.registrationDate))
  put(errors, 'contactNumber', phoneError(v.contactNumber), req(v.contactNumber))
  put(errors, 'sourceOfFunds', textError(v.sourceOfFunds, LIMITS.long, true), req(v.sourceOfFunds))
  put(errors, 'businessType', textError(v.businessType, LIMITS.short), req(v.businessType))
  put(errors, 'applyReason', textError(v.applyReason, LIMITS.long, true), req(v.applyReason))
  put(errors, 'registeredCountry', countryError(v.registeredCountry), req(v.registeredCountry))
  put(errors, 'registeredCity', textError(v.registeredCity, LIMITS.short), req(v.registeredCity))
  put(errors, 'registeredStreet', textError(v.registeredStreet, LIMITS.street), req(v.registeredStreet))
  put(errors, 'registeredZip', charsError(v.registeredZip, LIMITS.zip))
  put(errors, 'businessAddressSame', req(v.businessAddressSame))
  if (v.businessAddressSame === 'no') {
    const a = v.businessAddress
    put(errors, 'businessAddress.country', countryError(a.country), req(a.country))
    put(errors, 'businessAddress.city', textError(a.city, LIMITS.short), req(a.city))
    put(errors, 'businessAddress.street', textError(a.street, LIMITS.street), req(a.street))
    put(errors, 'businessAddress.zip', charsError(a.zip, LIMITS.zip))
  }
  return errors
}

/** One person of step 3 as the form holds it. */
export interface PersonValues {
  /** The form's own key of the row (React), kept across edits. */
  key: string
  /** The server's id; '' until saved. */
  id: string
  name: string
  roles: Role[]
  nationality: string
  dateOfBirth: string
  ownershipPercent: string
}

/** Step 3's values. */
export interface PeopleValues {
  people: PersonValues[]
  allOwnersListed: boolean
}

/** The owners' shares added up, in hundredths (exact: no floats). */
export function ownershipTotalHundredths(people: PersonValues[]): number {
  let total = 0
  for (const p of people) {
    if (!p.roles.includes('owner') || percentError(p.ownershipPercent) || p.ownershipPercent.trim() === '') continue
    const [whole, frac = ''] = p.ownershipPercent.trim().split('.')
    total += Number(whole) * 100 + Number(frac.padEnd(2, '0'))
  }
  return total
}

/** Hundredths as a percentage text: 11000 is "110", 1250 "12.5". */
export function formatHundredths(h: number): string {
  const whole = Math.floor(h / 100)
  const frac = String(h % 100).padStart(2, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : String(whole)
}

/**
 * Step 3. Every listed person is whole in both modes (the server saves a
 * person only whole); completing the step also needs someone listed, a
 * director among them and the owners' declaration.
 */
export function validatePeople(v: PeopleValues, mode: CheckMode, today: string): FieldErrors {
  const errors: FieldErrors = {}
  v.people.forEach((p, i) => {
    const f = (name: string) => `people[${i}].${name}`
    put(errors, f('name'), textError(p.name, LIMITS.short), requiredError(p.name))
    put(errors, f('roles'), p.roles.length === 0 ? { key: 'errors.roles' } : undefined)
    put(errors, f('nationality'), countryError(p.nationality), requiredError(p.nationality))
    put(errors, f('dateOfBirth'), dateError(p.dateOfBirth, today), requiredError(p.dateOfBirth), ageError(p.dateOfBirth, today))
    if (p.roles.includes('owner')) {
      put(errors, f('ownershipPercent'), requiredError(p.ownershipPercent), percentError(p.ownershipPercent))
    }
  })
  if (v.people.length > LIMITS.people) put(errors, 'people', { key: 'errors.tooManyPeople', vars: { max: LIMITS.people } })
  const total = ownershipTotalHundredths(v.people)
  if (total > 10000) put(errors, 'people', { key: 'errors.ownershipOver', vars: { total: formatHundredths(total) } })
  if (mode === 'complete') {
    if (v.people.length === 0) put(errors, 'people', { key: 'errors.peopleRequired' })
    else if (!v.people.some((p) => p.roles.includes('director'))) put(errors, 'people', { key: 'errors.directorRequired' })
    if (!v.allOwnersListed) put(errors, 'allOwnersListed', { key: 'errors.ownersDeclaration' })
  }
  return errors
}

/** Step 5's values. */
export interface QuestionnaireValues {
  monthlyVolume: string
  purposes: string[]
  purposeDetail: string
  pep: YesNo
  pepDetail: string
  sanctions: YesNo
  sanctionsDetail: string
  accuracyConfirmed: boolean
}

export function validateQuestionnaire(v: QuestionnaireValues, mode: CheckMode): FieldErrors {
  const complete = mode === 'complete'
  const req = (value: string) => (complete ? requiredError(value) : undefined)
  const errors: FieldErrors = {}
  put(errors, 'monthlyVolume', req(v.monthlyVolume))
  if (complete && v.purposes.length === 0) put(errors, 'purposes', { key: 'errors.purposesRequired' })
  put(errors, 'purposeDetail', textError(v.purposeDetail, LIMITS.long, true), v.purposes.includes('other') ? req(v.purposeDetail) : undefined)
  put(errors, 'pep', req(v.pep))
  put(errors, 'pepDetail', textError(v.pepDetail, LIMITS.long, true), v.pep === 'yes' ? req(v.pepDetail) : undefined)
  put(errors, 'sanctions', req(v.sanctions))
  put(errors, 'sanctionsDetail', textError(v.sanctionsDetail, LIMITS.long, true), v.sanctions === 'yes' ? req(v.sanctionsDetail) : undefined)
  if (complete && !v.accuracyConfirmed) put(errors, 'accuracyConfirmed', { key: 'errors.confirmationRequired' })
  return errors
}

/** The files of step 4 as the checks need them. */
export interface DocumentCheckFile {
  kind: string
  personId: string
}

/**
 * Step 4: at most 10 files a document and 40 in all; complete with each
 * company document and every listed person's ID.
 */
export function validateDocuments(
  files: DocumentCheckFile[],
  people: { id: string }[],
  requiredKinds: readonly string[],
  mode: CheckMode,
): FieldErrors {
  const errors: FieldErrors = {}
  const count = new Map<string, number>()
  for (const f of files) {
    const k = f.kind === 'representative_id' ? `files.representative_id.${f.personId}` : `files.${f.kind}`
    count.set(k, (count.get(k) ?? 0) + 1)
  }
  for (const [k, n] of count) if (n > LIMITS.filesPerDocument) put(errors, k, { key: 'errors.tooManyFiles', vars: { max: LIMITS.filesPerDocument } })
  if (files.length > LIMITS.files) put(errors, 'files', { key: 'errors.tooManyFilesTotal', vars: { max: LIMITS.files } })
  if (mode === 'complete') {
    for (const kind of requiredKinds) if (!count.get(`files.${kind}`)) put(errors, `files.${kind}`, { key: 'errors.documentRequired' })
    for (const p of people) {
      if (p.id && !count.get(`files.representative_id.${p.id}`)) put(errors, `files.representative_id.${p.id}`, { key: 'errors.idDocumentRequired' })
    }
  }
  return errors
}
