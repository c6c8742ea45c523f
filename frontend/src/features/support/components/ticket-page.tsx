import {
  Alert,
  Box,
  Button,
  Card,
  chakra,
  Heading,
  HStack,
  Icon,
  Skeleton,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { LuCircleUser, LuLifeBuoy } from 'react-icons/lu'
import { FormField } from '@/components/form/form-field'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { formatDateTime } from '@/lib/date-time'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { ApiError, isSuccess } from '@/lib/request-client'
import { CODE_TICKET_NOT_FOUND, fetchTicket } from '../api/details-problem'
import { DEFAULT_TICKET_TYPES } from '../api/problem-types'
import { replyToTicket } from '../api/reply-create'
import { supportKeys, type TicketDetail, type TicketMessage } from '../api/types'
import { isClosed } from '../lib/status'
import { textLength, validateMessage, type TicketFieldError } from '../lib/ticket-form'
import { supportTexts } from '../lib/texts'
import { AttachmentPicker } from './attachment-picker'
import { useTicketTypes } from './new-ticket-page'
import { StoredAttachments } from './stored-attachments'
import { StatusBadge } from './tickets-page'
import { useAttachments } from './use-attachments'

/** How often an open ticket's page looks for support's answer. */
export const TICKET_REFRESH_MS = 30_000

/**
 * /profile/support/$id: one ticket with its thread (the user's and
 * support's messages with their images), a reply box while it is open, and
 * a read-only thread once it is closed.
 */
export function TicketPage({ id }: { id: string }) {
  const { t } = supportTexts.useTexts()
  const query = useQuery({
    queryKey: supportKeys.detail(id),
    queryFn: ({ signal }) => fetchTicket(id, signal),
    refetchOnWindowFocus: true,
    refetchInterval: (q) => (q.state.data && !isClosed(q.state.data.status) ? TICKET_REFRESH_MS : false),
    retry: (count, error) => !(error instanceof ApiError) && count < 1,
  })
  const ticket = query.data

  return (
    <PageFrame maxW="3xl" back={{ href: '/profile/support', label: t('back'), testId: 'ticket-back' }}>
      {query.isPending ? (
        <Stack gap="4" role="status" aria-label={t('loading')}>
          <Skeleton h="8" w="70%" />
          <Skeleton h="24" />
          <Skeleton h="24" />
        </Stack>
      ) : !ticket ? (
        <LoadError
          title={t('thread.loadError')}
          description={query.error instanceof Error ? query.error.message : undefined}
          notFound={query.error instanceof ApiError && query.error.code === CODE_TICKET_NOT_FOUND ? t('thread.notFound') : undefined}
          retryLabel={t('retry')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
          testId="ticket-error"
        />
      ) : (
        <TicketView ticket={ticket} t={t} />
      )}
    </PageFrame>
  )
}


function TicketView({ ticket, t }: { ticket: TicketDetail; t: TranslateFn }) {
  const closed = isClosed(ticket.status)
  return (
    <Stack gap={{ base: '5', md: '6' }} data-testid="ticket" data-status={ticket.status}>
      <Stack gap="2">
        <HStack gap="3" align="flex-start" justify="space-between">
          <Heading as="h1" size={{ base: 'lg', md: 'xl' }} wordBreak="break-word" data-testid="ticket-title">
            {ticket.title}
          </Heading>
          <Box flexShrink={0} pt="1">
            <StatusBadge status={ticket.status} t={t} />
          </Box>
        </HStack>
        <HStack gap="3" flexWrap="wrap" textStyle="sm" color="fg.muted">
          <Text>{t(`types.${ticket.type}`) || ticket.type}</Text>
          <Text aria-hidden="true">·</Text>
          <Text fontFamily="mono">{t('thread.ticket', { id: ticket.id })}</Text>
          <Text aria-hidden="true">·</Text>
          <Text>{t('thread.opened', { time: formatDateTime(ticket.createdAt) })}</Text>
        </HStack>
      </Stack>

      <Alert.Root status={closed ? 'neutral' : ticket.status === 'answered' ? 'success' : 'info'} data-testid="ticket-notice">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Description>
            {closed ? t('thread.closedNotice') : ticket.status === 'answered' ? t('thread.answeredNotice') : t('thread.openNotice')}
          </Alert.Description>
        </Alert.Content>
        {closed && (
          <Button asChild size="sm" variant="outline" alignSelf="center">
            <Link to="/profile/support/new">{t('thread.newTicket')}</Link>
          </Button>
        )}
      </Alert.Root>

      <Stack as="section" aria-labelledby="ticket-thread" gap="3">
        <Heading as="h2" id="ticket-thread" size="md">
          {t('thread.conversation')}
        </Heading>
        <Stack as="ol" gap="3" listStyleType="none" m="0" p="0" data-testid="ticket-thread">
          {ticket.thread.map((m) => (
            <MessageItem key={m.seq} message={m} t={t} />
          ))}
        </Stack>
      </Stack>

      {!closed && <ReplyForm ticket={ticket} t={t} />}
    </Stack>
  )
}

function MessageItem({ message, t }: { message: TicketMessage; t: TranslateFn }) {
  const mine = message.by !== 'support'
  const author = mine ? t('thread.you') : t('thread.support')
  return (
    <Box
      as="li"
      alignSelf={mine ? 'flex-end' : 'flex-start'}
      maxW={{ base: '95%', md: '85%' }}
      w="fit-content"
      minW={{ base: '60%', md: '50%' }}
      rounded="lg"
      borderWidth="1px"
      borderColor={mine ? 'brand.muted' : 'border'}
      bg={mine ? 'brand.subtle' : 'bg.panel'}
      p={{ base: '3', md: '4' }}
      data-testid="ticket-message"
      data-by={mine ? 'user' : 'support'}
    >
      <Stack gap="2">
        <HStack justify="space-between" gap="3" textStyle="xs" color="fg.muted">
          <HStack gap="1.5" fontWeight="semibold" color={mine ? 'fg' : 'brand.fg'}>
            <Icon as={mine ? LuCircleUser : LuLifeBuoy} aria-hidden="true" />
            <Text as="span">{author}</Text>
          </HStack>
          <chakra.time dateTime={new Date(message.at || 0).toISOString()}>{formatDateTime(message.at)}</chakra.time>
        </HStack>
        <Text whiteSpace="pre-wrap" wordBreak="break-word" data-testid="ticket-message-text">
          {message.text}
        </Text>
        <StoredAttachments ids={message.attachments ?? []} t={t} />
      </Stack>
    </Box>
  )
}

/** The user's reply: text and images; an answered ticket opens again with it. */
function ReplyForm({ ticket, t }: { ticket: TicketDetail; t: TranslateFn }) {
  const queryClient = useQueryClient()
  const limits = useTicketTypes().data ?? DEFAULT_TICKET_TYPES
  const attachments = useAttachments(limits.maxAttachments)
  const [content, setContent] = useState('')
  const [error, setError] = useState<TicketFieldError>()
  const [submitting, setSubmitting] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = validateMessage(content, limits.maxText)
    setError(problem)
    if (problem) return
    if (attachments.uploading) return notifyError(t('attach.wait'))
    if (attachments.failed) return notifyError(t('attach.dropFailed'))
    setSubmitting(true)
    try {
      const envelope = await replyToTicket(ticket.id, content, attachments.ids)
      if (!isSuccess(envelope)) {
        // A ticket closed meanwhile: show it as it now is.
        void queryClient.invalidateQueries({ queryKey: supportKeys.detail(ticket.id) })
        return
      }
      if (envelope.data?.id) queryClient.setQueryData(supportKeys.detail(ticket.id), { ...envelope.data, thread: envelope.data.thread ?? [] })
      void queryClient.invalidateQueries({ queryKey: [...supportKeys.all, 'list'] })
      setContent('')
      attachments.reset()
      notifySuccess(t('thread.sent'))
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Card.Root as="section" aria-label={t('thread.replyLabel')}>
      <Card.Body>
        <form noValidate onSubmit={(e) => void submit(e)} data-testid="reply-form">
          <Stack gap="4">
            <FormField
              label={t('thread.replyLabel')}
              error={error ? t(error, { max: limits.maxText }) : undefined}
              helper={t('new.count', { count: textLength(content), max: limits.maxText })}
            >
              <Textarea
                recipe={textareaRecipe}
                name="content"
                rows={4}
                placeholder={t('thread.replyPlaceholder')}
                value={content}
                onChange={(e) => {
                  setContent(e.target.value)
                  setError(undefined)
                }}
              />
            </FormField>
            <AttachmentPicker attachments={attachments} max={limits.maxAttachments} t={t} disabled={submitting} />
            <HStack justify="flex-end">
              <Button type="submit" colorPalette="brand" loading={submitting} data-testid="reply-submit">
                {t('thread.send')}
              </Button>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  )
}
