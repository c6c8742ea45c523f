import { Dialog, Text } from '@chakra-ui/react'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useTexts } from '@/lib/i18n'

/**
 * Asks before cancelling every open order (of one pair when `pair` names
 * it): the orders page and the trade page's open orders both use it.
 */
export function CancelAllDialog({
  open,
  onClose,
  onConfirm,
  pair,
  count,
  busy,
}: {
  open: boolean
  onClose: () => void
  onConfirm: () => void
  /** The pair's display name when only its orders are cancelled. */
  pair?: string
  count: number
  busy: boolean
}) {
  const { t } = useTexts('orders')
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      onConfirm={onConfirm}
      busy={busy}
      title={t('confirmCancelAll.title')}
      cancelLabel={t('confirmCancelAll.keep')}
      confirmLabel={t('confirmCancelAll.confirm')}
      testId="cancel-all-dialog"
      cancelTestId="cancel-all-keep"
      confirmTestId="cancel-all-confirm"
    >
      {/* The description of the alert dialog: a screen reader reads what will be cancelled with the question. */}
      <Dialog.Description asChild>
        <Text>{pair ? t('confirmCancelAll.bodyPair', { n: count, pair }) : t('confirmCancelAll.bodyAll', { n: count })}</Text>
      </Dialog.Description>
    </ConfirmDialog>
  )
}
