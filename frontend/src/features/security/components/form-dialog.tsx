import { Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react'
import type { FormEvent, ReactNode } from 'react'

/** Props of {@link FormDialog}. */
export interface FormDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  children: ReactNode
  onSubmit: () => void
  submitting?: boolean
  submitLabel: string
  cancelLabel: string
  closeLabel?: string
  testId?: string
}

/**
 * A dialog holding one settings form. Content mounts on open and unmounts on
 * close, so every opening starts with empty fields; full screen on phones.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  children,
  onSubmit,
  submitting,
  submitLabel,
  cancelLabel,
  closeLabel,
  testId,
}: FormDialogProps) {
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => onOpenChange(d.open)}
      lazyMount
      unmountOnExit
      placement="center"
      size={{ base: 'full', md: 'md' }}
      closeOnInteractOutside={!submitting}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <form noValidate onSubmit={handleSubmit}>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" disabled={submitting}>
                    {cancelLabel}
                  </Button>
                </Dialog.ActionTrigger>
                <Button type="submit" colorPalette="brand" loading={submitting}>
                  {submitLabel}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={closeLabel ?? cancelLabel} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
