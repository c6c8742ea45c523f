import { Button, Dialog, Portal, Text } from '@chakra-ui/react'
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
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && onClose()} role="alertdialog" placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="cancel-all-dialog" mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('confirmCancelAll.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {/* The description of the alert dialog: a screen reader reads what will be cancelled with the question. */}
              <Dialog.Description asChild>
                <Text>{pair ? t('confirmCancelAll.bodyPair', { n: count, pair }) : t('confirmCancelAll.bodyAll', { n: count })}</Text>
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="cancel-all-keep">
                {t('confirmCancelAll.keep')}
              </Button>
              <Button colorPalette="red" loading={busy} onClick={onConfirm} data-testid="cancel-all-confirm">
                {t('confirmCancelAll.confirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
