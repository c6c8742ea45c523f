import type { Address, Applicant, CorporateApplication, Company, People, Questionnaire } from '../api/types'
import type { AddressValues, ApplicantValues, CompanyValues, PeopleValues, PersonValues, QuestionnaireValues, YesNo } from './validation'

/**
 * The forms' values from the saved application, and what a save sends
 * from them. Text is trimmed when sent (the server trims too) and country
 * codes are upper-case.
 */

const yesNo = (v: boolean | null | undefined): YesNo => (v === true ? 'yes' : v === false ? 'no' : '')
const fromYesNo = (v: YesNo): boolean | null => (v === 'yes' ? true : v === 'no' ? false : null)
const trim = (v: string) => v.trim()

export function applicantValues(app: Pick<CorporateApplication, 'applicant'>): ApplicantValues {
  const a = app.applicant
  return { fullName: a?.fullName ?? '', position: a?.position ?? '', email: a?.email ?? '', phone: a?.phone ?? '' }
}

/** Step 1 as sent: the form's fields, and the business address as saved (step 2 asks for it). */
export function applicantOf(v: ApplicantValues, businessAddress: Address | null): Applicant {
  return { fullName: trim(v.fullName), position: trim(v.position), email: trim(v.email), phone: trim(v.phone), businessAddress }
}

const emptyAddress = (): AddressValues => ({ country: '', city: '', street: '', zip: '' })

export function companyValues(app: Pick<CorporateApplication, 'company' | 'applicant'>): CompanyValues {
  const c = app.company
  const ba = app.applicant?.businessAddress
  return {
    entityName: c?.entityName ?? '',
    registrationNumber: c?.registrationNumber ?? '',
    registrationDate: c?.registrationDate ?? '',
    contactNumber: c?.contactNumber ?? '',
    sourceOfFunds: c?.sourceOfFunds ?? '',
    businessType: c?.businessType ?? '',
    applyReason: c?.applyReason ?? '',
    registeredCountry: c?.registeredCountry ?? '',
    registeredCity: c?.registeredCity ?? '',
    registeredStreet: c?.registeredStreet ?? '',
    registeredZip: c?.registeredZip ?? '',
    businessAddressSame: yesNo(c?.businessAddressSame),
    businessAddress: ba ? { country: ba.country, city: ba.city, street: ba.street, zip: ba.zip } : emptyAddress(),
  }
}

export function companyOf(v: CompanyValues): Company {
  return {
    entityName: trim(v.entityName),
    registrationNumber: trim(v.registrationNumber),
    registrationDate: trim(v.registrationDate),
    contactNumber: trim(v.contactNumber),
    sourceOfFunds: trim(v.sourceOfFunds),
    businessType: trim(v.businessType),
    applyReason: trim(v.applyReason),
    registeredCountry: trim(v.registeredCountry).toUpperCase(),
    registeredCity: trim(v.registeredCity),
    registeredStreet: trim(v.registeredStreet),
    registeredZip: trim(v.registeredZip),
    businessAddressSame: fromYesNo(v.businessAddressSame),
  }
}

/**
 * The business address step 1 keeps after step 2 is saved: the form's when
 * the company does business elsewhere, none when at its registered address
 * (a stale one is cleared), unchanged while the question is unanswered.
 */
export function businessAddressOf(v: CompanyValues, saved: Address | null): Address | null {
  if (v.businessAddressSame === 'yes') return null
  if (v.businessAddressSame === '') return saved
  const a = v.businessAddress
  const address = { country: trim(a.country).toUpperCase(), city: trim(a.city), street: trim(a.street), zip: trim(a.zip) }
  return address.country || address.city || address.street || address.zip ? address : null
}

/** True when two addresses hold the same values (both none counts). */
export function sameAddress(a: Address | null, b: Address | null): boolean {
  if (!a || !b) return a === b
  return a.country === b.country && a.city === b.city && a.street === b.street && a.zip === b.zip
}

let nextKey = 0
/** A new key for a person row of the form. */
export function personKey(): string {
  nextKey++
  return `person-${nextKey}`
}

/** An empty person row. */
export function emptyPerson(): PersonValues {
  return { key: personKey(), id: '', name: '', roles: [], nationality: '', dateOfBirth: '', ownershipPercent: '' }
}

export function peopleValues(app: Pick<CorporateApplication, 'people'>): PeopleValues {
  return {
    people: (app.people?.people ?? []).map((p) => ({ ...p, key: p.id || personKey(), roles: [...p.roles] })),
    allOwnersListed: app.people?.allOwnersListed ?? false,
  }
}

export function peopleOf(v: PeopleValues): People {
  return {
    people: v.people.map((p) => ({
      id: p.id,
      name: trim(p.name),
      roles: p.roles,
      nationality: trim(p.nationality).toUpperCase(),
      dateOfBirth: trim(p.dateOfBirth),
      ownershipPercent: p.roles.includes('owner') ? trim(p.ownershipPercent) : '',
    })),
    allOwnersListed: v.allOwnersListed,
  }
}

export function questionnaireValues(app: Pick<CorporateApplication, 'questionnaire'>): QuestionnaireValues {
  const q = app.questionnaire
  return {
    monthlyVolume: q?.monthlyVolume ?? '',
    purposes: [...(q?.purposes ?? [])],
    purposeDetail: q?.purposeDetail ?? '',
    pep: yesNo(q?.pep),
    pepDetail: q?.pepDetail ?? '',
    sanctions: yesNo(q?.sanctions),
    sanctionsDetail: q?.sanctionsDetail ?? '',
    accuracyConfirmed: q?.accuracyConfirmed ?? false,
  }
}

/** Step 5 as sent; a detail goes only with the answer that asks for it. */
export function questionnaireOf(v: QuestionnaireValues): Questionnaire {
  return {
    monthlyVolume: v.monthlyVolume,
    purposes: v.purposes,
    purposeDetail: v.purposes.includes('other') ? trim(v.purposeDetail) : '',
    pep: fromYesNo(v.pep),
    pepDetail: v.pep === 'yes' ? trim(v.pepDetail) : '',
    sanctions: fromYesNo(v.sanctions),
    sanctionsDetail: v.sanctions === 'yes' ? trim(v.sanctionsDetail) : '',
    accuracyConfirmed: v.accuracyConfirmed,
  }
}
