import { Alert, Badge, Box, Button, Card, CloseButton, Dialog, Field, HStack, IconButton, Input, InputGroup, NativeSelect, Portal, SimpleGrid, Stack, Switch, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type ClipboardEvent, type FormEvent } from 'react'
import { LuPencil, LuPlus, LuTrash2, LuWallet } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo, type UserInfo } from '@/lib/session'
import { addMethod, deleteMethod, fetchPayKinds, setMethodOpen, updateMethod } from '../api/p2p-api'
import { p2pKeys, type PayKind, type PayMethod } from '../api/types'
import { p2pTexts } from '../lib/texts'
import { accountForSubmit, IBAN_PREFIX, ibanDigitsOf, ibanPasted, ibanTyped, phoneTyped, validateMethod } from '../lib/validators'
import { CopyButton, Empty, kindName, localName, methodTitle, PageSkeleton, useMethods } from './shared'

/** The most payment methods a user keeps (README "P2P trading"). */
export const MAX_METHODS = 20

/** The verified name every method is held in ('' before identity verification). */
export function verifiedName(user: UserInfo | null | undefined): string {
  if (!user || user.kycStatus !== 2) return ''
  return (user.realName || [user.firstName, user.lastName].filter(Boolean).join(' ')).trim()
}

/**
 * /p2p/payment-method (signed-in only): the caller's payment methods —
 * bank accounts (the wallet's banks and IBAN rules) and QPay / SocialPay
 * phone numbers, all in the verified name — with add, edit, on/off (ads
 * offer only the ones that are on) and delete (asked first).
 */
export function PaymentMethodsPage() {
  const { t, ready, lan } = p2pTexts.useTexts()
  const { user } = useUserInfo()
  const queryClient = useQueryClient()
  const methods = useMethods()
  const kinds = useQuery({ queryKey: p2pKeys.kinds, queryFn: ({ signal }) => fetchPayKinds(signal), staleTime: 10 * 60 * 1000 })
  const [editing, setEditing] = useState<PayMethod | 'new'>()
  const [deleting, setDeleting] = useState<PayMethod>()
  const [busy, setBusy] = useState('')
  const holder = verifiedName(user)

  const refresh = () => void queryClient.invalidateQueries({ queryKey: p2pKeys.methods })
  const toggle = async (m: PayMethod, open: boolean) => {
    setBusy(m.id)
    try {
      await setMethodOpen(m.id, open)
      notifySuccess(t(open ? 'methods.turnedOn' : 'methods.turnedOff'))
    } catch {
      // Toasted.
    } finally {
      setBusy('')
      refresh()
    }
  }
  const remove = async (m: PayMethod) => {
    setBusy(m.id)
    try {
      await deleteMethod(m.id)
      notifySuccess(t('methods.deleted'))
      setDeleting(undefined)
    } catch {
      // Toasted.
    } finally {
      setBusy('')
      refresh()
    }
  }

  if (!ready) return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>
  const list = methods.data ?? []
  const full = list.length >= MAX_METHODS

  return (
    <PageFrame
      title={t('methods.title')}
      subtitle={t('methods.subtitle')}
      maxW="5xl"
      testId="payment-methods"
      action={
        <Button colorPalette="brand" onClick={() => setEditing('new')} disabled={!holder || full} data-testid="method-add">
          <LuPlus aria-hidden="true" />
          {t('methods.add')}
        </Button>
      }
    >
      {!holder && user && (
        <Alert.Root status="warning" data-testid="methods-unverified">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>{t('methods.unverified')}</Alert.Description>
          </Alert.Content>
          <Button asChild size="sm" variant="outline" alignSelf="center">
            <AppLink href="/profile/identity">{t('merchant.verify')}</AppLink>
          </Button>
        </Alert.Root>
      )}
      {full && <Text textStyle="sm" color="fg.muted">{t('methods.full', { max: MAX_METHODS })}</Text>}
      {methods.isPending ? (
        <PageSkeleton label={t('loading')} rows={2} />
      ) : methods.isError ? (
        <LoadError title={t('methods.loadError')} retryLabel={t('retry')} onRetry={() => void methods.refetch()} retrying={methods.isFetching} testId="methods-error" />
      ) : list.length === 0 ? (
        <Empty title={t('methods.empty')} hint={t('methods.emptyHint')} icon={<LuWallet />} testId="methods-empty" />
      ) : (
        <SimpleGrid as="ul" columns={{ base: 1, md: 2 }} gap="4" listStyleType="none" m="0" p="0" aria-label={t('methods.title')} data-testid="method-list">
          {list.map((m) => (
            <Card.Root as="li" key={m.id} data-testid="method-card" data-kind={m.kind} data-open={m.open}>
              <Card.Body gap="3">
                <HStack justify="space-between" align="flex-start" gap="2">
                  <Stack gap="1" minW="0">
                    <HStack gap="2" flexWrap="wrap" rowGap="1">
                      <Text fontWeight="semibold" wordBreak="break-word">
                        {methodTitle(m, lan, kinds.data)}
                      </Text>
                      <Badge size="sm" variant="outline">{kindName(m.kind, t, kinds.data, lan)}</Badge>
                    </HStack>
                    <HStack gap="1">
                      <Text fontFamily="mono" textStyle="sm" wordBreak="break-all" data-testid="method-account">
                        {m.account}
                      </Text>
                      <CopyButton value={m.account} label={t('order.copyAccount')} copiedLabel={t('copied')} />
                    </HStack>
                    <Text textStyle="sm" color="fg.muted">
                      {t('methods.holder')}: {m.userName}
                    </Text>
                  </Stack>
                  <Switch.Root
                    checked={m.open}
                    disabled={busy === m.id}
                    onCheckedChange={(d) => void toggle(m, d.checked)}
                    data-testid="method-open"
                    flexShrink={0}
                  >
                    <Switch.HiddenInput aria-label={t('methods.openLabel', { name: methodTitle(m, lan, kinds.data) })} />
                    <Switch.Control />
                    <Switch.Label textStyle="sm">{t(m.open ? 'methods.on' : 'methods.off')}</Switch.Label>
                  </Switch.Root>
                </HStack>
                <HStack justify="flex-end" gap="2">
                  <Button size="xs" variant="outline" onClick={() => setEditing(m)} data-testid="method-edit">
                    <LuPencil aria-hidden="true" />
                    {t('methods.edit')}
                  </Button>
                  <IconButton size="xs" variant="outline" colorPalette="red" aria-label={t('methods.deleteLabel', { name: methodTitle(m, lan, kinds.data) })} onClick={() => setDeleting(m)} data-testid="method-delete">
                    <LuTrash2 />
                  </IconButton>
                </HStack>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}

      <MethodDialog
        method={editing}
        kinds={kinds.data ?? []}
        kindsError={kinds.isError}
        holder={holder}
        t={t}
        lan={lan}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined)
          refresh()
        }}
      />
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(undefined)}
        onConfirm={() => deleting && void remove(deleting)}
        title={t('methods.deleteTitle')}
        cancelLabel={t('cancel')}
        confirmLabel={t('methods.delete')}
        busy={!!deleting && busy === deleting.id}
        testId="method-delete-dialog"
        confirmTestId="method-delete-confirm"
      >
        <Dialog.Description>{t('methods.deleteBody', { name: deleting ? `${deleting.title} ${deleting.account}` : '' })}</Dialog.Description>
      </ConfirmDialog>
    </PageFrame>
  )
}

function MethodDialog({
  method,
  kinds,
  kindsError,
  holder,
  t,
  lan,
  onClose,
  onSaved,
}: {
  method: PayMethod | 'new' | undefined
  kinds: PayKind[]
  kindsError: boolean
  holder: string
  t: TranslateFn
  lan: string
  onClose: () => void
  onSaved: () => void
}) {
  return (
    <Dialog.Root open={!!method} onOpenChange={(d) => !d.open && onClose()} placement="center" size={{ base: 'full', md: 'md' }} scrollBehavior="inside" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="method-dialog" minH={{ base: '100dvh', md: 'auto' }} rounded={{ base: '0', md: 'l3' }}>
            {method && (
              <MethodForm
                method={method === 'new' ? undefined : method}
                kinds={kinds}
                kindsError={kindsError}
                holder={holder}
                t={t}
                lan={lan}
                onClose={onClose}
                onSaved={onSaved}
              />
            )}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function MethodForm({
  method,
  kinds,
  kindsError,
  holder,
  t,
  lan,
  onClose,
  onSaved,
}: {
  method?: PayMethod
  kinds: PayKind[]
  kindsError: boolean
  holder: string
  t: TranslateFn
  lan: string
  onClose: () => void
  onSaved: () => void
}) {
  const [kind, setKind] = useState(method?.kind ?? '')
  const [bank, setBank] = useState(method?.bank ?? '')
  const [account, setAccount] = useState(method ? (method.kind === 'bank' ? ibanDigitsOf(method.account) : phoneTyped(method.account)) : '')
  const [pasteError, setPasteError] = useState(false)
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const errors = validateMethod({ kind, bank, account })
  const banks = kinds.find((k) => k.code === 'bank')?.banks ?? []
  const accountError = pasteError ? t('errors.ibanPaste') : touched && errors.account ? t(`errors.${errors.account}`) : undefined

  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    if (kind !== 'bank') return
    e.preventDefault()
    const r = ibanPasted(e.clipboardData.getData('text'))
    if ('error' in r) return setPasteError(true)
    setPasteError(false)
    setAccount(r.digits)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (errors.kind || errors.bank || errors.account) return
    setBusy(true)
    try {
      const input = { payment: kind, account: accountForSubmit(kind, account), ...(kind === 'bank' ? { bank } : {}) }
      if (method) await updateMethod({ id: method.id, ...input })
      else await addMethod(input)
      notifySuccess(t(method ? 'methods.updated' : 'methods.added'))
      onSaved()
    } catch {
      // The server's message was toasted; the form stays.
    } finally {
      setBusy(false)
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} style={{ display: 'contents' }} data-testid="method-form">
      <Dialog.Header>
        <Dialog.Title>{t(method ? 'methods.editTitle' : 'methods.addTitle')}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          <Field.Root invalid={touched && !!errors.kind} required disabled={!!method}>
            <Field.Label>
              {t('methods.kind')}
              <Field.RequiredIndicator />
            </Field.Label>
            <NativeSelect.Root disabled={!!method}>
              <NativeSelect.Field
                name="payment"
                value={kind}
                onChange={(e) => {
                  setKind(e.target.value)
                  setAccount('')
                  setPasteError(false)
                }}
                data-testid="method-kind"
              >
                <option value="">{t('methods.chooseKind')}</option>
                {kinds.map((k) => (
                  <option key={k.code} value={k.code}>
                    {localName(k, lan)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            {kindsError && <Field.HelperText color="fg.error">{t('methods.kindsError')}</Field.HelperText>}
            {touched && errors.kind && <Field.ErrorText>{t('errors.required')}</Field.ErrorText>}
          </Field.Root>

          {kind === 'bank' && (
            <Field.Root invalid={touched && !!errors.bank} required>
              <Field.Label>
                {t('methods.bank')}
                <Field.RequiredIndicator />
              </Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field name="bank" value={bank} onChange={(e) => setBank(e.target.value)} data-testid="method-bank">
                  <option value="">{t('methods.chooseBank')}</option>
                  {banks.map((b) => (
                    <option key={b.code} value={b.code}>
                      {localName(b, lan)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              {touched && errors.bank && <Field.ErrorText>{t('errors.required')}</Field.ErrorText>}
            </Field.Root>
          )}

          <Field.Root readOnly>
            <Field.Label>{t('methods.holder')}</Field.Label>
            <Input value={holder} readOnly data-testid="method-holder" />
            <Field.HelperText>{t('methods.holderHint')}</Field.HelperText>
          </Field.Root>

          {kind && (
            <Field.Root invalid={!!accountError} required>
              <Field.Label>
                {t(kind === 'bank' ? 'methods.iban' : 'methods.phone')}
                <Field.RequiredIndicator />
              </Field.Label>
              {kind === 'bank' ? (
                <InputGroup startAddon={IBAN_PREFIX}>
                  <Input
                    name="account"
                    inputMode="numeric"
                    autoComplete="off"
                    maxLength={18}
                    value={account}
                    placeholder={t('methods.ibanPlaceholder')}
                    onPaste={onPaste}
                    onChange={(e) => {
                      setPasteError(false)
                      setAccount(ibanTyped(e.target.value))
                    }}
                    data-testid="method-account"
                  />
                </InputGroup>
              ) : (
                <InputGroup startAddon="+976">
                  <Input
                    name="account"
                    type="tel"
                    inputMode="numeric"
                    autoComplete="tel-national"
                    maxLength={8}
                    value={account}
                    placeholder={t('methods.phonePlaceholder')}
                    onChange={(e) => setAccount(phoneTyped(e.target.value))}
                    data-testid="method-account"
                  />
                </InputGroup>
              )}
              {accountError ? (
                <Field.ErrorText data-testid="method-account-error">{accountError}</Field.ErrorText>
              ) : (
                <Field.HelperText>{t(kind === 'bank' ? 'methods.ibanHint' : 'methods.phoneHint')}</Field.HelperText>
              )}
            </Field.Root>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Box flex="1" />
        <Button variant="outline" onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <BusyButton type="submit" colorPalette="brand" loading={busy} data-testid="method-submit">
          {t(method ? 'methods.save' : 'methods.add')}
        </BusyButton>
      </Dialog.Footer>
    </form>
  )
}
