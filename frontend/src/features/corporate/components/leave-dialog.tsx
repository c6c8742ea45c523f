import { Dialog } from '@chakra-ui/react'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import type { TranslateFn } from '@/lib/i18n'

/** Asks before a step's unsaved changes are left behind. */
export function LeaveDialog({ open, onStay, onLeave, t }: { open: boolean; onStay: () => void; onLeave: () => void; t: TranslateFn }) {
  return (
    <ConfirmDialog
      open={open}
      onClose={onStay}
      onConfirm={onLeave}
      title={t('leaveDialog.title')}
      cancelLabel={t('leaveDialog.stay')}
      confirmLabel={t('leaveDialog.leave')}
      testId="leave-dialog"
      cancelTestId="leave-stay"
      confirmTestId="leave-confirm"
    >
      <Dialog.Description color="fg">{t('leaveDialog.body')}</Dialog.Description>
    </ConfirmDialog>
  )
}
