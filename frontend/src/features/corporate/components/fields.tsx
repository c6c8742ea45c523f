import { Input, NativeSelect, SegmentGroup, Stack, Text, Textarea, type InputProps } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useId, useMemo, type ReactNode } from 'react'
import { FormField } from '@/components/form/form-field'
import { countryOptions } from '../lib/countries'
import { useCountryName } from './use-country-name'

/**
 * The controls of the steps' forms. Every control carries its field's API
 * path as its name (entityName, people[0].name), so a problem the server
 * names can be found and focused; labels and messages are linked to it by
 * Chakra's Field (or by aria attributes for a group of choices).
 */

/** Props common to the fields. */
interface BaseFieldProps {
  name: string
  label: string
  error?: string
  helper?: ReactNode
  required?: boolean
}

/** A one-line text field. */
export function TextField({
  name,
  label,
  error,
  helper,
  required,
  value,
  onChange,
  onBlur,
  inputProps,
}: BaseFieldProps & {
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  inputProps?: Omit<InputProps, 'name' | 'value' | 'onChange' | 'onBlur'>
}) {
  return (
    <FormField label={label} error={error} helper={helper} required={required}>
      <Input name={name} value={value} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} data-testid={`field-${name}`} {...inputProps} />
    </FormField>
  )
}

/** A text of several lines. */
export function TextAreaField({
  name,
  label,
  error,
  helper,
  required,
  value,
  onChange,
  onBlur,
  rows = 3,
}: BaseFieldProps & { value: string; onChange: (value: string) => void; onBlur?: () => void; rows?: number }) {
  return (
    <FormField label={label} error={error} helper={helper} required={required}>
      <Textarea
        recipe={textareaRecipe}
        name={name}
        value={value}
        rows={rows}
        autoresize
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        data-testid={`field-${name}`}
      />
    </FormField>
  )
}

/** A country picker: ISO codes named in the reader's language. */
export function CountryField({
  lan,
  ...props
}: BaseFieldProps & { value: string; onChange: (value: string) => void; onBlur?: () => void; lan: string; placeholder: string }) {
  const nameOf = useCountryName()
  const options = useMemo(() => countryOptions(lan, nameOf).map((o) => ({ value: o.code, label: o.name })), [lan, nameOf])
  return <SelectField {...props} options={options} />
}

/** A picker of a few fixed values. */
export function SelectField({
  name,
  label,
  error,
  helper,
  required,
  value,
  onChange,
  onBlur,
  options,
  placeholder,
}: BaseFieldProps & {
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  options: { value: string; label: string }[]
  placeholder: string
}) {
  return (
    <FormField label={label} error={error} helper={helper} required={required}>
      <NativeSelect.Root>
        <NativeSelect.Field name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)} onBlur={onBlur} data-testid={`field-${name}`}>
          <option value="">{placeholder}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FormField>
  )
}

/**
 * A labelled group of controls that is not one input (a yes/no question,
 * a set of checkboxes): the group is named by its label and described by
 * its message.
 */
export function GroupField({
  label,
  error,
  helper,
  required,
  children,
  testId,
  labelId: givenLabelId,
}: Omit<BaseFieldProps, 'name'> & {
  children: ReactNode
  testId?: string
  /** The label's id, when the control inside names itself by it (then the wrapper is no group of its own). */
  labelId?: string
}) {
  const id = useId()
  const labelId = givenLabelId ?? `${id}-label`
  const messageId = `${id}-message`
  return (
    <Stack
      gap="1.5"
      role={givenLabelId ? undefined : 'group'}
      aria-labelledby={givenLabelId ? undefined : labelId}
      aria-describedby={error || helper ? messageId : undefined}
      data-invalid={error ? '' : undefined}
      data-testid={testId}
    >
      <Text id={labelId} textStyle="sm" fontWeight="medium">
        {label}
        {required && (
          <Text as="span" color="fg.error" aria-hidden="true">
            {' *'}
          </Text>
        )}
      </Text>
      {children}
      {error ? (
        <Text id={messageId} textStyle="xs" color="fg.error" role="alert">
          {error}
        </Text>
      ) : helper ? (
        <Text id={messageId} textStyle="xs" color="fg.muted">
          {helper}
        </Text>
      ) : null}
    </Stack>
  )
}

/** A yes/no question as a segmented choice. */
export function YesNoField({
  name,
  label,
  error,
  helper,
  required,
  value,
  onChange,
  yes,
  no,
}: BaseFieldProps & { value: '' | 'yes' | 'no'; onChange: (value: 'yes' | 'no') => void; yes: string; no: string }) {
  const labelId = useId()
  return (
    <GroupField label={label} error={error} helper={helper} required={required} testId={`field-${name}`} labelId={labelId}>
      <SegmentGroup.Root
        aria-labelledby={labelId}
        name={name}
        value={value || null}
        onValueChange={(d) => (d.value === 'yes' || d.value === 'no') && onChange(d.value)}
        alignSelf="flex-start"
        aria-invalid={error ? true : undefined}
      >
        <SegmentGroup.Indicator />
        <SegmentGroup.Items
          items={[
            { value: 'yes', label: yes },
            { value: 'no', label: no },
          ]}
        />
      </SegmentGroup.Root>
    </GroupField>
  )
}
