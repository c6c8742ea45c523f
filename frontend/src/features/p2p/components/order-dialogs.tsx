import { Button, CloseButton, Dialog, HStack, IconButton, NativeSelect, Portal, Stack, Text, Textarea, VisuallyHidden } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import { LuUpload, LuX } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'
import { AppLink } from '@/components/layout/app-link'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { checkImage, IMAGE_ACCEPT, MAX_IMAGE_BYTES, uploadImage } from '../api/uploads'
import { MAX_APPEAL, MAX_EVIDENCE, validateAppeal } from '../lib/validators'

/** A form in a dialog: title, body, cancel and submit; closes only when not busy. */
function FormDialog({
  open,
  onClose,
  title,
  busy,
  onSubmit,
  submitLabel,
  submitPalette = 'brand',
  cancelLabel,
  closeLabel,
  testId,
  children,
}: {
  open: boolean
  onClose: () => void
  title: string
  busy: boolean
  onSubmit: () => void
  submitLabel: string
  submitPalette?: 'brand' | 'green' | 'red'
  cancelLabel: string
  closeLabel: string
  testId: string
  children: ReactNode
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => !d.open && !busy && onClose()}
      placement="center"
      size={{ base: 'full', md: 'md' }}
      closeOnInteractOutside={!busy}
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId} minH={{ base: '100dvh', md: 'auto' }} rounded={{ base: '0', md: 'l3' }}>
            <form noValidate onSubmit={submit} style={{ display: 'contents' }}>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>{children}</Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} disabled={busy}>
                  {cancelLabel}
                </Button>
                <BusyButton type="submit" colorPalette={submitPalette} loading={busy} data-testid={`${testId}-submit`}>
                  {submitLabel}
                </BusyButton>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={closeLabel} disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/** The seller's release: the fund (trade) password, then the coins go to the buyer. */
export function ReleaseDialog({
  open,
  onClose,
  onRelease,
  busy,
  summary,
  t,
}: {
  open: boolean
  onClose: () => void
  onRelease: (password: string) => void
  busy: boolean
  summary: string
  t: TranslateFn
}) {
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState(false)
  const error = touched && !password ? t('errors.required') : undefined
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('order.releaseTitle')}
      busy={busy}
      onSubmit={() => {
        setTouched(true)
        if (password) onRelease(password)
      }}
      submitLabel={t('order.releaseConfirm')}
      submitPalette="green"
      cancelLabel={t('cancel')}
      closeLabel={t('close')}
      testId="release-dialog"
    >
      <Stack gap="4">
        <Dialog.Description>{summary}</Dialog.Description>
        <Text textStyle="sm" color="fg.warning">
          {t('order.releaseWarning')}
        </Text>
        <FormField label={t('order.fundPassword')} error={error} required helper={<AppLink href="/wallet?modal=tradePassword" color="brand.fg">{t('order.fundPasswordForgot')}</AppLink>}>
          <PasswordInput
            name="capitalPword"
            autoComplete="off"
            value={password}
            onValueChange={setPassword}
            showLabel={t('showPassword')}
            hideLabel={t('hidePassword')}
            data-testid="release-password"
          />
        </FormField>
      </Stack>
    </FormDialog>
  )
}

/** One evidence image being sent or sent. */
interface Evidence {
  key: string
  name: string
  id?: string
  state: 'uploading' | 'done' | 'error'
}

let evidenceSeq = 0

/** An appeal: the reason (public_info.appealReasons), what happened, up to five images. */
export function AppealDialog({
  open,
  onClose,
  onAppeal,
  busy,
  reasons,
  t,
}: {
  open: boolean
  onClose: () => void
  onAppeal: (input: { reason: string; description: string; evidence: string[] }) => void
  busy: boolean
  reasons: string[]
  t: TranslateFn
}) {
  const [reason, setReason] = useState('')
  const [description, setDescription] = useState('')
  const [evidence, setEvidence] = useState<Evidence[]>([])
  const [touched, setTouched] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const errors = touched ? validateAppeal({ reason, description }) : {}
  const uploading = evidence.some((e) => e.state === 'uploading')

  const pick = async (files: File[]) => {
    let count = evidence.length
    for (const file of files) {
      if (count >= MAX_EVIDENCE) {
        notifyError(t('upload.tooMany', { max: MAX_EVIDENCE }))
        break
      }
      const problem = await checkImage(file)
      if (problem) {
        notifyError(t(`upload.${problem}`, { name: file.name, size: MAX_IMAGE_BYTES / 1024 / 1024 }))
        continue
      }
      const key = `ev-${++evidenceSeq}`
      count++
      setEvidence((list) => [...list, { key, name: file.name, state: 'uploading' }])
      uploadImage(file).then(
        (id) => setEvidence((list) => list.map((e) => (e.key === key ? { ...e, id, state: 'done' } : e))),
        () => setEvidence((list) => list.map((e) => (e.key === key ? { ...e, state: 'error' } : e))),
      )
    }
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('order.appealTitle')}
      busy={busy}
      onSubmit={() => {
        setTouched(true)
        const problems = validateAppeal({ reason, description })
        if (problems.reason || problems.description) return
        if (uploading) return notifyError(t('upload.wait'))
        onAppeal({ reason, description: description.trim(), evidence: evidence.filter((e) => e.id).map((e) => e.id as string) })
      }}
      submitLabel={t('order.appealSubmit')}
      submitPalette="red"
      cancelLabel={t('cancel')}
      closeLabel={t('close')}
      testId="appeal-dialog"
    >
      <Stack gap="4">
        <Dialog.Description>{t('order.appealIntro')}</Dialog.Description>
        <FormField label={t('order.appealReason')} error={errors.reason ? t(`errors.${errors.reason}`) : undefined} required>
          <NativeSelect.Root>
            <NativeSelect.Field name="reason" value={reason} onChange={(e) => setReason(e.target.value)} data-testid="appeal-reason">
              <option value="">{t('order.appealReasonPick')}</option>
              {reasons.map((r) => (
                <option key={r} value={r}>
                  {t(`reasons.${r}`) || r}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField
          label={t('order.appealDescription')}
          error={errors.description ? t(`errors.${errors.description}`, { max: MAX_APPEAL }) : undefined}
          helper={t('count', { count: [...description].length, max: MAX_APPEAL })}
          required
        >
          <Textarea
            recipe={textareaRecipe}
            name="description"
            rows={4}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="appeal-description"
          />
        </FormField>
        <Stack gap="2">
          <HStack gap="3" flexWrap="wrap">
            <Button
              size="sm"
              variant="outline"
              onClick={() => input.current?.click()}
              disabled={busy || evidence.length >= MAX_EVIDENCE}
              data-testid="appeal-evidence-add"
            >
              <LuUpload aria-hidden="true" />
              {t('order.appealEvidence')}
            </Button>
            <Text textStyle="xs" color="fg.muted">
              {t('order.appealEvidenceHint', { max: MAX_EVIDENCE })}
            </Text>
          </HStack>
          <VisuallyHidden asChild>
            <input
              ref={input}
              type="file"
              accept={IMAGE_ACCEPT}
              multiple
              tabIndex={-1}
              aria-hidden="true"
              onChange={(e) => {
                const files = Array.from(e.target.files ?? [])
                e.target.value = ''
                void pick(files)
              }}
              data-testid="appeal-evidence-input"
            />
          </VisuallyHidden>
          {evidence.length > 0 && (
            <Stack as="ul" gap="1" listStyleType="none" m="0" p="0" aria-label={t('order.appealEvidenceList')}>
              {evidence.map((e) => (
                <HStack as="li" key={e.key} justify="space-between" textStyle="sm" data-testid="appeal-evidence-item" data-state={e.state}>
                  <Text truncate>{e.name}</Text>
                  <HStack gap="1" flexShrink={0}>
                    <Text textStyle="xs" color={e.state === 'error' ? 'fg.error' : e.state === 'done' ? 'fg.success' : 'fg.muted'}>
                      {t(`upload.${e.state}`)}
                    </Text>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={t('upload.remove', { name: e.name })}
                      onClick={() => setEvidence((list) => list.filter((x) => x.key !== e.key))}
                    >
                      <LuX aria-hidden="true" />
                    </IconButton>
                  </HStack>
                </HStack>
              ))}
            </Stack>
          )}
        </Stack>
      </Stack>
    </FormDialog>
  )
}
