import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UserInfo } from '@/lib/session'
import { renderWithApp } from '@/test/render'
import { normalizeApplication, type CorporateApplication, type Missing } from '../api/types'
import { loadCorporateTexts } from '../lib/texts-loader'
import { CorporateApplyPage } from './apply-page'
import { CompanyStep } from './company-step'
import { PeopleStep } from './people-step'
import type { StepProps } from './step-props'

const api = vi.hoisted(() => ({ getBaseInfo: vi.fn(), saveBaseInfo: vi.fn(), saveCompanyUser: vi.fn() }))
vi.mock('../api/get-base-info', async () => {
  const { queryOptions } = await import('@tanstack/react-query')
  const { corporateKeys } = await import('../api/types')
  return { corporateApplicationQuery: queryOptions({ queryKey: corporateKeys.application, queryFn: () => api.getBaseInfo() }) }
})
vi.mock('../api/save-base-info', async (orig) => ({ ...(await orig<typeof import('../api/save-base-info')>()), saveBaseInfo: api.saveBaseInfo }))
vi.mock('../api/save-company-user', async (orig) => ({ ...(await orig<typeof import('../api/save-company-user')>()), saveCompanyUser: api.saveCompanyUser }))
const notify = vi.hoisted(() => ({ notifySuccess: vi.fn(), notifyError: vi.fn(), reportReachable: vi.fn(), reportUnreachable: vi.fn() }))
vi.mock('@/lib/notify', () => notify)
vi.mock('@/lib/session', async (orig) => ({
  ...(await orig<typeof import('@/lib/session')>()),
  useUserInfo: () => ({ user: { id: 7, email: 'cfo@steppe.mn' } as UserInfo, isSignedIn: true, isLoading: false, refetch: vi.fn() }),
}))

const ALL_MISSING: Missing[] = [
  { step: 1, field: 'fullName', rule: 'required' },
  { step: 2, field: 'entityName', rule: 'required' },
  { step: 3, field: 'people', rule: 'required' },
  { step: 4, field: 'files.proof_of_address', rule: 'document_required' },
  { step: 5, field: 'pep', rule: 'required' },
]

/** An application as the server answers it. */
function application(over: Partial<Record<string, unknown>> = {}): CorporateApplication {
  return normalizeApplication({
    status: 'draft',
    accountType: 'regular',
    editable: true,
    canSubmit: false,
    steps: [1, 2, 3, 4, 5].map((step) => ({ step, name: '', saved: step <= 2, complete: false })),
    missing: ALL_MISSING,
    ...over,
  })
}

const ok = (data: unknown) => ({ code: '0', msg: 'success', data })

function stepProps(app: CorporateApplication, over: Partial<StepProps> = {}): StepProps {
  const t = (key: string) => key
  return { app, t, lan: 'en_US', showMissing: false, onSaved: vi.fn(), onDirtyChange: vi.fn(), ...over }
}

// jsdom has no CSS.escape (the dialogs' focus trap and the focus of a refused field use it); browsers have it.
if (typeof CSS === 'undefined' || typeof CSS.escape !== 'function') {
  ;(globalThis as unknown as { CSS: { escape: (s: string) => string } }).CSS = { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) }
}

const input = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!

describe('corporate verification forms', () => {
  beforeAll(() => Promise.all([loadCorporateTexts('en-US'), loadCorporateTexts('mn-MN')]))
  beforeEach(() => {
    vi.clearAllMocks()
    document.cookie = 'lan=en_US; path=/'
  })

  it('step 2: says a malformed value once the field is left, and asks for the business address only when it is elsewhere', async () => {
    renderWithApp(<CompanyStep {...stepProps(application())} />)
    await screen.findByTestId('corporate-step-2')
    fireEvent.change(input('contactNumber'), { target: { value: '12-' } })
    expect(screen.queryByText('errors.phone')).toBeNull()
    fireEvent.blur(input('contactNumber'))
    expect(await screen.findByText('errors.phone')).toBeTruthy()
    fireEvent.change(input('contactNumber'), { target: { value: '+976 7711 2233' } })
    await waitFor(() => expect(screen.queryByText('errors.phone')).toBeNull())

    expect(screen.queryByTestId('business-address')).toBeNull()
    fireEvent.click(within(screen.getByTestId('field-businessAddressSame')).getByText('no'))
    expect(await screen.findByTestId('business-address')).toBeTruthy()
    expect(input('businessAddress.city')).toBeTruthy()
  })

  it('step 2: Save and continue needs the step complete and focuses the first blank field; nothing is sent', async () => {
    renderWithApp(<CompanyStep {...stepProps(application())} />)
    await screen.findByTestId('corporate-step-2')
    fireEvent.change(input('entityName'), { target: { value: 'Steppe Trading LLC' } })
    fireEvent.click(screen.getByTestId('step-save-continue'))
    await waitFor(() => expect(document.activeElement).toBe(input('registrationNumber')))
    expect(screen.getAllByText('errors.required').length).toBeGreaterThan(5)
    expect(api.saveBaseInfo).not.toHaveBeenCalled()
  })

  it('step 2: a draft saves with blanks; the server\'s refusal shows beside the field it names, until it changes', async () => {
    api.saveBaseInfo.mockResolvedValue({ code: '16303', msg: 'registrationDate must be a date as YYYY-MM-DD, not in the future', data: null })
    const props = stepProps(application())
    renderWithApp(<CompanyStep {...props} />)
    await screen.findByTestId('corporate-step-2')
    fireEvent.change(input('entityName'), { target: { value: 'Steppe Trading LLC' } })
    fireEvent.change(input('registrationDate'), { target: { value: '2015-03-02' } })
    fireEvent.click(screen.getByTestId('step-save'))
    expect(await screen.findByText('errors.date')).toBeTruthy()
    expect(api.saveBaseInfo).toHaveBeenCalledWith({ step: 2, company: expect.objectContaining({ entityName: 'Steppe Trading LLC', registeredCountry: '', businessAddressSame: null }) })
    expect(input('registrationDate').getAttribute('aria-invalid')).toBe('true')
    expect(props.onSaved).not.toHaveBeenCalled()
    expect(notify.notifyError).not.toHaveBeenCalled()
    fireEvent.change(input('registrationDate'), { target: { value: '2015-03-03' } })
    await waitFor(() => expect(screen.queryByText('errors.date')).toBeNull())
  })

  it('step 2: a business address elsewhere is saved with step 1, as the API keeps it', async () => {
    const saved = application({ company: { entityName: 'Steppe', businessAddressSame: false }, applicant: { fullName: 'Bat', position: 'CFO', email: '', phone: '' } })
    api.saveBaseInfo.mockImplementation(async (body: { step: number }) => ok(body.step === 2 ? saved : { ...saved, applicant: { ...saved.applicant, businessAddress: { country: 'MN', city: 'Darkhan', street: 'Zone 4', zip: '' } } }))
    const props = stepProps(application())
    renderWithApp(<CompanyStep {...props} />)
    await screen.findByTestId('corporate-step-2')
    fireEvent.click(within(screen.getByTestId('field-businessAddressSame')).getByText('no'))
    await screen.findByTestId('business-address')
    fireEvent.change(input('businessAddress.country'), { target: { value: 'MN' } })
    fireEvent.change(input('businessAddress.city'), { target: { value: 'Darkhan' } })
    fireEvent.change(input('businessAddress.street'), { target: { value: 'Zone 4' } })
    fireEvent.click(screen.getByTestId('step-save'))
    await waitFor(() => expect(props.onSaved).toHaveBeenCalled())
    expect(api.saveBaseInfo).toHaveBeenCalledTimes(2)
    expect(api.saveBaseInfo.mock.calls[1][0]).toEqual({
      step: 1,
      applicant: { fullName: 'Bat', position: 'CFO', email: '', phone: '', businessAddress: { country: 'MN', city: 'Darkhan', street: 'Zone 4', zip: '' } },
    })
    expect(notify.notifySuccess).toHaveBeenCalledWith('toasts.draftSaved')
  })

  it('step 3: the owners\' shares are added up as typed, and a refusal of a person lands on their field', async () => {
    api.saveCompanyUser.mockResolvedValue({ code: '16309', msg: 'people[1].dateOfBirth: every representative and owner must be at least 18 years old', data: null })
    const app = application({
      people: {
        people: [{ id: 'p1', name: 'Bat', roles: ['director', 'owner'], nationality: 'MN', dateOfBirth: '1980-05-01', ownershipPercent: '60' }],
        allOwnersListed: false,
      },
    })
    renderWithApp(<PeopleStep {...stepProps(app)} />)
    await screen.findByTestId('corporate-step-3')
    expect(screen.getByTestId('ownership-total').textContent).toContain('60')
    fireEvent.click(screen.getByTestId('add-person'))
    await waitFor(() => expect(document.activeElement).toBe(input('people[1].name')))
    fireEvent.change(input('people[1].name'), { target: { value: 'Saraa' } })
    fireEvent.change(input('people[1].nationality'), { target: { value: 'MN' } })
    fireEvent.change(input('people[1].dateOfBirth'), { target: { value: '1990-01-01' } })
    fireEvent.click(within(screen.getAllByTestId('person-card')[1]).getByTestId('role-owner').querySelector('input')!)
    await waitFor(() => expect(input('people[1].ownershipPercent')).toBeTruthy())
    fireEvent.change(input('people[1].ownershipPercent'), { target: { value: '50' } })
    await waitFor(() => expect(screen.getByTestId('people-error').textContent).toBe('errors.ownershipOver'))
    fireEvent.change(input('people[1].ownershipPercent'), { target: { value: '40' } })
    await waitFor(() => expect(screen.queryByTestId('people-error')).toBeNull())
    fireEvent.click(screen.getByTestId('step-save'))
    expect(await screen.findByText('errors.age')).toBeTruthy()
    expect(api.saveCompanyUser).toHaveBeenCalledWith({
      people: [
        { id: 'p1', name: 'Bat', roles: ['director', 'owner'], nationality: 'MN', dateOfBirth: '1980-05-01', ownershipPercent: '60' },
        { id: '', name: 'Saraa', roles: ['owner'], nationality: 'MN', dateOfBirth: '1990-01-01', ownershipPercent: '40' },
      ],
      allOwnersListed: false,
    })
  })

  it('apply page: a visit without a step opens the first incomplete one', async () => {
    api.getBaseInfo.mockResolvedValue(application({ missing: ALL_MISSING.slice(2) }))
    const { router } = renderWithApp(<CorporateApplyPage view={undefined} />, { path: '/profile/corporate/apply' })
    await waitFor(() => expect(router.state.location.search).toEqual({ step: 3 }))
  })

  it('apply page: the review lists what is missing by step, and submit waits for a complete application', async () => {
    api.getBaseInfo.mockResolvedValue(application({ missing: [{ step: 4, field: 'files.proof_of_address', rule: 'document_required' }] }))
    renderWithApp(<CorporateApplyPage view="review" />, { path: '/profile/corporate/apply?step=review' })
    const review = await screen.findByTestId('corporate-review')
    const step4 = within(review).getByTestId('review-step-4')
    expect(within(step4).getByTestId('review-missing').textContent).toContain('Proof of address: Attach at least one file')
    expect(within(review).getByTestId('review-step-1').textContent).toContain('Complete')
    expect(within(review).getByTestId('review-submit').hasAttribute('disabled')).toBe(true)
    expect(within(review).getByTestId('review-submit-hint').textContent).toBe('Complete step 4 before submitting.')
    // The stepper names each step with its state.
    expect(screen.getByTestId('corporate-step-trigger-4').getAttribute('aria-label')).toBe('Step 4, Documents, Incomplete')
    expect(screen.getByTestId('corporate-step-trigger-review').getAttribute('aria-current')).toBe('step')
  })

  it('apply page: an application under review is shown read-only, in Mongolian too', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    api.getBaseInfo.mockResolvedValue(application({ status: 'pending', editable: false, missing: [] }))
    renderWithApp(<CorporateApplyPage view={2} />, { path: '/profile/corporate/apply?step=2' })
    expect((await screen.findByTestId('corporate-readonly')).textContent).toContain('Таны өргөдлийг хянаж байна')
    expect(screen.queryByTestId('corporate-steps')).toBeNull()
    expect(screen.queryByTestId('review-edit')).toBeNull()
    expect(screen.queryByTestId('review-submit')).toBeNull()
  })
})
