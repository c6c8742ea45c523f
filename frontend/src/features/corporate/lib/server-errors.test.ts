import { describe, expect, it } from 'vitest'
import { displayStep, formField, missingErrors, missingMessage, missingOf, serverFieldError } from './server-errors'

describe('server refusals mapped onto fields', () => {
  it('reads the field from the start of the message in either language', () => {
    expect(serverFieldError('16301', 'entityName is required')).toEqual({ field: 'entityName', message: { key: 'errors.required', vars: {} } })
    expect(serverFieldError('16308', 'email нь имэйл хаяг байх ёстой')).toEqual({ field: 'email', message: { key: 'errors.email', vars: {} } })
    expect(serverFieldError('16303', 'registrationDate must be a date as YYYY-MM-DD, not in the future')?.field).toBe('registrationDate')
    expect(serverFieldError('16304', 'businessAddress.country must be a two-letter ISO 3166 country code, such as MN')?.field).toBe(
      'businessAddress.country',
    )
    expect(serverFieldError('16309', 'people[2].dateOfBirth: every representative and owner must be at least 18 years old')).toEqual({
      field: 'people[2].dateOfBirth',
      message: { key: 'errors.age', vars: { age: 18 } },
    })
    expect(serverFieldError('16302', 'sourceOfFunds: at most 500 characters')).toEqual({
      field: 'sourceOfFunds',
      message: { key: 'errors.tooLong', vars: { max: '500' } },
    })
    expect(serverFieldError('16328', 'registeredZip зөвхөн үсэг, цифр, зай болон - / . тэмдэгт агуулна')?.field).toBe('registeredZip')
  })

  it('puts a refusal of a list item on the list', () => {
    expect(serverFieldError('16306', 'purposes[1]: crypto is not an accepted value')?.field).toBe('purposes')
    expect(formField('files[3].uploadId')).toBe('files')
    expect(serverFieldError('16311', "The owners' shares add up to 110.5%, more than 100%")).toEqual({
      field: 'people',
      message: { key: 'errors.ownershipOver', vars: { total: '110.5', max: '110' } },
    })
    expect(serverFieldError('16319', 'Upload abc is not one of your files')?.field).toBe('files')
  })

  it('leaves refusals about no field to the toast', () => {
    expect(serverFieldError('16320', 'The application is under review and cannot be changed')).toBeUndefined()
    expect(serverFieldError('410', 'Parameter error')).toBeUndefined()
    expect(serverFieldError('16301', 'company is required')).toBeUndefined()
    expect(serverFieldError('16301', '')).toBeUndefined()
  })

  it('turns what a submit still needs into messages beside the step\'s fields', () => {
    const missing = [
      { step: 1 as const, field: 'phone', rule: 'required' },
      { step: 1 as const, field: 'businessAddress.street', rule: 'required' },
      { step: 3 as const, field: 'people', rule: 'director_required' },
      { step: 3 as const, field: 'allOwnersListed', rule: 'owners_declaration_required' },
      { step: 4 as const, field: 'files.representative_id.p2', rule: 'id_document_required' },
    ]
    expect(missingErrors(missing, 1)).toEqual({ phone: { key: 'errors.required' } })
    expect(missingErrors(missing, 2)).toEqual({ 'businessAddress.street': { key: 'errors.required' } })
    expect(missingErrors(missing, 3)).toEqual({ people: { key: 'errors.directorRequired' }, allOwnersListed: { key: 'errors.ownersDeclaration' } })
    expect(missingErrors(missing, 4)).toEqual({ 'files.representative_id.p2': { key: 'errors.idDocumentRequired' } })
    expect(displayStep(missing[1])).toBe(2)
    expect(missingMessage({ field: 'people', rule: 'required' })).toEqual({ key: 'errors.peopleRequired' })
    expect(missingMessage({ field: 'accuracyConfirmed', rule: 'confirmation_required' })).toEqual({ key: 'errors.confirmationRequired' })
  })

  it('reads data.missing of a refused submit', () => {
    expect(missingOf({ missing: [{ step: 3, field: 'people', rule: 'required' }, { field: 7 }] })).toEqual([{ step: 3, field: 'people', rule: 'required' }])
    expect(missingOf(null)).toEqual([])
  })
})
