'use client'

import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react'
import { useTexts } from '@/lib/i18n'

/** Toast auto-close time of spec §9. */
export const TOAST_DURATION_MS = 5000

/** The app's single toaster: top right, closing after 5 s (spec §8). */
export const toaster = createToaster({
  placement: 'top-end',
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
  max: 5,
})

/** Renders the toasts created through {@link toaster}; mount once near the root. */
export function Toaster() {
  // The region's and the close buttons' names default to English
  // ("Notifications", "Dismiss notification"); screen readers announce them.
  const { t } = useTexts('common')
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }} aria-label={t('notifications')}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid={`toast-${toast.type ?? 'info'}`}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable && <Toast.CloseTrigger aria-label={t('dismissNotification')} />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  )
}
