import { Button, Dialog, Portal } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { BusyButton } from '@/components/form/busy-button'

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  open: boolean
  /** Asked to close (the cancel button, Escape, a click outside); not while busy. */
  onClose: () => void
  onConfirm: () => void
  title: string
  /** The question: the first element should be a Dialog.Description, which a screen reader reads with the title. */
  children: ReactNode
  cancelLabel: string
  confirmLabel: string
  /** red for what cannot be undone, brand for a step forward. */
  confirmPalette?: 'red' | 'brand'
  /** The confirmed action runs: both buttons wait and the dialog stays open. */
  busy?: boolean
  testId: string
  cancelTestId?: string
  confirmTestId: string
}

/**
 * A question before an action (an alert dialog): cancel on the left, the
 * action on the right, both waiting while the action runs.
 */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  cancelLabel,
  confirmLabel,
  confirmPalette = 'red',
  busy = false,
  testId,
  cancelTestId,
  confirmTestId,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => !d.open && !busy && onClose()}
      role="alertdialog"
      placement="center"
      closeOnInteractOutside={!busy}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId} mx="4">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" disabled={busy} onClick={onClose} data-testid={cancelTestId}>
                {cancelLabel}
              </Button>
              <BusyButton colorPalette={confirmPalette} loading={busy} onClick={onConfirm} data-testid={confirmTestId}>
                {confirmLabel}
              </BusyButton>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
