import { CloseButton, Dialog, HStack, IconButton, Portal } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { LuArrowLeft } from 'react-icons/lu'

/**
 * The frame of every wallet modal: title, optional back arrow, close
 * button; full screen on phones. Content mounts on open and unmounts on
 * close, so every opening starts fresh.
 */
export function WalletDialog({
  open,
  onClose,
  title,
  children,
  footer,
  onBack,
  backLabel,
  closeLabel,
  testId,
  busy,
}: {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  footer?: ReactNode
  onBack?: () => void
  backLabel?: string
  closeLabel: string
  testId: string
  busy?: boolean
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => {
        if (!d.open) onClose()
      }}
      lazyMount
      unmountOnExit
      placement="center"
      size={{ base: 'full', md: 'md' }}
      closeOnInteractOutside={!busy}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content
            data-testid={testId}
            // 'full' on phones only: keep the desktop dialog its natural height.
            minH={{ base: '100dvh', md: 'auto' }}
            rounded={{ base: '0', md: 'l3' }}
          >
            {/* Room at the end for the close button, so a long title (mn_MN) wraps before it. */}
            <Dialog.Header pe="14">
              <HStack gap="2">
                {onBack ? (
                  <IconButton size="sm" variant="ghost" aria-label={backLabel} onClick={onBack} data-testid="modal-back">
                    <LuArrowLeft aria-hidden="true" />
                  </IconButton>
                ) : null}
                <Dialog.Title>{title}</Dialog.Title>
              </HStack>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            {footer ? <Dialog.Footer>{footer}</Dialog.Footer> : null}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={closeLabel} data-testid="modal-close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
