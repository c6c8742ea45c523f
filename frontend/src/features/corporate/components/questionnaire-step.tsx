import { Box, Checkbox, SimpleGrid, Text } from '@chakra-ui/react'
import { useEffect, useMemo, useRef } from 'react'
import { saveBaseInfo } from '../api/save-base-info'
import { MONTHLY_VOLUMES, PURPOSES } from '../api/types'
import { questionnaireOf, questionnaireValues } from '../lib/forms'
import { missingErrors } from '../lib/server-errors'
import { useCorporateTexts } from '../lib/texts'
import { validateQuestionnaire, type QuestionnaireValues } from '../lib/validation'
import { GroupField, SelectField, TextAreaField, YesNoField } from './fields'
import { StepShell } from './step-shell'
import type { StepProps } from './step-props'
import { useStepForm } from './use-step-form'
import { useStepSave } from './use-step-save'

/**
 * Step 5: the questionnaire: expected monthly volume, what the account is
 * for, the politically exposed person and sanctions declarations, and the
 * applicant's confirmation that the application is true and complete.
 */
export function QuestionnaireStep({ app, t, showMissing, onSaved, onBack, onDirtyChange }: StepProps) {
  const { t: s } = useCorporateTexts(5)
  const formRef = useRef<HTMLFormElement>(null)
  const missing = useMemo(() => (showMissing ? missingErrors(app.missing, 5) : {}), [showMissing, app.missing])
  const form = useStepForm<QuestionnaireValues>({ initial: () => questionnaireValues(app), validate: validateQuestionnaire, missing, t })
  const { shell } = useStepSave({
    form,
    formRef,
    t,
    valuesOf: questionnaireValues,
    onSaved,
    send: (v, run) => run(() => saveBaseInfo({ step: 5, questionnaire: questionnaireOf(v) })),
  })
  useEffect(() => onDirtyChange(form.dirty), [form.dirty, onDirtyChange])
  const v = form.values

  const detail = (name: 'purposeDetail' | 'pepDetail' | 'sanctionsDetail') => (
    <TextAreaField
      name={name}
      label={s(`fields.${name}.label`)}
      helper={s(`fields.${name}.helper`) || undefined}
      required
      value={v[name]}
      error={form.errorOf(name)}
      onChange={(value) => form.update((x) => ({ ...x, [name]: value }), name)}
      onBlur={() => form.touch(name)}
    />
  )
  const purposesError = form.errorOf('purposes')

  return (
    <StepShell
      title={s('title')}
      intro={s('intro')}
      testId="corporate-step-5"
      {...shell}
      onBack={onBack}
      continueLabel={t('actions.saveReview')}
    >
      <Box maxW={{ md: '50%' }}>
        <SelectField
          name="monthlyVolume"
          label={s('fields.monthlyVolume.label')}
          helper={s('fields.monthlyVolume.helper')}
          placeholder={s('fields.monthlyVolume.placeholder')}
          required
          value={v.monthlyVolume}
          error={form.errorOf('monthlyVolume')}
          options={MONTHLY_VOLUMES.map((value) => ({ value, label: s(`volumes.${value}`) }))}
          onChange={(value) => form.update((x) => ({ ...x, monthlyVolume: value }), 'monthlyVolume')}
          onBlur={() => form.touch('monthlyVolume')}
        />
      </Box>

      <Box data-field="purposes" tabIndex={-1} outline="none">
        <GroupField label={s('fields.purposes.label')} helper={s('fields.purposes.helper')} error={purposesError} required testId="field-purposes">
          <SimpleGrid columns={{ base: 1, sm: 2, md: 3 }} gap="3">
            {PURPOSES.map((p) => (
              <Checkbox.Root
                key={p}
                colorPalette="brand"
                checked={v.purposes.includes(p)}
                invalid={!!purposesError}
                onCheckedChange={(d) =>
                  form.update(
                    (x) => ({ ...x, purposes: PURPOSES.filter((q) => (q === p ? d.checked === true : x.purposes.includes(q))) }),
                    'purposes',
                  )
                }
                data-testid={`purpose-${p}`}
              >
                <Checkbox.HiddenInput name="purposes" value={p} />
                <Checkbox.Control />
                <Checkbox.Label>{s(`purposes.${p}`)}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </SimpleGrid>
        </GroupField>
      </Box>
      {v.purposes.includes('other') && detail('purposeDetail')}

      <YesNoField
        name="pep"
        label={s('fields.pep.label')}
        helper={s('fields.pep.helper')}
        required
        yes={t('yes')}
        no={t('no')}
        value={v.pep}
        error={form.errorOf('pep')}
        onChange={(value) => form.update((x) => ({ ...x, pep: value }), 'pep')}
      />
      {v.pep === 'yes' && detail('pepDetail')}

      <YesNoField
        name="sanctions"
        label={s('fields.sanctions.label')}
        helper={s('fields.sanctions.helper')}
        required
        yes={t('yes')}
        no={t('no')}
        value={v.sanctions}
        error={form.errorOf('sanctions')}
        onChange={(value) => form.update((x) => ({ ...x, sanctions: value }), 'sanctions')}
      />
      {v.sanctions === 'yes' && detail('sanctionsDetail')}

      <Box data-field="accuracyConfirmed" tabIndex={-1} outline="none" pt="2" borderTopWidth="1px">
        <Checkbox.Root
          colorPalette="brand"
          checked={v.accuracyConfirmed}
          invalid={!!form.errorOf('accuracyConfirmed')}
          onCheckedChange={(d) => form.update((x) => ({ ...x, accuracyConfirmed: d.checked === true }), 'accuracyConfirmed')}
          alignItems="flex-start"
          mt="3"
          data-testid="accuracy-confirmed"
        >
          <Checkbox.HiddenInput name="accuracyConfirmed" />
          <Checkbox.Control mt="0.5" />
          <Checkbox.Label fontWeight="normal">{s('fields.accuracyConfirmed.label')}</Checkbox.Label>
        </Checkbox.Root>
        {form.errorOf('accuracyConfirmed') && (
          <Text textStyle="xs" color="fg.error" mt="1.5" role="alert">
            {form.errorOf('accuracyConfirmed')}
          </Text>
        )}
      </Box>
    </StepShell>
  )
}
