import { Alert, Button, Card, HStack, Input, List, Skeleton, Stack, Text, Textarea } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { FormField } from '@/components/form/form-field'
import { PageFrame } from '@/components/layout/page-frame'
import { validationMessage } from '@/lib/account-validation'
import { removeToken } from '@/lib/cookies'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { failureText, isSuccess } from '@/lib/request-client'
import { userInfoKey, useUserInfo, type UserInfo } from '@/lib/session'
import { clearStoredTokens } from '@/lib/storage'
import { cancelAccount, CODE_CANCELLATION_BLOCKED } from '../api/cancel-account'
import { cancellationKey, checkCancellation, toCancellationInfo, type CancellationInfo } from '../api/check-cancellation'
import {
  closeRequest,
  EMPTY_CLOSE,
  MAX_REASON_LEN,
  reasonLength,
  validateClose,
  type CloseError,
  type CloseErrors,
  type CloseValues,
} from '../lib/close-account'
import { accountTexts } from '../lib/texts'
import { CancelReasons } from './cancel-reasons'
import { OwnCodeFields } from './code-field'

/** The form's field of each of the account's own codes. */
const CODE_FIELD = { email: 'emailCode', sms: 'smsCode', google: 'googleCode' } as const

/**
 * /profile/close-account: the cancellation check (every reason the account
 * cannot be closed yet, with its figures and where to settle it), what
 * closing means, and, when nothing keeps the account, the closing itself:
 * the codes the check names, a typed confirmation word, then the user is
 * signed out and taken home.
 */
export function CloseAccountPage({ initialUser }: { initialUser: UserInfo }) {
  const { t } = accountTexts.useTexts()
  const { user: liveUser } = useUserInfo()
  const user = liveUser ?? initialUser
  const check = useQuery({
    queryKey: cancellationKey,
    queryFn: ({ signal }) => checkCancellation(signal),
    // Balances move; the answer is read again whenever the page shows.
    staleTime: 0,
    refetchOnWindowFocus: true,
    retry: false,
  })
  const info = check.data

  return (
    <PageFrame
      maxW="3xl"
      back={{ href: '/profile/security', label: t('close.back'), testId: 'close-account-back' }}
      title={t('close.title')}
      subtitle={t('close.lead')}
    >
      <Card.Root>
        <Card.Body>
          {check.isPending ? (
            <Stack gap="3" role="status" aria-label={t('close.checking')} data-testid="cancel-checking">
              <Skeleton h="6" w="60%" />
              <Skeleton h="16" />
            </Stack>
          ) : check.isError || !info ? (
            <Stack gap="3" align="flex-start" role="alert" data-testid="cancel-check-error">
              <Text color="fg.error">{check.error?.message || t('close.checkFailed')}</Text>
              <Button size="sm" variant="outline" onClick={() => void check.refetch()} loading={check.isFetching}>
                {t('close.checkAgain')}
              </Button>
            </Stack>
          ) : info.canCancel ? (
            <Alert.Root status="success" data-testid="cancel-ready">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('close.readyTitle')}</Alert.Title>
                <Alert.Description>{t('close.readyText')}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <CancelReasons
              reasons={info.reasons}
              t={t}
              onCheckAgain={() => void check.refetch()}
              checking={check.isFetching}
            />
          )}
        </Card.Body>
      </Card.Root>

      <WhatClosingMeans t={t} apiKeys={info?.apiKeys ?? 0} />

      {info?.canCancel && <CloseForm info={info} user={user} t={t} />}
    </PageFrame>
  )
}

/** The consequences of closing, said before anything is asked. */
function WhatClosingMeans({ t, apiKeys }: { t: TranslateFn; apiKeys: number }) {
  const items = ['signIn', ...(apiKeys > 0 ? ['apiKeys'] : []), 'retained', 'deposits', 'reserved', 'reopen']
  return (
    <Card.Root as="section" aria-labelledby="closing-means" data-testid="closing-means">
      <Card.Header>
        <Card.Title as="h2" id="closing-means">
          {t('close.meansTitle')}
        </Card.Title>
      </Card.Header>
      <Card.Body pt="3">
        <List.Root gap="2" ps="5" textStyle="sm">
          {items.map((item) => (
            <List.Item key={item} data-testid={`closing-means-${item}`}>
              {t(`close.means.${item}`, { count: apiKeys })}
            </List.Item>
          ))}
        </List.Root>
      </Card.Body>
    </Card.Root>
  )
}

/** The closing: the reason, the codes the check names and the typed word. */
function CloseForm({ info, user, t }: { info: CancellationInfo; user: UserInfo; t: TranslateFn }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [values, setValues] = useState<CloseValues>(EMPTY_CLOSE)
  const [errors, setErrors] = useState<CloseErrors>({})
  const [submitting, setSubmitting] = useState(false)
  const word = t('close.confirmWord')

  const message = (error: CloseError | undefined): string | undefined => {
    if (error === 'reasonTooLong') return t('close.reasonTooLong', { max: MAX_REASON_LEN })
    if (error === 'confirmMismatch') return t('close.confirmMismatch', { word })
    return validationMessage(t, error)
  }
  const set = (field: keyof CloseValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  const signOutHome = async () => {
    // The server ended the session and cleared its cookies; the browser
    // forgets what it kept, and nothing of the account stays in the cache.
    removeToken()
    clearStoredTokens()
    await navigate({ to: '/', replace: true })
    // The header watches user info: it turns anonymous; the rest is dropped.
    queryClient.setQueryData(userInfoKey, null)
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'page-texts' && q.queryKey[0] !== userInfoKey[0] })
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const next = validateClose(values, info, word)
    setErrors(next)
    if (Object.keys(next).length > 0) return
    setSubmitting(true)
    try {
      const envelope = await cancelAccount(closeRequest(values, info))
      if (isSuccess(envelope)) {
        notifySuccess(t('close.closed'))
        await signOutHome()
        return
      }
      if (envelope.code === CODE_CANCELLATION_BLOCKED && envelope.data) {
        // Something arrived since the check: the answer carries the reasons.
        queryClient.setQueryData(cancellationKey, toCancellationInfo(envelope.data))
      }
      // 10002 (the session ended) is handled by the request client: the page goes to sign-in.
      if (envelope.code !== '10002') notifyError(failureText(envelope))
    } finally {
      setSubmitting(false)
    }
  }

  const needsCodes = info.needEmailCode || info.needSmsCode || info.needGoogleCode
  const count = reasonLength(values.reason)
  return (
    <Card.Root as="section" aria-labelledby="close-form-title" data-testid="close-form">
      <Card.Header>
        <Card.Title as="h2" id="close-form-title">
          {t('close.formTitle')}
        </Card.Title>
      </Card.Header>
      <Card.Body pt="3">
        <form noValidate onSubmit={(e) => void submit(e)}>
          <Stack gap="4">
            <FormField
              label={t('close.reasonLabel')}
              error={message(errors.reason)}
              helper={t('close.reasonCount', { count, max: MAX_REASON_LEN })}
            >
              <Textarea
                recipe={textareaRecipe}
                name="reason"
                rows={3}
                autoresize
                maxH="12rem"
                placeholder={t('close.reasonPlaceholder')}
                value={values.reason}
                onChange={(e) => set('reason')(e.target.value)}
              />
            </FormField>
            {!needsCodes && (
              <Text textStyle="sm" color="fg.muted">
                {t('close.noCodes')}
              </Text>
            )}
            <OwnCodeFields
              t={t}
              user={user}
              need={{ email: info.needEmailCode, sms: info.needSmsCode, google: info.needGoogleCode }}
              values={{ email: values.emailCode, sms: values.smsCode, google: values.googleCode }}
              errors={{ email: message(errors.emailCode), sms: message(errors.smsCode), google: message(errors.googleCode) }}
              onChange={(code, value) => set(CODE_FIELD[code])(value)}
            />
            <FormField label={t('close.confirmLabel', { word })} error={message(errors.confirm)}>
              <Input
                name="confirm"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                value={values.confirm}
                onChange={(e) => set('confirm')(e.target.value)}
              />
            </FormField>
            <HStack justify="flex-end" gap="3" flexWrap="wrap">
              <Button asChild variant="outline">
                <Link to="/profile/security">{t('cancel')}</Link>
              </Button>
              <Button type="submit" colorPalette="red" loading={submitting} data-testid="close-submit">
                {t('close.submit')}
              </Button>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  )
}
