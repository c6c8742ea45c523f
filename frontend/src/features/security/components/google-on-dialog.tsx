import { Box, Button, Center, Code, HStack, Image, Skeleton, Stack, Text, useClipboard } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuCheck, LuCopy } from 'react-icons/lu'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'
import { isClean, validateGoogleCode, validateRequired, validationMessage } from '@/lib/account-validation'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { enableGoogle, startGoogleSetup } from '../api/security-api'
import { FormDialog } from './form-dialog'
import { useSecurityRefresh } from './use-security-refresh'

/** Copy-button checkmark time (spec §4, §9). */
const COPIED_MS = 3000

/** Props of {@link GoogleOnDialog}. */
export interface GoogleDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  t: TranslateFn
}

/**
 * Turning the Google authenticator on: the server makes a pending secret
 * (QR code and key to copy); a current code plus the login password turn it on.
 */
export function GoogleOnDialog({ open, onOpenChange, t }: GoogleDialogProps) {
  const refresh = useSecurityRefresh()
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({})
  const [submitting, setSubmitting] = useState(false)

  const submit = async () => {
    const next = {
      code: validationMessage(t, validateGoogleCode(code)),
      password: validationMessage(t, validateRequired(password)),
    }
    setErrors(next)
    if (!isClean(next)) return
    setSubmitting(true)
    try {
      const envelope = await enableGoogle(code, password)
      if (!isSuccess(envelope)) return
      notifySuccess(t('googleEnabled'))
      await refresh()
      onOpenChange(false)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('googleOnTitle')}
      onSubmit={() => void submit()}
      submitting={submitting}
      submitLabel={t('confirm')}
      cancelLabel={t('cancel')}
      testId="google-on-dialog"
    >
      <Text textStyle="sm" color="fg.muted">
        {t('googleScanHint')}
      </Text>
      <GoogleSecret t={t} />
      <FormField label={t('googleCodeLabel')} error={errors.code}>
        <CodeInput
          name="googleCode"
          placeholder={t('codePlaceholder')}
          value={code}
          onValueChange={(v) => {
            setCode(v)
            setErrors((e) => ({ ...e, code: undefined }))
          }}
        />
      </FormField>
      <FormField label={t('loginPasswordLabel')} error={errors.password}>
        <PasswordInput
          name="loginPwd"
          autoComplete="current-password"
          showLabel={t('showPassword')}
          hideLabel={t('hidePassword')}
          value={password}
          onValueChange={(v) => {
            setPassword(v)
            setErrors((e) => ({ ...e, password: undefined }))
          }}
        />
      </FormField>
    </FormDialog>
  )
}

/** QR code and key of the pending secret; one request per opening of the dialog. */
function GoogleSecret({ t }: { t: TranslateFn }) {
  const setup = useQuery({
    queryKey: ['google-setup'],
    queryFn: startGoogleSetup,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  })
  const secret = setup.data?.secret ?? ''
  const clipboard = useClipboard({ value: secret, timeout: COPIED_MS })

  return (
    <Stack gap="3" align="center">
      <Center boxSize="44" borderWidth="1px" rounded="md" bg="white" p="2">
        {setup.data ? (
          <Image src={setup.data.qrCode} alt={t('googleQrAlt')} boxSize="40" data-testid="google-qr" />
        ) : (
          <Skeleton boxSize="40" />
        )}
      </Center>
      <Box width="full">
        <Text textStyle="xs" color="fg.muted" mb="1">
          {t('secretLabel')}
        </Text>
        <HStack gap="2">
          <Code flex="1" px="3" py="2" fontSize="sm" wordBreak="break-all" data-testid="google-secret">
            {secret || '…'}
          </Code>
          <Button
            size="sm"
            variant="outline"
            disabled={!secret}
            onClick={() => clipboard.copy()}
            aria-live="polite"
            data-testid="copy-secret"
          >
            {clipboard.copied ? <LuCheck /> : <LuCopy />}
            {clipboard.copied ? t('copied') : t('copy')}
          </Button>
        </HStack>
        <Text textStyle="xs" color="fg.muted" mt="2">
          {t('googleBackupHint')}
        </Text>
      </Box>
    </Stack>
  )
}
