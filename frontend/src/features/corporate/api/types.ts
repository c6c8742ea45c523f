/**
 * The corporate verification application as the API answers it
 * (/fe-ex-api/company/*, internal/corporate): five steps saved one by one
 * as drafts, their state, and what a submit still needs.
 */

/** Where an application stands; `none` until the first save. */
export type CorporateStatus = 'none' | 'draft' | 'pending' | 'approved' | 'rejected'

/** Regular or enterprise (an approved application makes it enterprise). */
export type AccountType = 'regular' | 'enterprise'

/** The five steps, by number. */
export type StepNumber = 1 | 2 | 3 | 4 | 5

/** Every step in order. */
export const STEP_NUMBERS: readonly StepNumber[] = [1, 2, 3, 4, 5]

/** A postal address. */
export interface Address {
  /** ISO 3166-1 alpha-2. */
  country: string
  city: string
  street: string
  zip: string
}

/** Step 1: who fills in the application, and the business address when it is not the registered one. */
export interface Applicant {
  fullName: string
  position: string
  email: string
  phone: string
  businessAddress: Address | null
}

/** Step 2: the spec's step 2 form. */
export interface Company {
  entityName: string
  registrationNumber: string
  /** YYYY-MM-DD. */
  registrationDate: string
  contactNumber: string
  sourceOfFunds: string
  businessType: string
  applyReason: string
  registeredCountry: string
  registeredCity: string
  registeredStreet: string
  registeredZip: string
  /** null: not answered yet. */
  businessAddressSame: boolean | null
}

/** A person's roles in the company. */
export type Role = 'director' | 'signatory' | 'owner'

/** Every role, in the order the server keeps them. */
export const ROLES: readonly Role[] = ['director', 'signatory', 'owner']

/** A representative or beneficial owner (step 3). */
export interface Person {
  /** Given by the server (p1, p2 ...); '' for a person not saved yet. */
  id: string
  name: string
  roles: Role[]
  nationality: string
  dateOfBirth: string
  /** Owners only: "25", "12.5". */
  ownershipPercent: string
}

/** Step 3. */
export interface People {
  people: Person[]
  allOwnersListed: boolean
}

/** The kinds of documents step 4 takes. */
export type DocumentKind =
  | 'certificate_of_incorporation'
  | 'articles_of_association'
  | 'proof_of_address'
  | 'representative_id'
  | 'other'

/** The company's documents, in the order the page lists them (representative IDs go per person). */
export const COMPANY_DOCUMENT_KINDS: readonly DocumentKind[] = [
  'certificate_of_incorporation',
  'articles_of_association',
  'proof_of_address',
  'other',
]

/** The company's documents a submit needs at least one file of. */
export const REQUIRED_DOCUMENT_KINDS: readonly DocumentKind[] = [
  'certificate_of_incorporation',
  'articles_of_association',
  'proof_of_address',
]

/** One attached file. */
export interface AttachedFile {
  kind: DocumentKind
  uploadId: string
  /** representative_id only: the step 3 person it identifies. */
  personId: string
}

/** Step 4. */
export interface Documents {
  files: AttachedFile[]
}

/** Expected monthly volumes (USD) of step 5. */
export const MONTHLY_VOLUMES = ['under_10k', '10k_100k', '100k_1m', '1m_10m', 'over_10m'] as const
export type MonthlyVolume = (typeof MONTHLY_VOLUMES)[number]

/** What the account is for (step 5). */
export const PURPOSES = ['trading', 'investment', 'treasury', 'payments', 'otc', 'other'] as const
export type Purpose = (typeof PURPOSES)[number]

/** Step 5. */
export interface Questionnaire {
  monthlyVolume: string
  purposes: string[]
  purposeDetail: string
  pep: boolean | null
  pepDetail: string
  sanctions: boolean | null
  sanctionsDetail: string
  accuracyConfirmed: boolean
}

/** How far a step is. */
export interface StepState {
  step: StepNumber
  name: string
  saved: boolean
  complete: boolean
}

/** One thing a submit still needs (field as the API names it). */
export interface Missing {
  step: StepNumber
  field: string
  rule: string
}

/** The whole application as its owner sees it (get_base_info and every save). */
export interface CorporateApplication {
  status: CorporateStatus
  accountType: AccountType
  editable: boolean
  canSubmit: boolean
  canChangeToRegular: boolean
  reasons: string[]
  submittedAt: number
  reviewedAt: number
  updatedAt: number
  steps: StepState[]
  applicant: Applicant | null
  company: Company | null
  people: People | null
  documents: Documents | null
  questionnaire: Questionnaire | null
  missing: Missing[]
}

/** The state part (status, change_to_regular). */
export type CorporateStatusInfo = Pick<
  CorporateApplication,
  'status' | 'accountType' | 'editable' | 'canSubmit' | 'canChangeToRegular' | 'reasons' | 'submittedAt' | 'reviewedAt' | 'updatedAt' | 'steps'
>

const STATUSES: readonly CorporateStatus[] = ['none', 'draft', 'pending', 'approved', 'rejected']

const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v))
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null)
const rec = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const stepOf = (v: unknown): StepNumber => {
  const n = Number(v)
  return n >= 1 && n <= 5 && Number.isInteger(n) ? (n as StepNumber) : 1
}

function address(raw: unknown): Address | null {
  const a = rec(raw)
  if (!a) return null
  return { country: str(a.country), city: str(a.city), street: str(a.street), zip: str(a.zip) }
}

/** The state fields of an answer, with every field present. */
export function normalizeStatus(raw: unknown): CorporateStatusInfo {
  const d = rec(raw) ?? {}
  const status = STATUSES.includes(d.status as CorporateStatus) ? (d.status as CorporateStatus) : 'none'
  return {
    status,
    accountType: d.accountType === 'enterprise' ? 'enterprise' : 'regular',
    editable: d.editable === true,
    canSubmit: d.canSubmit === true,
    canChangeToRegular: d.canChangeToRegular === true,
    reasons: list(d.reasons).map(str).filter((r) => r !== ''),
    submittedAt: Number(d.submittedAt) || 0,
    reviewedAt: Number(d.reviewedAt) || 0,
    updatedAt: Number(d.updatedAt) || 0,
    steps: list(d.steps).map((s) => {
      const x = rec(s) ?? {}
      return { step: stepOf(x.step), name: str(x.name), saved: x.saved === true, complete: x.complete === true }
    }),
  }
}

/** An application from an answer, with every field present (missing objects null, missing lists empty). */
export function normalizeApplication(raw: unknown): CorporateApplication {
  const d = rec(raw) ?? {}
  const ap = rec(d.applicant)
  const co = rec(d.company)
  const pe = rec(d.people)
  const doc = rec(d.documents)
  const q = rec(d.questionnaire)
  return {
    ...normalizeStatus(d),
    applicant: ap && {
      fullName: str(ap.fullName),
      position: str(ap.position),
      email: str(ap.email),
      phone: str(ap.phone),
      businessAddress: address(ap.businessAddress),
    },
    company: co && {
      entityName: str(co.entityName),
      registrationNumber: str(co.registrationNumber),
      registrationDate: str(co.registrationDate),
      contactNumber: str(co.contactNumber),
      sourceOfFunds: str(co.sourceOfFunds),
      businessType: str(co.businessType),
      applyReason: str(co.applyReason),
      registeredCountry: str(co.registeredCountry),
      registeredCity: str(co.registeredCity),
      registeredStreet: str(co.registeredStreet),
      registeredZip: str(co.registeredZip),
      businessAddressSame: bool(co.businessAddressSame),
    },
    people: pe && {
      people: list(pe.people).map((p) => {
        const x = rec(p) ?? {}
        return {
          id: str(x.id),
          name: str(x.name),
          roles: list(x.roles).filter((r): r is Role => ROLES.includes(r as Role)),
          nationality: str(x.nationality),
          dateOfBirth: str(x.dateOfBirth),
          ownershipPercent: str(x.ownershipPercent),
        }
      }),
      allOwnersListed: pe.allOwnersListed === true,
    },
    documents: doc && {
      files: list(doc.files).map((f) => {
        const x = rec(f) ?? {}
        return { kind: str(x.kind) as DocumentKind, uploadId: str(x.uploadId), personId: str(x.personId) }
      }),
    },
    questionnaire: q && {
      monthlyVolume: str(q.monthlyVolume),
      purposes: list(q.purposes).map(str),
      purposeDetail: str(q.purposeDetail),
      pep: bool(q.pep),
      pepDetail: str(q.pepDetail),
      sanctions: bool(q.sanctions),
      sanctionsDetail: str(q.sanctionsDetail),
      accuracyConfirmed: q.accuracyConfirmed === true,
    },
    missing: list(d.missing).map((m) => {
      const x = rec(m) ?? {}
      return { step: stepOf(x.step), field: str(x.field), rule: str(x.rule) }
    }),
  }
}

/** Query keys of corporate verification. */
export const corporateKeys = {
  all: ['corporate'] as const,
  application: ['corporate', 'application'] as const,
}
