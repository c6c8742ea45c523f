import { useCallback, useMemo, useState } from 'react'
import type { TranslateFn } from '@/lib/i18n'
import type { CheckMode, FieldErrors, FieldMessage } from '../lib/validation'

/**
 * The state of one step's form: its values, which fields were left
 * (touched), whether a save was tried, the server's refusals by field, and
 * whether anything changed since the last save.
 *
 * What shows beside a field: the server's refusal of it until it changes;
 * else a malformed value once the field was left or a save tried; else a
 * blank required field once "Save and continue" was tried; else, after a
 * refused submit, what the server listed as missing.
 */
export interface StepForm<V> {
  values: V
  /** Changes values; the fields named lose their server refusal. */
  update: (change: (v: V) => V, ...fields: string[]) => void
  /** Marks a field as left: its format is checked from now on. */
  touch: (field: string) => void
  /** The message beside a field, if any. */
  errorOf: (field: string) => string | undefined
  /** Every problem of the values in a mode (for a save). */
  check: (mode: CheckMode) => FieldErrors
  /** Records a save attempt in a mode (messages of that mode show from then on). */
  attempt: (mode: CheckMode) => void
  /** Shows the server's refusals beside their fields. */
  setServerErrors: (errors: FieldErrors) => void
  /** Values changed since the last save. */
  dirty: boolean
  /** A save succeeded: these values are the saved ones. */
  saved: (values: V) => void
}

/** Serialises values for the dirty check. */
const snapshot = (v: unknown) => JSON.stringify(v, (k, x) => (k === 'key' ? undefined : x))

export function useStepForm<V>({
  initial,
  validate,
  missing,
  t,
  live = [],
}: {
  initial: () => V
  validate: (values: V, mode: CheckMode) => FieldErrors
  /** The fields the server lists as missing (shown after a refused submit), by field. */
  missing: FieldErrors
  t: TranslateFn
  /** Fields whose problems show as soon as they arise (a list's, such as the owners' shares adding up to more than 100%). */
  live?: string[]
}): StepForm<V> {
  const [values, setValues] = useState<V>(initial)
  const [baseline, setBaseline] = useState(() => snapshot(values))
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set())
  const [attempted, setAttempted] = useState<CheckMode | undefined>()
  const [server, setServer] = useState<FieldErrors>({})

  const draftErrors = useMemo(() => validate(values, 'draft'), [validate, values])
  const completeErrors = useMemo(() => (attempted === 'complete' ? validate(values, 'complete') : {}), [validate, values, attempted])

  const say = useCallback((m: FieldMessage | undefined) => (m ? t(m.key, m.vars) : undefined), [t])

  const update = useCallback((change: (v: V) => V, ...fields: string[]) => {
    setValues((v) => change(v))
    if (fields.length > 0) {
      setServer((s) => {
        if (!fields.some((f) => s[f])) return s
        const next = { ...s }
        for (const f of fields) delete next[f]
        return next
      })
    }
  }, [])

  const touch = useCallback((field: string) => {
    setTouched((s) => (s.has(field) ? s : new Set(s).add(field)))
  }, [])

  const errorOf = useCallback(
    (field: string) =>
      say(server[field]) ??
      say(touched.has(field) || attempted || live.includes(field) ? draftErrors[field] : undefined) ??
      say(completeErrors[field]) ??
      say(missing[field]),
    [say, server, touched, attempted, draftErrors, completeErrors, missing, live],
  )

  const check = useCallback((mode: CheckMode) => validate(values, mode), [validate, values])
  const attempt = useCallback((mode: CheckMode) => setAttempted((a) => (a === 'complete' ? a : mode)), [])
  const saved = useCallback((v: V) => {
    setValues(v)
    setBaseline(snapshot(v))
    setServer({})
  }, [])

  return {
    values,
    update,
    touch,
    errorOf,
    check,
    attempt,
    setServerErrors: setServer,
    dirty: snapshot(values) !== baseline,
    saved,
  }
}

/** The first field of a list of problems in the order of the form's controls on the page. */
export function focusFirstInvalid(root: HTMLElement | null, fields: string[]): void {
  if (!root) return
  const controls = Array.from(root.querySelectorAll<HTMLElement>('[name]'))
  const target = controls.find((el) => fields.includes(el.getAttribute('name') ?? ''))
  if (target) {
    target.focus()
    return
  }
  // A problem of a list or a group (people, files, a yes/no): its section.
  for (const f of fields) {
    const escaped = typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(f) : f.replace(/["\\]/g, '\\$&')
    const section = root.querySelector<HTMLElement>(`[data-field="${escaped}"]`)
    if (section) {
      section.focus()
      return
    }
  }
}
