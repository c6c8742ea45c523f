import { CloseButton, Dialog, HStack, IconButton, Portal } from '@chakra-ui/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { LuArrowLeft } from 'react-icons/lu'

/**
 * Marks a part of a modal that handles Escape itself (an open dropdown):
 * Escape pressed inside it does not close the modal.
 */
export const OWN_ESCAPE = 'data-own-escape'

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
  focusKey,
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
  focusKey?: string | number
}) {
  const content = useRef<HTMLDivElement>(null)
  const titleRef = useRef<HTMLHeadingElement>(null)
  const lastKey = useRef(focusKey)
  useEffect(() => {
    if (lastKey.current === focusKey) return
    lastKey.current = focusKey
    titleRef.current?.focus({ preventScroll: true })
  }, [focusKey])
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
      // Escape inside an open dropdown closes only the dropdown.
      onEscapeKeyDown={(e) => {
        if (e.target instanceof Element && e.target.closest(`[${OWN_ESCAPE}]`)) e.preventDefault()
      }}
      initialFocusEl={() => content.current?.querySelector<HTMLElement>('[data-autofocus],[autofocus]') ?? titleRef.current}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content
            ref={content}
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
                <Dialog.Title ref={titleRef} tabIndex={-1} _focus={{ outline: 'none' }} data-testid="modal-title">
                  {title}
                </Dialog.Title>
              </HStack>
            </Dialog.Header>
            {/*
              The close button comes right after the header in the document, as it is placed on
              screen: keyboard focus goes back arrow, title, close, then the form, rather than
              reaching the header buttons only after every field.
            */}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={closeLabel} data-testid="modal-close" />
            </Dialog.CloseTrigger>
            <Dialog.Body>{children}</Dialog.Body>
            {footer ? <Dialog.Footer>{footer}</Dialog.Footer> : null}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
