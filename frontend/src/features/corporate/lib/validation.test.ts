import { describe, expect, it } from 'vitest'
import {
  ageError,
  charsError,
  dateError,
  emailError,
  formatHundredths,
  ownershipTotalHundredths,
  percentError,
  phoneError,
  textError,
  validateApplicant,
  validateCompany,
  validateDocuments,
  validatePeople,
  validateQuestionnaire,
  type CompanyValues,
  type PersonValues,
  type QuestionnaireValues,
} from './validation'

const TODAY = '2026-12-07'

const company = (over: Partial<CompanyValues> = {}): CompanyValues => ({
  entityName: 'Steppe Trading LLC',
  registrationNumber: '6543210',
  registrationDate: '2015-03-02',
  contactNumber: '+976 7711 2233',
  sourceOfFunds: 'Trading revenue',
  businessType: 'Wholesale',
  applyReason: 'Treasury',
  registeredCountry: 'MN',
  registeredCity: 'Ulaanbaatar',
  registeredStreet: 'Peace Avenue 17',
  registeredZip: '',
  businessAddressSame: 'yes',
  businessAddress: { country: '', city: '', street: '', zip: '' },
  ...over,
})

const person = (over: Partial<PersonValues> = {}): PersonValues => ({
  key: 'k1',
  id: 'p1',
  name: 'Bat-Erdene Dorj',
  roles: ['director'],
  nationality: 'MN',
  dateOfBirth: '1980-05-01',
  ownershipPercent: '',
  ...over,
})

const questionnaire = (over: Partial<QuestionnaireValues> = {}): QuestionnaireValues => ({
  monthlyVolume: '100k_1m',
  purposes: ['treasury'],
  purposeDetail: '',
  pep: 'no',
  pepDetail: '',
  sanctions: 'no',
  sanctionsDetail: '',
  accuracyConfirmed: true,
  ...over,
})

describe('field checks (as internal/corporate/validate.go)', () => {
  it('takes phone numbers of 6 to 20 digits with an optional + and single spaces or dashes', () => {
    for (const ok of ['', '+976 8800 1122', '88001122', '976-8800-1122', '123456']) expect(phoneError(ok), ok).toBeUndefined()
    for (const bad of ['12345', '+976  8800', '8800-', '-8800112', '88 00 11 22 33 44 55 66 77 88 99', 'phone 8800', '++97688001122']) {
      expect(phoneError(bad), bad).toEqual({ key: 'errors.phone' })
    }
  })

  it('takes bare e-mail addresses with a dotted domain', () => {
    expect(emailError('cfo@steppe.mn')).toBeUndefined()
    expect(emailError('')).toBeUndefined()
    for (const bad of ['cfo@steppe', 'cfo steppe.mn', 'Bat <cfo@steppe.mn>', '@steppe.mn']) expect(emailError(bad), bad).toEqual({ key: 'errors.email' })
  })

  it('takes letters, digits, spaces and - / . in registration numbers and zips, within the bound', () => {
    expect(charsError('УБ-12/34.5', 64)).toBeUndefined()
    expect(charsError('12#4', 64)).toEqual({ key: 'errors.chars' })
    expect(charsError('1'.repeat(17), 16)).toEqual({ key: 'errors.tooLong', vars: { max: 16 } })
  })

  it('counts characters, not UTF-16 units, and refuses control characters', () => {
    expect(textError('😀'.repeat(100), 100)).toBeUndefined()
    expect(textError('😀'.repeat(101), 100)).toEqual({ key: 'errors.tooLong', vars: { max: 100 } })
    expect(textError('a\u202eb', 100)).toEqual({ key: 'errors.text' })
    expect(textError('line one\nline two', 500, true)).toBeUndefined()
    expect(textError('line one\nline two', 100)).toEqual({ key: 'errors.text' })
  })

  it('takes real dates from 1800 up to today', () => {
    expect(dateError('2015-03-02', TODAY)).toBeUndefined()
    expect(dateError(TODAY, TODAY)).toBeUndefined()
    expect(dateError('2026-12-08', TODAY)).toEqual({ key: 'errors.dateFuture' })
    expect(dateError('2015-02-30', TODAY)).toEqual({ key: 'errors.date' })
    expect(dateError('1799-12-31', TODAY)).toEqual({ key: 'errors.date' })
    expect(dateError('02/03/2015', TODAY)).toEqual({ key: 'errors.date' })
  })

  it('needs people to be 18 on their birthday at the latest', () => {
    expect(ageError('2008-12-07', TODAY)).toBeUndefined()
    expect(ageError('2008-12-08', TODAY)).toEqual({ key: 'errors.age', vars: { age: 18 } })
  })

  it('takes shares above 0 and at most 100 with two decimals, and adds them exactly', () => {
    for (const ok of ['25', '12.5', '0.01', '100', '33.33']) expect(percentError(ok), ok).toBeUndefined()
    for (const bad of ['0', '100.01', '12.345', '-5', '1e2', '50%']) expect(percentError(bad), bad).toEqual({ key: 'errors.percent' })
    const owners = [person({ roles: ['owner'], ownershipPercent: '33.33' }), person({ roles: ['owner'], ownershipPercent: '33.33' }), person({ roles: ['owner'], ownershipPercent: '33.34' })]
    expect(ownershipTotalHundredths(owners)).toBe(10000)
    expect(formatHundredths(11050)).toBe('110.5')
    expect(formatHundredths(10000)).toBe('100')
  })
})

describe('step checks', () => {
  it('lets a draft leave fields blank but not malformed', () => {
    expect(validateApplicant({ fullName: '', position: '', email: '', phone: '' }, 'draft')).toEqual({})
    expect(validateApplicant({ fullName: '', position: '', email: 'x', phone: '' }, 'draft')).toEqual({ email: { key: 'errors.email' } })
    expect(Object.keys(validateApplicant({ fullName: '', position: '', email: '', phone: '' }, 'complete'))).toEqual(['fullName', 'position', 'email', 'phone'])
  })

  it('asks step 2 for the business address only when it is not the registered one; the zip never', () => {
    expect(validateCompany(company(), 'complete', TODAY)).toEqual({})
    const elsewhere = validateCompany(company({ businessAddressSame: 'no' }), 'complete', TODAY)
    expect(Object.keys(elsewhere)).toEqual(['businessAddress.country', 'businessAddress.city', 'businessAddress.street'])
    expect(validateCompany(company({ businessAddressSame: '' }), 'complete', TODAY)).toEqual({ businessAddressSame: { key: 'errors.required' } })
    expect(validateCompany(company({ businessAddressSame: '' }), 'draft', TODAY)).toEqual({})
    expect(validateCompany(company({ registeredCountry: 'XX', registrationDate: '2030-01-01' }), 'draft', TODAY)).toEqual({
      registrationDate: { key: 'errors.dateFuture' },
      registeredCountry: { key: 'errors.country' },
    })
  })

  it('saves a person of step 3 only whole, and completes the step with a director and the declaration', () => {
    expect(validatePeople({ people: [], allOwnersListed: false }, 'draft', TODAY)).toEqual({})
    expect(validatePeople({ people: [person({ name: '', roles: [] })], allOwnersListed: false }, 'draft', TODAY)).toEqual({
      'people[0].name': { key: 'errors.required' },
      'people[0].roles': { key: 'errors.roles' },
    })
    expect(validatePeople({ people: [], allOwnersListed: false }, 'complete', TODAY)).toEqual({
      people: { key: 'errors.peopleRequired' },
      allOwnersListed: { key: 'errors.ownersDeclaration' },
    })
    expect(validatePeople({ people: [person({ roles: ['signatory'] })], allOwnersListed: true }, 'complete', TODAY)).toEqual({
      people: { key: 'errors.directorRequired' },
    })
    expect(validatePeople({ people: [person({ roles: ['director', 'owner'] })], allOwnersListed: true }, 'draft', TODAY)).toEqual({
      'people[0].ownershipPercent': { key: 'errors.required' },
    })
    const over = validatePeople(
      { people: [person({ roles: ['owner'], ownershipPercent: '70' }), person({ key: 'k2', roles: ['director', 'owner'], ownershipPercent: '40.5' })], allOwnersListed: true },
      'complete',
      TODAY,
    )
    expect(over).toEqual({ people: { key: 'errors.ownershipOver', vars: { total: '110.5' } } })
  })

  it('needs the questionnaire\'s details only with the answers that ask for them', () => {
    expect(validateQuestionnaire(questionnaire(), 'complete')).toEqual({})
    expect(validateQuestionnaire(questionnaire({ purposes: ['other'], pep: 'yes', sanctions: 'yes' }), 'complete')).toEqual({
      purposeDetail: { key: 'errors.required' },
      pepDetail: { key: 'errors.required' },
      sanctionsDetail: { key: 'errors.required' },
    })
    expect(validateQuestionnaire(questionnaire({ purposes: [], pep: '', accuracyConfirmed: false }), 'complete')).toEqual({
      purposes: { key: 'errors.purposesRequired' },
      pep: { key: 'errors.required' },
      accuracyConfirmed: { key: 'errors.confirmationRequired' },
    })
    expect(validateQuestionnaire(questionnaire({ purposes: [], pep: '', accuracyConfirmed: false }), 'draft')).toEqual({})
  })

  it('needs each company document and every person\'s ID, at most 10 files a document', () => {
    const required = ['certificate_of_incorporation', 'articles_of_association', 'proof_of_address']
    const files = [
      { kind: 'certificate_of_incorporation', personId: '' },
      { kind: 'articles_of_association', personId: '' },
      { kind: 'proof_of_address', personId: '' },
    ]
    expect(validateDocuments(files, [{ id: 'p1' }], required, 'complete')).toEqual({ 'files.representative_id.p1': { key: 'errors.idDocumentRequired' } })
    expect(validateDocuments([...files, { kind: 'representative_id', personId: 'p1' }], [{ id: 'p1' }], required, 'complete')).toEqual({})
    expect(validateDocuments([], [], required, 'draft')).toEqual({})
    const many = Array.from({ length: 11 }, () => ({ kind: 'other', personId: '' }))
    expect(validateDocuments(many, [], required, 'draft')).toEqual({ 'files.other': { key: 'errors.tooManyFiles', vars: { max: 10 } } })
  })
})
