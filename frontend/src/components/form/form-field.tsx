import { Field } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** Props of {@link FormField}. */
export interface FormFieldProps {
  label: ReactNode
  /** Message shown under the control; marks the field invalid. */
  error?: string
  helper?: ReactNode
  required?: boolean
  /**
   * The id of the error text, for a control that names it in its own
   * aria-describedby (the field gives the control only aria-errormessage,
   * which screen readers read less often).
   */
  errorId?: string
  children: ReactNode
}

/**
 * A labelled form control with its helper or error text. Chakra's Field
 * links the label and messages to the input for assistive technology.
 */
export function FormField({ label, error, helper, required, errorId, children }: FormFieldProps) {
  return (
    <Field.Root invalid={!!error} required={required} ids={errorId ? { errorText: errorId } : undefined}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {error ? (
        <Field.ErrorText>{error}</Field.ErrorText>
      ) : helper ? (
        <Field.HelperText>{helper}</Field.HelperText>
      ) : null}
    </Field.Root>
  )
}
