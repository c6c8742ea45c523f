import { Dialog, List, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { failureText, isNetworkError, isSuccess } from '@/lib/request-client'
import { confirmSubmit } from '../api/confirm-submit'
import { corporateKeys, normalizeApplication, type CorporateApplication, type Missing } from '../api/types'
import { CODE_INCOMPLETE, missingOf, STALE_CODES } from '../lib/server-errors'

/**
 * Asks before the application goes for review (it cannot be changed while
 * it is reviewed), then submits it. A refusal for missing fields hands
 * them to the page, which shows them by step.
 */
export function SubmitDialog({
  open,
  onClose,
  t,
  entityName,
  onSubmitted,
  onIncomplete,
}: {
  open: boolean
  onClose: () => void
  /** The general page's texts. */
  t: TranslateFn
  entityName: string
  onSubmitted: (app: CorporateApplication) => void
  onIncomplete: (missing: Missing[]) => void
}) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)

  const submit = async () => {
    setBusy(true)
    try {
      const envelope = await confirmSubmit()
      const code = String(envelope.code)
      if (isSuccess(envelope)) {
        const app = normalizeApplication(envelope.data)
        queryClient.setQueryData(corporateKeys.application, app)
        notifySuccess(t('toasts.submitted'))
        onSubmitted(app)
        return
      }
      if (code === CODE_INCOMPLETE) {
        notifyError(t('toasts.incomplete'))
        onIncomplete(missingOf(envelope.data))
        void queryClient.invalidateQueries({ queryKey: corporateKeys.application })
        onClose()
        return
      }
      if (code !== '10002') notifyError(failureText(envelope))
      if (STALE_CODES.has(code)) void queryClient.invalidateQueries({ queryKey: corporateKeys.all })
    } catch (e) {
      if (!isNetworkError(e)) notifyError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      onConfirm={() => void submit()}
      busy={busy}
      title={t('submitDialog.title')}
      cancelLabel={t('actions.cancel')}
      confirmLabel={t('actions.submit')}
      confirmPalette="brand"
      testId="submit-dialog"
      confirmTestId="confirm-submit"
    >
      <Stack gap="3">
        <Dialog.Description color="fg">{t('submitDialog.body', { name: entityName || t('submitDialog.yourCompany') })}</Dialog.Description>
        <List.Root gap="1" ps="5" textStyle="sm" color="fg.muted">
          <List.Item>{t('submitDialog.point1')}</List.Item>
          <List.Item>{t('submitDialog.point2')}</List.Item>
        </List.Root>
        <Text textStyle="sm">{t('submitDialog.question')}</Text>
      </Stack>
    </ConfirmDialog>
  )
}
