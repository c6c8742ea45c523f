import { Alert, Box, Button, Code, Dialog, HStack, Portal, Stack, Text } from '@chakra-ui/react'
import type { TranslateFn } from '@/lib/i18n'
import type { CreatedKey } from '../api/api-keys-api'
import { CopyButton } from './copy-button'

/**
 * The new key, shown once: the API key and (for an HMAC key) the secret key
 * with copy buttons and the warning that the secret is never shown again.
 * Only "I have saved it" closes it: neither Escape nor a click beside it
 * throws the secret away by accident.
 */
export function SecretDialog({
  created,
  onClose,
  t,
  finalFocus,
}: {
  created: CreatedKey | undefined
  onClose: () => void
  t: TranslateFn
  /** Where focus goes when it closes (the form that opened it is gone). */
  finalFocus?: () => HTMLElement | null
}) {
  const hmac = created?.keyType !== 'ED25519'
  return (
    <Dialog.Root
      open={!!created}
      onOpenChange={(d) => !d.open && onClose()}
      role="alertdialog"
      placement="center"
      size={{ base: 'full', md: 'md' }}
      closeOnInteractOutside={false}
      closeOnEscape={false}
      finalFocusEl={finalFocus}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="api-key-secret-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('secret.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Alert.Root status="warning">
                  <Alert.Indicator />
                  <Dialog.Description asChild>
                    <Alert.Title fontWeight="normal">{hmac ? t('secret.warning') : t('secret.ed25519Note')}</Alert.Title>
                  </Dialog.Description>
                </Alert.Root>
                <SecretValue label={t('secret.apiKey')} value={created?.apiKey ?? ''} t={t} testId="created-api-key" />
                {hmac && <SecretValue label={t('secret.secretKey')} value={created?.secretKey ?? ''} t={t} testId="created-secret-key" />}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="brand" onClick={onClose} data-testid="secret-saved">
                {t('secret.done')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function SecretValue({ label, value, t, testId }: { label: string; value: string; t: TranslateFn; testId: string }) {
  return (
    <Box>
      <Text textStyle="sm" fontWeight="medium" mb="1">
        {label}
      </Text>
      <HStack gap="2" align="stretch">
        <Code flex="1" px="3" py="2" fontSize="sm" wordBreak="break-all" data-testid={testId}>
          {value}
        </Code>
        <CopyButton value={value} label={t('copy')} copiedLabel={t('copied')} variant="text" testId={`copy-${testId}`} />
      </HStack>
    </Box>
  )
}
