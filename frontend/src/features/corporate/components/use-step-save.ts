import { useQueryClient } from '@tanstack/react-query'
import { useState, type RefObject } from 'react'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import type { CorporateApplication } from '../api/types'
import { runSave, type SaveResult } from './save'
import type { SaveKind } from './step-shell'
import { focusFirstInvalid, type StepForm } from './use-step-form'

/**
 * The two saves of a step: "Save" checks the form of what is typed and
 * saves a draft; "Save and continue" needs the step complete, saves it and
 * moves on. A problem found here or by the server shows beside its field,
 * and the first such field takes focus.
 */
export function useStepSave<V>({
  form,
  formRef,
  send,
  valuesOf,
  onSaved,
  t,
}: {
  form: StepForm<V>
  formRef: RefObject<HTMLFormElement | null>
  /** Sends the values; several calls may make one save (step 2). */
  send: (values: V, save: (call: Parameters<typeof runSave>[1]) => Promise<SaveResult>) => Promise<SaveResult>
  /** The form's values from the saved application (people get their ids). */
  valuesOf: (app: CorporateApplication) => V
  onSaved: (kind: SaveKind, app: CorporateApplication) => void
  /** The general page's texts. */
  t: TranslateFn
}) {
  const queryClient = useQueryClient()
  const [saving, setSaving] = useState<SaveKind>()

  const save = async (kind: SaveKind) => {
    if (saving) return
    const mode = kind === 'continue' ? 'complete' : 'draft'
    form.attempt(mode)
    const problems = Object.keys(form.check(mode))
    if (problems.length > 0) {
      focusFirstInvalid(formRef.current, problems)
      return
    }
    setSaving(kind)
    try {
      const result = await send(form.values, (call) => runSave(queryClient, call))
      if (result.ok) {
        form.saved(valuesOf(result.app))
        notifySuccess(kind === 'continue' ? t('toasts.stepSaved') : t('toasts.draftSaved'))
        onSaved(kind, result.app)
      } else if (result.fieldErrors) {
        const fields = Object.keys(result.fieldErrors)
        form.setServerErrors(result.fieldErrors)
        // After the messages render: the field the server named takes focus.
        requestAnimationFrame(() => focusFirstInvalid(formRef.current, fields))
      }
    } finally {
      setSaving(undefined)
    }
  }

  // What the step's frame needs of the save: the form, the busy button and the two actions.
  const shell = { formRef, t, saving, dirty: form.dirty, onSave: (kind: SaveKind) => void save(kind) }
  return { saving, save, shell }
}
