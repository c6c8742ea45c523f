import { SimpleGrid } from '@chakra-ui/react'
import { useEffect, useMemo, useRef } from 'react'
import { saveBaseInfo } from '../api/save-base-info'
import { applicantOf, applicantValues } from '../lib/forms'
import { missingErrors } from '../lib/server-errors'
import { useCorporateTexts } from '../lib/texts'
import { validateApplicant, type ApplicantValues } from '../lib/validation'
import { TextField } from './fields'
import { StepShell } from './step-shell'
import type { StepProps } from './step-props'
import { useStepForm } from './use-step-form'
import { useStepSave } from './use-step-save'

/** Step 1: the person filling in the application for the company. */
export function ApplicantStep({ app, t, showMissing, onSaved, onBack, onDirtyChange }: StepProps) {
  const { t: s } = useCorporateTexts(1)
  const formRef = useRef<HTMLFormElement>(null)
  const missing = useMemo(() => (showMissing ? missingErrors(app.missing, 1) : {}), [showMissing, app.missing])
  const form = useStepForm<ApplicantValues>({ initial: () => applicantValues(app), validate: validateApplicant, missing, t })
  const { shell } = useStepSave({
    form,
    formRef,
    t,
    valuesOf: applicantValues,
    onSaved,
    // The business address is asked in step 2: it is sent back as saved.
    send: (v, run) => run(() => saveBaseInfo({ step: 1, applicant: applicantOf(v, app.applicant?.businessAddress ?? null) })),
  })
  useEffect(() => onDirtyChange(form.dirty), [form.dirty, onDirtyChange])

  const field = (name: keyof ApplicantValues, inputProps: Parameters<typeof TextField>[0]['inputProps'] = {}) => (
    <TextField
      name={name}
      label={s(`fields.${name}.label`)}
      helper={s(`fields.${name}.helper`) || undefined}
      required
      value={form.values[name]}
      error={form.errorOf(name)}
      onChange={(value) => form.update((v) => ({ ...v, [name]: value }), name)}
      onBlur={() => form.touch(name)}
      inputProps={inputProps}
    />
  )

  return (
    <StepShell
      title={s('title')}
      intro={s('intro')}
      testId="corporate-step-1"
      {...shell}
      onBack={onBack}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
        {field('fullName', { autoComplete: 'name' })}
        {field('position', { autoComplete: 'organization-title' })}
        {field('email', { type: 'email', autoComplete: 'email', inputMode: 'email' })}
        {field('phone', { type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
      </SimpleGrid>
    </StepShell>
  )
}
