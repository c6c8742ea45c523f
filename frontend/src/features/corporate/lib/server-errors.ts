import type { Missing, StepNumber } from '../api/types'
import type { FieldErrors, FieldMessage } from './validation'

/**
 * The server's refusals mapped onto the forms' fields. A save's refusal
 * (codes 16301–16328) names the field as the API spells it at the start of
 * its message, in either language ("entityName is required",
 * "people[2].dateOfBirth: every …", "email нь имэйл …"); a refused submit
 * (16322) lists every missing field in data.missing, and so does every
 * answer's `missing`. The fields are shown with this app's own texts,
 * which name them as the form does.
 */

/** Codes whose message starts with the field. */
const FIELD_CODES: Record<string, string> = {
  '16301': 'errors.required',
  '16302': 'errors.tooLong',
  '16303': 'errors.date',
  '16304': 'errors.country',
  '16305': 'errors.phone',
  '16306': 'errors.value',
  '16307': 'errors.text',
  '16308': 'errors.email',
  '16309': 'errors.age',
  '16310': 'errors.percent',
  '16312': 'errors.roles',
  '16313': 'errors.shareNotOwner',
  '16328': 'errors.chars',
}

/** Codes about a step's list as a whole, and the field that stands for it. */
const LIST_CODES: Record<string, { field: string; key: string }> = {
  '16311': { field: 'people', key: 'errors.ownershipOver' },
  '16314': { field: 'people', key: 'errors.personUnknown' },
  '16315': { field: 'people', key: 'errors.tooManyPeople' },
  '16316': { field: 'files', key: 'errors.tooManyFilesTotal' },
  '16317': { field: 'files', key: 'errors.duplicateFile' },
  '16319': { field: 'files', key: 'errors.uploadNotFound' },
}

/** The code of a submit refused for missing fields. */
export const CODE_INCOMPLETE = '16322'
/** Codes meaning the application changed state meanwhile (under review, approved, changed): reload it. */
export const STALE_CODES = new Set(['16320', '16321', '16327'])

const FIELD_AT_START = /^([A-Za-z][A-Za-z0-9]*(?:\[\d+\])?(?:\.[A-Za-z][A-Za-z0-9]*)*)/

/**
 * The form field a field path of the API stands beside: a purpose or a
 * file of a list stands for the list (purposes[1] is purposes, files[2].kind
 * is files); the rest are the forms' own names.
 */
export function formField(apiField: string): string {
  if (/^purposes\[\d+\]$/.test(apiField)) return 'purposes'
  if (/^files\[\d+\]/.test(apiField)) return 'files'
  if (apiField === 'applicant' || apiField === 'company' || apiField === 'questionnaire') return ''
  return apiField
}

/** A refusal mapped onto a field, or nothing when it is about no field (then it is a toast). */
export function serverFieldError(code: string, msg: string): { field: string; message: FieldMessage } | undefined {
  const list = LIST_CODES[code]
  if (list) {
    const total = /([0-9]+(?:\.[0-9]+)?)%/.exec(msg)?.[1]
    const max = /([0-9]+)/.exec(msg)?.[1]
    return { field: list.field, message: { key: list.key, vars: { total: total ?? '', max: max ?? '' } } }
  }
  const key = FIELD_CODES[code]
  if (!key) return undefined
  const match = FIELD_AT_START.exec(msg.trim())
  if (!match) return undefined
  const field = formField(match[1])
  if (!field) return undefined
  const vars: Record<string, string | number> = {}
  if (code === '16302') vars.max = /:\s*\D*([0-9]+)/.exec(msg)?.[1] ?? ''
  if (code === '16309') vars.age = 18
  return { field, message: { key, vars } }
}

/** The text key of a missing field's rule. */
export function missingMessage(m: Pick<Missing, 'rule' | 'field'>): FieldMessage {
  switch (m.rule) {
    case 'director_required':
      return { key: 'errors.directorRequired' }
    case 'owners_declaration_required':
      return { key: 'errors.ownersDeclaration' }
    case 'document_required':
      return { key: 'errors.documentRequired' }
    case 'id_document_required':
      return { key: 'errors.idDocumentRequired' }
    case 'confirmation_required':
      return { key: 'errors.confirmationRequired' }
    default:
      if (m.field === 'people') return { key: 'errors.peopleRequired' }
      if (m.field === 'purposes') return { key: 'errors.purposesRequired' }
      return { key: 'errors.required' }
  }
}

/**
 * The step whose form shows a missing field. The business address belongs
 * to step 1 in the API but is asked in step 2, beside the question whether
 * it is the registered address, so it is shown (and counted) there.
 */
export function displayStep(m: Pick<Missing, 'step' | 'field'>): StepNumber {
  return m.field.startsWith('businessAddress.') ? 2 : m.step
}

/** The missing fields a step's form shows, by field. */
export function missingErrors(missing: Missing[], step: StepNumber): FieldErrors {
  const errors: FieldErrors = {}
  for (const m of missing) {
    if (displayStep(m) !== step) continue
    if (!errors[m.field]) errors[m.field] = missingMessage(m)
  }
  return errors
}

/** The missing data of a refused submit (16322). */
export function missingOf(data: unknown): Missing[] {
  const list = (data as { missing?: unknown } | null)?.missing
  if (!Array.isArray(list)) return []
  return list
    .map((m) => m as { step?: unknown; field?: unknown; rule?: unknown })
    .filter((m) => typeof m.field === 'string')
    .map((m) => ({ step: Math.min(5, Math.max(1, Number(m.step) || 1)) as StepNumber, field: String(m.field), rule: String(m.rule ?? '') }))
}
