import { Alert, Box, Center, CloseButton, Dialog, Portal, Spinner, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState } from 'react'
import { useColorMode } from '@/components/ui/color-mode'
import type { TranslateFn } from '@/lib/i18n'
import { refreshAccessToken } from '../api/get-access-token'
import { launchSumsub, type SumsubEvent } from '../lib/sumsub'

/** Props of {@link SumsubDialog}. */
export interface SumsubDialogProps {
  /** The access token; the dialog is open while there is one. */
  token: string | undefined
  /** The level the token is for (a refreshed token asks for the same). */
  levelName: string
  lan: string
  t: TranslateFn
  onClose: () => void
  /** The SDK reported documents sent or a status change: read the status again. */
  onProgress: (event: SumsubEvent) => void
}

/**
 * Sumsub's verification flow in a dialog (full screen on phones). The SDK
 * loads when the dialog opens and is destroyed when it closes; when its
 * token expires it asks get_access_token for another.
 */
export function SumsubDialog({ token, levelName, lan, t, onClose, onProgress }: SumsubDialogProps) {
  return (
    <Dialog.Root
      open={!!token}
      onOpenChange={(d) => {
        if (!d.open) onClose()
      }}
      lazyMount
      unmountOnExit
      placement="center"
      size={{ base: 'full', md: 'lg' }}
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="sumsub-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('sumsub.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {token && <SumsubFrame token={token} levelName={levelName} lan={lan} t={t} onProgress={onProgress} />}
            </Dialog.Body>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('sumsub.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

type FrameState = 'loading' | 'ready' | 'error'

function SumsubFrame({
  token,
  levelName,
  lan,
  t,
  onProgress,
}: Omit<SumsubDialogProps, 'token' | 'onClose'> & { token: string }) {
  const container = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<FrameState>('loading')
  const { colorMode } = useColorMode()
  // The SDK starts once per token; the latest callbacks are read through a ref.
  const progress = useRef(onProgress)
  useEffect(() => {
    progress.current = onProgress
  }, [onProgress])
  // The theme the SDK starts in (it is not restarted when the theme changes).
  const themeRef = useRef<'light' | 'dark'>(colorMode === 'dark' ? 'dark' : 'light')

  useEffect(() => {
    const el = container.current
    if (!el) return
    let handle: { destroy: () => void } | undefined
    let cancelled = false
    launchSumsub(el, {
      token,
      refreshToken: () => refreshAccessToken(levelName || undefined),
      lan,
      theme: themeRef.current,
      onEvent: (event) => {
        if (event === 'ready') setState('ready')
        else if (event === 'error') setState((s) => (s === 'loading' ? 'error' : s))
        else progress.current(event)
      },
    })
      .then((h) => {
        if (cancelled) h.destroy()
        else handle = h
      })
      .catch(() => {
        if (!cancelled) setState('error')
      })
    return () => {
      cancelled = true
      handle?.destroy()
    }
  }, [token, levelName, lan])

  return (
    <Stack gap="3">
      {state === 'loading' && (
        <Center py="10" role="status" aria-live="polite">
          <Stack align="center" gap="3">
            <Spinner size="lg" color="brand.solid" />
            <Text color="fg.muted">{t('sumsub.loading')}</Text>
          </Stack>
        </Center>
      )}
      {state === 'error' && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{t('sumsub.loadError')}</Alert.Title>
        </Alert.Root>
      )}
      <Box ref={container} minH={state === 'ready' ? '32rem' : '0'} data-testid="sumsub-container" />
    </Stack>
  )
}
