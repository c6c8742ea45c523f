import { Heading, SimpleGrid, Stack } from '@chakra-ui/react'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import type { Applicant } from '../api/types'
import { saveBaseInfo } from '../api/save-base-info'
import { businessAddressOf, companyOf, companyValues, sameAddress } from '../lib/forms'
import { missingErrors } from '../lib/server-errors'
import { useCorporateTexts } from '../lib/texts'
import { todayISO, validateCompany, type AddressValues, type CheckMode, type CompanyValues } from '../lib/validation'
import { CountryField, TextAreaField, TextField, YesNoField } from './fields'
import { StepShell } from './step-shell'
import type { StepProps } from './step-props'
import { useStepForm } from './use-step-form'
import { useStepSave } from './use-step-save'

const EMPTY_APPLICANT: Applicant = { fullName: '', position: '', email: '', phone: '', businessAddress: null }

/** Text fields of the step, with their input attributes. */
type CompanyTextField = Exclude<keyof CompanyValues, 'businessAddressSame' | 'businessAddress' | 'registeredCountry'>

/**
 * Step 2: the company (the spec's step 2 form). When the company does
 * business elsewhere than at its registered address, that address is asked
 * here, beside the question; it is saved with step 1 as the API keeps it.
 */
export function CompanyStep({ app, t, lan, showMissing, onSaved, onBack, onDirtyChange }: StepProps) {
  const { t: s } = useCorporateTexts(2)
  const formRef = useRef<HTMLFormElement>(null)
  const today = todayISO()
  const missing = useMemo(() => (showMissing ? missingErrors(app.missing, 2) : {}), [showMissing, app.missing])
  const validate = useCallback((v: CompanyValues, mode: CheckMode) => validateCompany(v, mode, today), [today])
  const form = useStepForm<CompanyValues>({ initial: () => companyValues(app), validate, missing, t })
  const { shell } = useStepSave({
    form,
    formRef,
    t,
    valuesOf: companyValues,
    onSaved,
    send: async (v, run) => {
      const company = await run(() => saveBaseInfo({ step: 2, company: companyOf(v) }))
      if (!company.ok) return company
      const saved = company.app.applicant?.businessAddress ?? null
      const wanted = businessAddressOf(v, saved)
      if (sameAddress(wanted, saved)) return company
      const applicant = company.app.applicant ?? EMPTY_APPLICANT
      return run(() => saveBaseInfo({ step: 1, applicant: { ...applicant, businessAddress: wanted } }))
    },
  })
  useEffect(() => onDirtyChange(form.dirty), [form.dirty, onDirtyChange])

  const text = (name: CompanyTextField, opts: { type?: string; autoComplete?: string; inputMode?: 'tel' | 'text'; max?: string; optional?: boolean } = {}) => (
    <TextField
      name={name}
      label={s(`fields.${name}.label`)}
      helper={s(`fields.${name}.helper`) || undefined}
      required={!opts.optional}
      value={form.values[name]}
      error={form.errorOf(name)}
      onChange={(value) => form.update((v) => ({ ...v, [name]: value }), name)}
      onBlur={() => form.touch(name)}
      inputProps={{ type: opts.type, autoComplete: opts.autoComplete, inputMode: opts.inputMode, max: opts.max }}
    />
  )
  const long = (name: 'sourceOfFunds' | 'applyReason') => (
    <TextAreaField
      name={name}
      label={s(`fields.${name}.label`)}
      helper={s(`fields.${name}.helper`) || undefined}
      required
      value={form.values[name]}
      error={form.errorOf(name)}
      onChange={(value) => form.update((v) => ({ ...v, [name]: value }), name)}
      onBlur={() => form.touch(name)}
    />
  )
  const address = (name: keyof AddressValues, autoComplete: string) => {
    const path = `businessAddress.${name}`
    const setAddress = (value: string) => form.update((v) => ({ ...v, businessAddress: { ...v.businessAddress, [name]: value } }), path)
    if (name === 'country') {
      return (
        <CountryField
          name={path}
          label={s('fields.businessCountry.label')}
          placeholder={t('countryPlaceholder')}
          lan={lan}
          required
          value={form.values.businessAddress.country}
          error={form.errorOf(path)}
          onChange={setAddress}
          onBlur={() => form.touch(path)}
        />
      )
    }
    const key = { city: 'businessCity', street: 'businessStreet', zip: 'businessZip' }[name]
    return (
      <TextField
        name={path}
        label={s(`fields.${key}.label`)}
        required={name !== 'zip'}
        value={form.values.businessAddress[name]}
        error={form.errorOf(path)}
        onChange={setAddress}
        onBlur={() => form.touch(path)}
        inputProps={{ autoComplete }}
      />
    )
  }

  return (
    <StepShell
      title={s('title')}
      intro={s('intro')}
      testId="corporate-step-2"
      {...shell}
      onBack={onBack}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
        {text('entityName', { autoComplete: 'organization' })}
        {text('registrationNumber', { autoComplete: 'off' })}
        {text('registrationDate', { type: 'date', max: today })}
        {text('contactNumber', { type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
        {text('businessType')}
      </SimpleGrid>
      {long('sourceOfFunds')}
      {long('applyReason')}

      <Stack gap="4" as="section" aria-labelledby="corporate-registered-address">
        <Heading as="h3" size="sm" id="corporate-registered-address">
          {s('registeredAddress')}
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <CountryField
            name="registeredCountry"
            label={s('fields.registeredCountry.label')}
            placeholder={t('countryPlaceholder')}
            lan={lan}
            required
            value={form.values.registeredCountry}
            error={form.errorOf('registeredCountry')}
            onChange={(value) => form.update((v) => ({ ...v, registeredCountry: value }), 'registeredCountry')}
            onBlur={() => form.touch('registeredCountry')}
          />
          {text('registeredCity', { autoComplete: 'address-level2' })}
          {text('registeredStreet', { autoComplete: 'street-address' })}
          {text('registeredZip', { autoComplete: 'postal-code', optional: true })}
        </SimpleGrid>
      </Stack>

      <YesNoField
        name="businessAddressSame"
        label={s('fields.businessAddressSame.label')}
        helper={s('fields.businessAddressSame.helper')}
        required
        yes={t('yes')}
        no={t('no')}
        value={form.values.businessAddressSame}
        error={form.errorOf('businessAddressSame')}
        onChange={(value) => form.update((v) => ({ ...v, businessAddressSame: value }), 'businessAddressSame')}
      />

      {form.values.businessAddressSame === 'no' && (
        <Stack gap="4" as="section" aria-labelledby="corporate-business-address" data-testid="business-address">
          <Heading as="h3" size="sm" id="corporate-business-address">
            {s('businessAddress')}
          </Heading>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
            {address('country', 'country')}
            {address('city', 'address-level2')}
            {address('street', 'street-address')}
            {address('zip', 'postal-code')}
          </SimpleGrid>
        </Stack>
      )}
    </StepShell>
  )
}
