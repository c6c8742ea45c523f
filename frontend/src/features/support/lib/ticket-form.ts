import type { TicketTypes } from '../api/problem-types'

/** A problem of a ticket field: a key of the support texts. */
export type TicketFieldError = 'required' | 'new.typeRule' | 'new.subjectRule' | 'new.textRule'

/** The new ticket form's values. */
export interface NewTicketValues {
  type: string
  title: string
  description: string
}

/** Characters as the server counts them (after trimming, by code point). */
export function textLength(value: string): number {
  return Array.from(value.trim()).length
}

/** A message (description or reply): 1 to maxText characters. */
export function validateMessage(value: string, maxText: number): TicketFieldError | undefined {
  const n = textLength(value)
  if (n === 0) return 'required'
  return n > maxText ? 'new.textRule' : undefined
}

/** Checks a new ticket against the server's types and limits. */
export function validateNewTicket(
  values: NewTicketValues,
  limits: Pick<TicketTypes, 'types' | 'maxTitle' | 'maxText'>,
): Partial<Record<keyof NewTicketValues, TicketFieldError>> {
  const errors: Partial<Record<keyof NewTicketValues, TicketFieldError>> = {}
  if (!limits.types.includes(values.type)) errors.type = 'new.typeRule'
  const title = textLength(values.title)
  if (title === 0) errors.title = 'required'
  else if (title > limits.maxTitle) errors.title = 'new.subjectRule'
  const description = validateMessage(values.description, limits.maxText)
  if (description) errors.description = description
  return errors
}
