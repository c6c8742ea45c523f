import { Button, Card, HStack, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { FormField } from '@/components/form/form-field'
import { PageFrame } from '@/components/layout/page-frame'
import { notifyError, notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { createTicket } from '../api/create-problem'
import { DEFAULT_TICKET_TYPES, fetchTicketTypes } from '../api/problem-types'
import { supportKeys } from '../api/types'
import { textLength, validateNewTicket, type NewTicketValues, type TicketFieldError } from '../lib/ticket-form'
import { supportTexts } from '../lib/texts'
import { AttachmentPicker } from './attachment-picker'
import { useAttachments } from './use-attachments'

/** The query of the ticket types and limits (public, changes with a release only). */
export function useTicketTypes() {
  return useQuery({
    queryKey: supportKeys.types,
    queryFn: ({ signal }) => fetchTicketTypes(signal),
    staleTime: 60 * 60 * 1000,
    placeholderData: DEFAULT_TICKET_TYPES,
  })
}

/**
 * /profile/support/new: a topic, a subject and a description, with up to
 * five images (checked, previewed and uploaded as they are picked); the
 * ticket opens on its own page once sent.
 */
export function NewTicketPage() {
  const { t } = supportTexts.useTexts()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const limits = useTicketTypes().data ?? DEFAULT_TICKET_TYPES
  const attachments = useAttachments(limits.maxAttachments)
  const [values, setValues] = useState<NewTicketValues>({ type: '', title: '', description: '' })
  const [errors, setErrors] = useState<Partial<Record<keyof NewTicketValues, TicketFieldError>>>({})
  const [submitting, setSubmitting] = useState(false)

  const message = (error: TicketFieldError | undefined) =>
    error ? t(error, { max: error === 'new.subjectRule' ? limits.maxTitle : limits.maxText }) : undefined
  const set = (field: keyof NewTicketValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const next = validateNewTicket(values, limits)
    setErrors(next)
    if (Object.keys(next).length > 0) return
    if (attachments.uploading) return notifyError(t('attach.wait'))
    if (attachments.failed) return notifyError(t('attach.dropFailed'))
    setSubmitting(true)
    try {
      const envelope = await createTicket({ ...values, attachments: attachments.ids })
      if (!isSuccess(envelope) || !envelope.data?.id) return
      const ticket = envelope.data
      queryClient.setQueryData(supportKeys.detail(ticket.id), ticket)
      void queryClient.invalidateQueries({ queryKey: [...supportKeys.all, 'list'] })
      notifySuccess(t('new.created'))
      await navigate({ to: '/profile/support/$id', params: { id: ticket.id } })
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <PageFrame maxW="3xl" back={{ href: '/profile/support', label: t('back') }} title={t('new.title')} subtitle={t('new.lead')}>
      <Card.Root>
        <Card.Body>
          <form noValidate onSubmit={(e) => void submit(e)} data-testid="new-ticket-form">
            <Stack gap="5">
              <FormField label={t('new.typeLabel')} error={message(errors.type)} required>
                <NativeSelect.Root>
                  <NativeSelect.Field
                    name="type"
                    value={values.type}
                    onChange={(e) => set('type')(e.currentTarget.value)}
                  >
                    <option value="" disabled>
                      {t('new.typePlaceholder')}
                    </option>
                    {limits.types.map((type) => (
                      <option key={type} value={type}>
                        {t(`types.${type}`) || type}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              <FormField
                label={t('new.subjectLabel')}
                error={message(errors.title)}
                helper={t('new.count', { count: textLength(values.title), max: limits.maxTitle })}
                required
              >
                <Input
                  name="title"
                  autoComplete="off"
                  placeholder={t('new.subjectPlaceholder')}
                  value={values.title}
                  onChange={(e) => set('title')(e.target.value)}
                />
              </FormField>
              <FormField
                label={t('new.descriptionLabel')}
                error={message(errors.description)}
                helper={t('new.count', { count: textLength(values.description), max: limits.maxText })}
                required
              >
                <Textarea
                  recipe={textareaRecipe}
                  name="description"
                  rows={6}
                  placeholder={t('new.descriptionPlaceholder')}
                  value={values.description}
                  onChange={(e) => set('description')(e.target.value)}
                />
              </FormField>
              <AttachmentPicker attachments={attachments} max={limits.maxAttachments} t={t} disabled={submitting} />
              <Stack direction={{ base: 'column-reverse', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="3">
                <Text textStyle="xs" color="fg.muted">
                  {t('new.perDay', { count: limits.perDay })}
                </Text>
                <HStack gap="3" justify="flex-end">
                  <Button asChild variant="outline">
                    <Link to="/profile/support">{t('cancel')}</Link>
                  </Button>
                  <Button type="submit" colorPalette="brand" loading={submitting} data-testid="new-ticket-submit">
                    {t('new.submit')}
                  </Button>
                </HStack>
              </Stack>
            </Stack>
          </form>
        </Card.Body>
      </Card.Root>
    </PageFrame>
  )
}
