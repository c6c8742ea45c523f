import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import type { TranslateFn } from '@/lib/i18n'

/** The Google authenticator code input of the settings forms. */
export function GoogleCodeField({
  t,
  value,
  onChange,
  error,
}: {
  t: TranslateFn
  value: string
  onChange: (value: string) => void
  error?: string
}) {
  return (
    <FormField label={t('googleCodeLabel')} error={error}>
      <CodeInput name="googleCode" placeholder={t('codePlaceholder')} value={value} onValueChange={onChange} />
    </FormField>
  )
}
