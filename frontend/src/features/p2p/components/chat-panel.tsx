import { Box, Button, Card, chakra, Heading, HStack, IconButton, Skeleton, Stack, Text, Textarea, VisuallyHidden } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { LuArrowRight, LuUpload } from 'react-icons/lu'
import { formatDateTime } from '@/lib/date-time'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { fetchChat, sendChat } from '../api/p2p-api'
import { p2pKeys, type ChatMessage } from '../api/types'
import { checkImage, IMAGE_ACCEPT, MAX_IMAGE_BYTES, uploadImage } from '../api/uploads'
import { authorOf, lastId, mergeMessages } from '../lib/chat'
import { useP2PPush, type P2PPush } from '../lib/push'
import { systemMessageKey } from '../lib/status'
import { chatTextProblem, MAX_CHAT } from '../lib/validators'
import { UploadImage } from './shared'

/** How often an open order's chat looks for new messages (the socket brings them sooner). */
export const CHAT_POLL_MS = 3000
/** ... and a finished order's, whose chat stays open a day. */
export const CHAT_POLL_DONE_MS = 15_000

/**
 * The order's chat (spec §3 realtime, README "P2P trading"): the two sides'
 * messages and images, the order's own messages (keys, translated) and the
 * operator's. New messages come over the socket (user_p2p_chat) and by
 * polling every few seconds, merged by id; sending answers what came since.
 */
export function ChatPanel({ orderId, uid, counterparty, finished, t }: { orderId: string; uid?: string | number; counterparty: string; finished: boolean; t: TranslateFn }) {
  const queryClient = useQueryClient()
  const key = p2pKeys.chat(orderId)
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const current = queryClient.getQueryData<ChatMessage[]>(key) ?? []
      return mergeMessages(current, await fetchChat(orderId, lastId(current), signal))
    },
    refetchInterval: finished ? CHAT_POLL_DONE_MS : CHAT_POLL_MS,
    refetchOnWindowFocus: true,
  })
  const messages = query.data ?? []

  const add = useCallback(
    (incoming: ChatMessage[]) => queryClient.setQueryData<ChatMessage[]>(key, (cur) => mergeMessages(cur ?? [], incoming)),
    // key is derived from orderId.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, orderId],
  )
  useP2PPush(
    useCallback(
      (push: P2PPush) => {
        if (push.channel === 'user_p2p_chat' && push.orderId === orderId) add([push.message])
      },
      [add, orderId],
    ),
  )

  // The newest message in view.
  const list = useRef<HTMLDivElement>(null)
  const last = lastId(messages)
  useEffect(() => {
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }, [last])

  return (
    <Card.Root as="section" aria-labelledby="p2p-chat-title" h="full" data-testid="chat-panel">
      <Card.Header pb="2">
        <Heading as="h2" id="p2p-chat-title" size="md">
          {t('chat.title', { name: counterparty })}
        </Heading>
      </Card.Header>
      <Card.Body pt="0" gap="3" display="flex" flexDirection="column" minH="0">
        <Box
          ref={list}
          flex="1"
          minH="16rem"
          maxH={{ base: '26rem', lg: '32rem' }}
          overflowY="auto"
          borderWidth="1px"
          rounded="md"
          p="3"
          bg="bg.subtle"
          tabIndex={0}
          aria-label={t('chat.label')}
          role="log"
          aria-live="polite"
          data-testid="chat-messages"
        >
          {query.isPending ? (
            <Stack gap="2" role="status" aria-label={t('loading')}>
              <Skeleton h="8" w="60%" />
              <Skeleton h="8" w="50%" alignSelf="flex-end" />
            </Stack>
          ) : messages.length === 0 ? (
            <Text textStyle="sm" color="fg.muted" textAlign="center" py="6">
              {query.isError ? t('chat.loadError') : t('chat.empty')}
            </Text>
          ) : (
            <Stack as="ol" gap="2" listStyleType="none" m="0" p="0">
              {messages.map((m) => (
                <MessageItem key={m.id} orderId={orderId} message={m} uid={uid} t={t} />
              ))}
            </Stack>
          )}
        </Box>
        <Composer orderId={orderId} after={last} onSent={add} t={t} />
      </Card.Body>
    </Card.Root>
  )
}

function MessageItem({ orderId, message, uid, t }: { orderId: string; message: ChatMessage; uid?: string | number; t: TranslateFn }) {
  const author = authorOf(message, uid)
  const time = formatDateTime(message.ctime, { seconds: false })
  if (author === 'system') {
    const key = systemMessageKey(message.content)
    return (
      <chakra.li alignSelf="center" maxW="90%" textAlign="center" data-testid="chat-system" data-key={message.content}>
        <Text textStyle="xs" color="fg.muted" bg="bg.muted" px="3" py="1" rounded="full">
          {key ? t(key) : message.content} · {time}
        </Text>
      </chakra.li>
    )
  }
  const mine = author === 'me'
  return (
    <chakra.li
      alignSelf={mine ? 'flex-end' : 'flex-start'}
      maxW="85%"
      rounded="lg"
      px="3"
      py="2"
      bg={mine ? 'brand.solid' : author === 'operator' ? 'orange.subtle' : 'bg.panel'}
      color={mine ? 'brand.contrast' : undefined}
      borderWidth={mine ? '0' : '1px'}
      data-testid="chat-message"
      data-author={author}
    >
      <VisuallyHidden>{mine ? t('chat.you') : author === 'operator' ? t('chat.operator') : t('chat.peer')}: </VisuallyHidden>
      {author === 'operator' && (
        <Text textStyle="xs" fontWeight="semibold" color="orange.fg">
          {t('chat.operator')}
        </Text>
      )}
      {message.content && (
        <Text textStyle="sm" whiteSpace="pre-wrap" wordBreak="break-word" data-testid="chat-text">
          {message.content}
        </Text>
      )}
      {message.image && <UploadImage orderId={orderId} id={message.image} alt={t('chat.image')} unavailable={t('chat.imageUnavailable')} />}
      <Text textStyle="2xs" opacity={0.75} textAlign="end" mt="0.5">
        {time}
      </Text>
    </chakra.li>
  )
}

function Composer({ orderId, after, onSent, t }: { orderId: string; after: string; onSent: (m: ChatMessage[]) => void; t: TranslateFn }) {
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const [uploading, setUploading] = useState(false)
  const file = useRef<HTMLInputElement>(null)
  const problem = text ? chatTextProblem(text) : undefined

  const send = async (e?: FormEvent) => {
    e?.preventDefault()
    if (chatTextProblem(text) || sending) return
    setSending(true)
    try {
      onSent(await sendChat({ id: orderId, content: text.trim(), after }))
      setText('')
    } catch {
      // Toasted by the request client; the text stays to try again.
    } finally {
      setSending(false)
    }
  }
  const sendImage = async (f: File) => {
    const bad = await checkImage(f)
    if (bad) return notifyError(t(`upload.${bad}`, { name: f.name, size: MAX_IMAGE_BYTES / 1024 / 1024 }))
    setUploading(true)
    try {
      const id = await uploadImage(f)
      onSent(await sendChat({ id: orderId, image: id, after }))
    } catch {
      // Toasted.
    } finally {
      setUploading(false)
    }
  }
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      void send()
    }
  }

  return (
    <form onSubmit={(e) => void send(e)} data-testid="chat-form" aria-label={t('chat.formLabel')}>
      <Stack gap="1">
        <HStack align="flex-end" gap="2">
          <IconButton
            variant="outline"
            aria-label={t('chat.attach')}
            title={t('chat.attach')}
            onClick={() => file.current?.click()}
            loading={uploading}
            data-testid="chat-attach"
          >
            <LuUpload />
          </IconButton>
          <VisuallyHidden asChild>
            <input
              ref={file}
              type="file"
              accept={IMAGE_ACCEPT}
              tabIndex={-1}
              aria-hidden="true"
              onChange={(e) => {
                const f = e.target.files?.[0]
                e.target.value = ''
                if (f) void sendImage(f)
              }}
              data-testid="chat-file"
            />
          </VisuallyHidden>
          <Textarea
            recipe={textareaRecipe}
            name="content"
            rows={1}
            autoresize
            maxH="8rem"
            value={text}
            aria-label={t('chat.placeholder')}
            placeholder={t('chat.placeholder')}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKey}
            aria-invalid={problem === 'tooLong' || undefined}
            data-testid="chat-input"
          />
          <Button type="submit" colorPalette="brand" loading={sending} disabled={!!chatTextProblem(text)} data-testid="chat-send" aria-label={t('chat.send')}>
            <LuArrowRight aria-hidden="true" />
          </Button>
        </HStack>
        {problem === 'tooLong' && (
          <Text textStyle="xs" color="fg.error" role="alert">
            {t('errors.tooLong', { max: MAX_CHAT })}
          </Text>
        )}
      </Stack>
    </form>
  )
}
