import { Dialog, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { isNetworkError, isSuccess } from '@/lib/request-client'
import { userInfoKey } from '@/lib/session'
import { changeToRegular } from '../api/change-to-regular'
import { corporateKeys } from '../api/types'

/**
 * Asks before an enterprise account becomes a regular one (spec §6): the
 * approved application returns to draft, and enterprise again takes a new
 * review.
 */
export function ChangeToRegularDialog({ open, onClose, t }: { open: boolean; onClose: () => void; t: TranslateFn }) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)

  const confirm = async () => {
    setBusy(true)
    try {
      const envelope = await changeToRegular()
      if (isSuccess(envelope)) {
        notifySuccess(t('toasts.changedToRegular'))
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: corporateKeys.all }),
          queryClient.invalidateQueries({ queryKey: userInfoKey }),
        ])
        onClose()
      } else {
        // The request client showed the refusal; the state may have moved on.
        void queryClient.invalidateQueries({ queryKey: corporateKeys.all })
      }
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
      onConfirm={() => void confirm()}
      busy={busy}
      title={t('toRegularDialog.title')}
      cancelLabel={t('actions.cancel')}
      confirmLabel={t('actions.changeToRegular')}
      testId="change-to-regular-dialog"
      confirmTestId="confirm-change-to-regular"
    >
      <Stack gap="3">
        <Dialog.Description color="fg">{t('toRegularDialog.body')}</Dialog.Description>
        <Text textStyle="sm" color="fg.muted">
          {t('toRegularDialog.again')}
        </Text>
      </Stack>
    </ConfirmDialog>
  )
}
