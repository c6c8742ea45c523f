import { Alert, Button, CloseButton, DataList, Dialog, Input, Portal, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { FormField } from '@/components/form/form-field'
import { validationMessage, EMAIL_MAX_LENGTH } from '@/lib/account-validation'
import { formatDateTime } from '@/lib/date-time'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { userInfoKey, type UserInfo } from '@/lib/session'
import { EMAIL_OPERATION, sendEmailCode } from '../api/send-email-code'
import { updateEmail } from '../api/update-email'
import {
  EMAIL_CHANGE_LOCK_MS,
  emailChangeFactors,
  emailChangeRequest,
  EMPTY_EMAIL_CHANGE,
  validateEmailChange,
  validateNewEmail,
  type EmailChangeError,
  type EmailChangeErrors,
  type EmailChangeValues,
} from '../lib/email-change'
import { CodeField, OwnCodeFields } from './code-field'

/** The form's field of each of the account's own codes. */
const CODE_FIELD = { email: 'oldCode', sms: 'smsCode', google: 'googleCode' } as const

/** Props of {@link EmailDialog}. */
export interface EmailDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  user: UserInfo
  /** The account page texts. */
  t: TranslateFn
  /** Told when the change is stored, with the end of the withdrawal lock (Unix ms). */
  onChanged?: (withdrawLockedUntil: number) => void
}

/** What a stored change answered, shown on the dialog's last step. */
interface Done {
  email: string
  lockedUntil: number
}

/**
 * Changing the e-mail, or adding one to a phone account: the new address
 * proven by a code sent to it (operationType 5), and the account's own
 * codes as a withdrawal asks for them (the current address's, SMS and
 * Google as its factors say). The 24-hour withdrawal lock the change sets
 * is explained before confirming and its end shown after.
 */
export function EmailDialog({ open, onOpenChange, user, t, onChanged }: EmailDialogProps) {
  const [submitting, setSubmitting] = useState(false)
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
          <Dialog.Content data-testid="email-dialog">
            <EmailForm user={user} t={t} onClose={() => onOpenChange(false)} onChanged={onChanged} onSubmitting={setSubmitting} />
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('close')} disabled={submitting} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function EmailForm({
  user,
  t,
  onClose,
  onChanged,
  onSubmitting,
}: {
  user: UserInfo
  t: TranslateFn
  onClose: () => void
  onChanged?: (withdrawLockedUntil: number) => void
  onSubmitting: (busy: boolean) => void
}) {
  const queryClient = useQueryClient()
  // The factors as the dialog opened: a change elsewhere meanwhile is the server's to refuse.
  const [factors] = useState(() => emailChangeFactors(user))
  const [values, setValues] = useState<EmailChangeValues>(EMPTY_EMAIL_CHANGE)
  const [errors, setErrors] = useState<EmailChangeErrors>({})
  const [submitting, setSubmitting] = useState(false)
  const [done, setDone] = useState<Done | null>(null)
  const adding = !user.email

  const message = (error: EmailChangeError | undefined) =>
    error === 'sameAddress' ? t('email.sameAddress') : validationMessage(t, error)
  const set = (field: keyof EmailChangeValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const next = validateEmailChange(values, factors, user.email)
    setErrors(next)
    if (Object.keys(next).length > 0) return
    setSubmitting(true)
    onSubmitting(true)
    try {
      const envelope = await updateEmail(emailChangeRequest(values, factors))
      if (!isSuccess(envelope)) return
      const lockedUntil = Number(envelope.data?.withdrawLockedUntil) || Date.now() + EMAIL_CHANGE_LOCK_MS
      setDone({ email: envelope.data?.email || values.email.trim(), lockedUntil })
      notifySuccess(t('email.changed'))
      onChanged?.(lockedUntil)
      // The user's address and the security page's settings history changed.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userInfoKey }),
        queryClient.invalidateQueries({ queryKey: ['security'] }),
      ])
    } finally {
      setSubmitting(false)
      onSubmitting(false)
    }
  }

  if (done) {
    return (
      <>
        <Dialog.Header>
          <Dialog.Title>{t('email.doneTitle')}</Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>
          <Stack gap="4" data-testid="email-done">
            <Text>{t('email.doneText', { email: done.email })}</Text>
            <Alert.Root status="warning" data-testid="email-lock-after">
              <Alert.Indicator />
              <Alert.Title>{t('email.doneLock', { time: formatDateTime(done.lockedUntil, { seconds: false }) })}</Alert.Title>
            </Alert.Root>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button colorPalette="brand" onClick={onClose} data-testid="email-done-close">
            {t('email.done')}
          </Button>
        </Dialog.Footer>
      </>
    )
  }

  const lockEstimate = formatDateTime(Date.now() + EMAIL_CHANGE_LOCK_MS, { seconds: false })
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Dialog.Header>
        <Dialog.Title>{adding ? t('email.addTitle') : t('email.changeTitle')}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          {!adding && (
            <DataList.Root orientation="horizontal" size="sm">
              <DataList.Item>
                <DataList.ItemLabel>{t('email.currentLabel')}</DataList.ItemLabel>
                <DataList.ItemValue wordBreak="break-all" data-testid="email-current">
                  {user.email}
                </DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
          )}
          <FormField label={t('email.newLabel')} error={message(errors.email)}>
            <Input
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              maxLength={EMAIL_MAX_LENGTH}
              placeholder={t('email.newPlaceholder')}
              value={values.email}
              onChange={(e) => set('email')(e.target.value)}
            />
          </FormField>
          <CodeField
            t={t}
            label={t('email.newCodeLabel')}
            name="emailCode"
            value={values.newCode}
            onChange={set('newCode')}
            error={message(errors.newCode)}
            helper={t('email.newCodeHelper')}
            send={() => sendEmailCode(EMAIL_OPERATION.changeTarget, values.email)}
            beforeSend={() => {
              const error = validateNewEmail(values.email, user.email)
              setErrors((e) => ({ ...e, email: error }))
              return !error
            }}
            sendTestId="send-new-email-code"
          />
          <OwnCodeFields
            t={t}
            user={user}
            need={{ email: factors.oldEmail, sms: factors.sms, google: factors.google }}
            values={{ email: values.oldCode, sms: values.smsCode, google: values.googleCode }}
            errors={{ email: message(errors.oldCode), sms: message(errors.smsCode), google: message(errors.googleCode) }}
            onChange={(code, value) => set(CODE_FIELD[code])(value)}
            email={{ label: t('email.oldCodeLabel'), name: 'oldEmailCode', sendTestId: 'send-old-email-code' }}
          />
          <Alert.Root status="warning" data-testid="email-lock-before">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('email.lockTitle')}</Alert.Title>
              <Alert.Description>{t('email.lockText', { time: lockEstimate })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} disabled={submitting}>
          {t('cancel')}
        </Button>
        <Button type="submit" colorPalette="brand" loading={submitting} data-testid="email-submit">
          {adding ? t('email.submitAdd') : t('email.submitChange')}
        </Button>
      </Dialog.Footer>
    </form>
  )
}
