import { Badge, Box, Button, Checkbox, Field, HStack, Input, SegmentGroup, Stack, Text, Textarea } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useEffect, useId, useRef, useState, type RefObject } from 'react'
import { LuArrowLeft } from 'react-icons/lu'
import { FormField } from '@/components/form/form-field'
import { SECURITY_OPERATION } from '@/features/security/api/security-api'
import { FormDialog } from '@/features/security/components/form-dialog'
import { GoogleCodeField } from '@/features/security/components/google-code-field'
import { SmsCodeField } from '@/features/security/components/sms-code-field'
import { isClean, validateCode, validateGoogleCode, validationMessage, type ValidationKey } from '@/lib/account-validation'
import { maskPhone } from '@/lib/country-codes'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { failureText, isNetworkError, isSuccess, type ApiEnvelope } from '@/lib/request-client'
import type { UserInfo } from '@/lib/session'
import {
  createKey,
  normalizeKey,
  PERMISSIONS,
  updateKey,
  type ApiKey,
  type CreatedKey,
  type KeyType,
  type Permission,
  type VerificationCodes,
} from '../api/api-keys-api'
import { MAX_IPS } from '../lib/ip-list'
import {
  emptyForm,
  fieldOfCode,
  formOf,
  inputOf,
  ipsError,
  LABEL_MAX,
  labelError,
  neededCodes,
  publicKeyError,
  validateKeyForm,
  withdrawAllowed,
  type FieldMessage,
  type IpMode,
  type KeyFormField,
  type KeyFormValues,
  unrestrictedRisk,
} from '../lib/key-form'
// The e-mail field is this feature's own: the security page sends no e-mail codes.
import { EmailCodeField } from './email-code-field'
import { PermissionBadges } from './permission-badges'

/** Props of {@link KeyFormDialog}. */
export interface KeyFormDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  t: TranslateFn
  user: UserInfo
  /** The key to change; without it the dialog creates a key. */
  editing?: ApiKey
  /** A new key, with its secret (shown once by the page). */
  onCreated: (key: CreatedKey) => void
  onSaved: (key: ApiKey) => void
}

type Step = 'details' | 'codes'

/** What takes focus: a field (its input; the IP list for the permissions), or the codes step's title. */
type FocusTarget = KeyFormField | 'codes'

function focusTarget(target: FocusTarget, refs: Record<FocusTarget, RefObject<HTMLElement | null>>) {
  refs[target].current?.focus()
}

/**
 * Creating or changing an API key in two steps: the key's label, type (on
 * create), permissions and IP restriction, checked as they are typed; then
 * the verification codes a withdrawal needs. The parent mounts it afresh
 * for every opening, so each starts from the key's (or empty) values.
 */
export function KeyFormDialog({ open, onOpenChange, t, user, editing, onCreated, onSaved }: KeyFormDialogProps) {
  const mode = editing ? 'edit' : 'create'
  const [values, setValues] = useState<KeyFormValues>(() => (editing ? formOf(editing) : emptyForm()))
  const [step, setStep] = useState<Step>('details')
  // Next was pressed: empty required fields say so from then on.
  const [submitted, setSubmitted] = useState(false)
  const [ipsFocused, setIpsFocused] = useState(false)
  const [publicKeyBlurred, setPublicKeyBlurred] = useState(false)
  // Refusals of the server shown beside their field until it changes.
  const [serverErrors, setServerErrors] = useState<Partial<Record<KeyFormField, string>>>({})
  const [codes, setCodes] = useState({ email: '', sms: '', google: '' })
  const [codeErrors, setCodeErrors] = useState<{ email?: string; sms?: string; google?: string }>({})
  const [submitting, setSubmitting] = useState(false)
  const labelRef = useRef<HTMLInputElement>(null)
  const publicKeyRef = useRef<HTMLTextAreaElement>(null)
  const ipsRef = useRef<HTMLTextAreaElement>(null)
  const codesTitleRef = useRef<HTMLParagraphElement>(null)
  const focusAfterStep = useRef<FocusTarget | undefined>(undefined)
  const need = neededCodes(user)
  const anyCode = need.email || need.sms || need.google
  // The code fields are the security page's, with its texts.
  const { t: codesT } = useTexts('security')

  const say = (m: FieldMessage | undefined) => (m ? t(m.key, m.vars) : undefined)
  const canWithdraw = withdrawAllowed(values)
  const shown: Partial<Record<KeyFormField, string>> = {
    label:
      serverErrors.label ??
      say(submitted || values.label !== '' ? labelError(values.label) : undefined),
    publicKey: serverErrors.publicKey ?? say(submitted || publicKeyBlurred ? publicKeyError(values) : undefined),
    ips: serverErrors.ips ?? say(ipsError(values, { typing: ipsFocused, requireOne: submitted })),
    permissions: serverErrors.permissions,
  }

  const focusField = (target: FocusTarget) =>
    focusTarget(target, { label: labelRef, publicKey: publicKeyRef, permissions: ipsRef, ips: ipsRef, codes: codesTitleRef })
  // A step's first element (or the field a refusal is about) takes focus once it is on screen.
  useEffect(() => {
    const target = focusAfterStep.current
    focusAfterStep.current = undefined
    if (target) focusTarget(target, { label: labelRef, publicKey: publicKeyRef, permissions: ipsRef, ips: ipsRef, codes: codesTitleRef })
  }, [step])

  const update = (patch: Partial<KeyFormValues>, field?: KeyFormField) => {
    setValues((v) => {
      const next = { ...v, ...patch }
      // Withdraw goes with the IP restriction: without one it is unticked, not only hidden.
      if (!withdrawAllowed(next) && next.permissions.includes('withdraw')) {
        next.permissions = next.permissions.filter((p) => p !== 'withdraw')
      }
      return next
    })
    if (field) setServerErrors((e) => ({ ...e, [field]: undefined, ...(field === 'ips' ? { permissions: undefined } : {}) }))
  }

  const togglePermission = (p: Permission, on: boolean) => {
    update({ permissions: on ? [...values.permissions, p] : values.permissions.filter((x) => x !== p) }, 'permissions')
  }

  const next = () => {
    setSubmitted(true)
    const errors = validateKeyForm(values, mode)
    const first = (['label', 'publicKey', 'permissions', 'ips'] as const).find((f) => errors[f] || serverErrors[f])
    if (first) {
      focusField(first)
      return
    }
    if (!anyCode) {
      void save()
      return
    }
    setCodeErrors({})
    focusAfterStep.current = 'codes'
    setStep('codes')
  }

  const back = () => {
    focusAfterStep.current = 'label'
    setStep('details')
  }

  const refused = (envelope: ApiEnvelope) => {
    const field = fieldOfCode(String(envelope.code))
    const message = failureText(envelope)
    if (field) {
      // A refusal of the key's values: back to them, the message beside the field.
      setServerErrors((e) => ({ ...e, [field]: message }))
      if (step === 'details') focusField(field)
      else {
        focusAfterStep.current = field
        setStep('details')
      }
      return
    }
    notifyError(message)
  }

  const save = async () => {
    const sent: VerificationCodes = {
      ...(need.email ? { emailCode: codes.email } : {}),
      ...(need.sms ? { smsAuthCode: codes.sms } : {}),
      ...(need.google ? { googleCode: codes.google } : {}),
    }
    setSubmitting(true)
    try {
      const input = inputOf(values)
      if (editing) {
        const envelope = await updateKey(editing.apiKey, input, sent)
        if (!isSuccess(envelope)) return refused(envelope)
        notifySuccess(t('saved'))
        onSaved(normalizeKey({ ...editing, ...input, ...(envelope.data ?? {}) }))
      } else {
        const publicKey = values.keyType === 'ED25519' ? values.publicKey.trim() : undefined
        const envelope = await createKey({ ...input, publicKey }, sent)
        if (!isSuccess(envelope)) return refused(envelope)
        const data = envelope.data
        onCreated({ ...normalizeKey(data), secretKey: String(data?.secretKey ?? '') })
      }
    } catch (e) {
      // No answer: the request client tells the user once that the exchange is unreachable.
      if (!isNetworkError(e)) notifyError(e instanceof Error ? e.message : String(e))
    } finally {
      setSubmitting(false)
    }
  }

  // An empty code is required (this page's words); a wrong length says the security page's.
  const codeMessage = (value: string, rule: (v: string) => ValidationKey | undefined) =>
    value.trim() === '' ? t('errors.required') : validationMessage(codesT, rule(value))

  const confirm = () => {
    const errors = {
      email: need.email ? codeMessage(codes.email, validateCode) : undefined,
      sms: need.sms ? codeMessage(codes.sms, validateCode) : undefined,
      google: need.google ? codeMessage(codes.google, validateGoogleCode) : undefined,
    }
    setCodeErrors(errors)
    if (!isClean(errors)) return
    void save()
  }

  const setCode = (which: 'email' | 'sms' | 'google') => (value: string) => {
    setCodes((c) => ({ ...c, [which]: value }))
    setCodeErrors((e) => ({ ...e, [which]: undefined }))
  }

  const finalLabel = mode === 'create' ? t('form.submitCreate') : t('form.submitSave')
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={mode === 'create' ? t('form.createTitle') : t('form.editTitle')}
      onSubmit={step === 'details' ? next : confirm}
      submitting={submitting}
      submitLabel={step === 'details' && anyCode ? t('form.next') : finalLabel}
      cancelLabel={t('form.cancel')}
      closeLabel={t('form.close')}
      testId="api-key-form"
    >
      {step === 'details' ? (
        <DetailsStep
          t={t}
          mode={mode}
          values={values}
          errors={shown}
          canWithdraw={canWithdraw}
          update={update}
          togglePermission={togglePermission}
          labelRef={labelRef}
          publicKeyRef={publicKeyRef}
          ipsRef={ipsRef}
          onPublicKeyBlur={() => setPublicKeyBlurred(true)}
          onIpsFocus={setIpsFocused}
        />
      ) : (
        <Stack gap="4" data-testid="api-key-codes">
          <Button variant="ghost" size="sm" alignSelf="flex-start" ms="-2" onClick={back} disabled={submitting}>
            <LuArrowLeft aria-hidden="true" />
            {t('form.back')}
          </Button>
          <Summary t={t} values={values} />
          <Stack gap="1">
            <Text ref={codesTitleRef} tabIndex={-1} fontWeight="semibold" outline="none">
              {t('form.codesTitle')}
            </Text>
            <Text textStyle="sm" color="fg.muted">
              {t('form.codesIntro')}
            </Text>
          </Stack>
          {need.email && (
            <EmailCodeField
              t={codesT}
              label={t('codes.emailCodeLabel')}
              value={codes.email}
              onChange={setCode('email')}
              error={codeErrors.email}
              helper={t('codes.emailTo', { email: user.email ?? '' })}
            />
          )}
          {need.sms && (
            <SmsCodeField
              t={codesT}
              value={codes.sms}
              onChange={setCode('sms')}
              error={codeErrors.sms}
              operationType={SECURITY_OPERATION.security}
              helper={codesT('smsToBound', { phone: maskPhone(user.countryCode, user.mobileNumber) })}
            />
          )}
          {need.google && <GoogleCodeField t={codesT} value={codes.google} onChange={setCode('google')} error={codeErrors.google} />}
        </Stack>
      )}
    </FormDialog>
  )
}

interface DetailsStepProps {
  t: TranslateFn
  mode: 'create' | 'edit'
  values: KeyFormValues
  errors: Partial<Record<KeyFormField, string>>
  canWithdraw: boolean
  update: (patch: Partial<KeyFormValues>, field?: KeyFormField) => void
  togglePermission: (p: Permission, on: boolean) => void
  labelRef: RefObject<HTMLInputElement | null>
  publicKeyRef: RefObject<HTMLTextAreaElement | null>
  ipsRef: RefObject<HTMLTextAreaElement | null>
  onPublicKeyBlur: () => void
  onIpsFocus: (focused: boolean) => void
}

/** The key's values: label, type (create only), permissions, IP restriction. */
function DetailsStep({
  t,
  mode,
  values,
  errors,
  canWithdraw,
  update,
  togglePermission,
  labelRef,
  publicKeyRef,
  ipsRef,
  onPublicKeyBlur,
  onIpsFocus,
}: DetailsStepProps) {
  const permsId = useId()
  const permsHintId = useId()
  const withdrawHintId = useId()
  const restricting = values.ipMode === 'restrict'
  return (
    <>
      <FormField label={t('form.label')} error={errors.label} helper={t('form.labelHint', { max: LABEL_MAX })}>
        <Input
          ref={labelRef}
          name="label"
          value={values.label}
          placeholder={t('form.labelPlaceholder')}
          autoComplete="off"
          onChange={(e) => update({ label: e.target.value }, 'label')}
          data-testid="api-key-label"
        />
      </FormField>

      {mode === 'create' && (
        <Stack gap="1.5">
          <ChoiceGroup
            label={t('form.keyType')}
            value={values.keyType}
            onChange={(v) => update({ keyType: v as KeyType }, 'publicKey')}
            testId="api-key-type"
            items={[
              { value: 'HMAC_SHA256', label: t('form.hmac') },
              { value: 'ED25519', label: t('form.ed25519') },
            ]}
          />
          <Text textStyle="xs" color="fg.muted">
            {values.keyType === 'ED25519' ? t('form.ed25519Hint') : t('form.hmacHint')}
          </Text>
        </Stack>
      )}

      {mode === 'create' && values.keyType === 'ED25519' && (
        <FormField label={t('form.publicKey')} error={errors.publicKey}>
          <Textarea
            recipe={textareaRecipe}
            ref={publicKeyRef}
            name="publicKey"
            value={values.publicKey}
            placeholder={'-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----'}
            rows={4}
            fontFamily="mono"
            fontSize="xs"
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => update({ publicKey: e.target.value }, 'publicKey')}
            onBlur={onPublicKeyBlur}
            data-testid="api-key-public-key"
          />
        </FormField>
      )}

      <Stack gap="2" role="group" aria-labelledby={permsId} aria-describedby={permsHintId} data-testid="api-key-permissions">
        <Text textStyle="sm" fontWeight="medium" id={permsId}>
          {t('form.permissions')}
        </Text>
        <Text textStyle="xs" color="fg.muted" id={permsHintId}>
          {t('form.readHint')}
        </Text>
        <HStack gap="4" rowGap="2" flexWrap="wrap">
          {PERMISSIONS.map((p) => {
            const isRead = p === 'read'
            const disabled = isRead || (p === 'withdraw' && !canWithdraw)
            return (
              <Checkbox.Root
                key={p}
                colorPalette="brand"
                checked={isRead || values.permissions.includes(p)}
                disabled={disabled}
                onCheckedChange={(d) => togglePermission(p, d.checked === true)}
                data-testid={`perm-${p}`}
              >
                <Checkbox.HiddenInput name={`perm-${p}`} aria-describedby={p === 'withdraw' && !canWithdraw ? withdrawHintId : undefined} />
                <Checkbox.Control />
                <Checkbox.Label textStyle="sm" fontWeight="normal">
                  {t(`perm.${p}`)}
                </Checkbox.Label>
              </Checkbox.Root>
            )
          })}
        </HStack>
        {!canWithdraw && (
          <Text textStyle="xs" color="fg.muted" id={withdrawHintId} data-testid="withdraw-hint">
            {t('form.withdrawNeedsIp')}
          </Text>
        )}
        {errors.permissions && (
          <Text textStyle="sm" color="fg.error" role="alert">
            {errors.permissions}
          </Text>
        )}
      </Stack>

      <Stack gap="1.5">
        <ChoiceGroup
          label={t('form.ipAccess')}
          value={values.ipMode}
          onChange={(v) => update({ ipMode: v as IpMode }, 'ips')}
          testId="api-key-ip-mode"
          items={[
            { value: 'any', label: t('form.ipAny') },
            { value: 'restrict', label: t('form.ipOnly') },
          ]}
        />
        {!restricting && (
          <Text textStyle="xs" color={values.permissions.length > 0 ? 'fg.warning' : 'fg.muted'} data-testid="ip-risk">
            {t('form.ipAnyHint')}
          </Text>
        )}
      </Stack>

      {restricting && (
        <Field.Root invalid={!!errors.ips}>
          <Field.Label>{t('form.ips')}</Field.Label>
          <Textarea
            recipe={textareaRecipe}
            ref={ipsRef}
            name="ips"
            value={values.ipText}
            rows={3}
            fontFamily="mono"
            fontSize="sm"
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            placeholder={'203.0.113.7\n10.0.0.0/24\n2001:db8::/48'}
            onChange={(e) => update({ ipText: e.target.value }, 'ips')}
            onFocus={() => onIpsFocus(true)}
            onBlur={() => onIpsFocus(false)}
            data-testid="api-key-ips"
          />
          {errors.ips ? <Field.ErrorText>{errors.ips}</Field.ErrorText> : <Field.HelperText>{t('form.ipsHint', { max: MAX_IPS })}</Field.HelperText>}
        </Field.Root>
      )}
    </>
  )
}

/** What the codes confirm: the key's label, permissions and IPs. */
function Summary({ t, values }: { t: TranslateFn; values: KeyFormValues }) {
  const input = inputOf(values)
  return (
    <Box as="dl" borderWidth="1px" rounded="md" p="3" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="2" fontSize="sm" data-testid="api-key-summary">
      <Text as="dt" color="fg.muted">
        {t('form.label')}
      </Text>
      <Box as="dd" m="0" overflowWrap="anywhere">
        {input.label}
      </Box>
      <Text as="dt" color="fg.muted">
        {t('form.permissions')}
      </Text>
      <Box as="dd" m="0">
        <PermissionBadges t={t} permissions={input.permissions} />
      </Box>
      <Text as="dt" color="fg.muted">
        {t('form.ipAccess')}
      </Text>
      <Box as="dd" m="0">
        {input.ips.length === 0 ? (
          <Badge colorPalette={unrestrictedRisk(input) ? 'orange' : 'gray'} variant="subtle">
            {t('unrestricted')}
          </Badge>
        ) : (
          <HStack gap="1" flexWrap="wrap" fontFamily="mono" fontSize="xs">
            {input.ips.map((ip) => (
              <Text as="span" key={ip}>
                {ip}
              </Text>
            ))}
          </HStack>
        )}
      </Box>
    </Box>
  )
}

/** A labelled segmented choice (the key type, the IP access). */
function ChoiceGroup({
  label,
  value,
  onChange,
  items,
  testId,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  items: { value: string; label: string }[]
  testId: string
}) {
  const id = useId()
  return (
    <>
      <Text textStyle="sm" fontWeight="medium" id={id}>
        {label}
      </Text>
      <SegmentGroup.Root
        aria-labelledby={id}
        value={value}
        onValueChange={(d) => d.value && onChange(d.value)}
        alignSelf="flex-start"
        data-testid={testId}
      >
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={items} />
      </SegmentGroup.Root>
    </>
  )
}
