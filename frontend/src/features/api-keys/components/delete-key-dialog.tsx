import { Button, Code, Dialog, Portal, Stack } from '@chakra-ui/react'
import { BusyButton } from '@/components/form/busy-button'
import type { TranslateFn } from '@/lib/i18n'
import type { ApiKey } from '../api/api-keys-api'

/** Asks before a key is deleted (at once, no codes): bots using it lose access. */
export function DeleteKeyDialog({
  target,
  busy,
  onConfirm,
  onClose,
  t,
  finalFocus,
}: {
  target: ApiKey | undefined
  busy: boolean
  onConfirm: () => void
  onClose: () => void
  t: TranslateFn
  /** Where focus goes when it closes (after a delete, the row's button is gone). */
  finalFocus?: () => HTMLElement | null
}) {
  return (
    <Dialog.Root open={!!target} onOpenChange={(d) => !d.open && onClose()} role="alertdialog" placement="center" closeOnInteractOutside={!busy} finalFocusEl={finalFocus}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="delete-api-key-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('deleteDialog.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="2">
                <Dialog.Description color="fg">{t('deleteDialog.body', { label: target?.label ?? '' })}</Dialog.Description>
                <Code alignSelf="flex-start" fontSize="xs" wordBreak="break-all">
                  {target?.apiKey}
                </Code>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={busy}>
                  {t('form.cancel')}
                </Button>
              </Dialog.ActionTrigger>
              <BusyButton colorPalette="red" loading={busy} onClick={onConfirm} data-testid="confirm-delete-api-key">
                {t('delete')}
              </BusyButton>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
