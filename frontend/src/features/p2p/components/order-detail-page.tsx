import { Alert, Box, Button, Card, Container, Dialog, Grid, GridItem, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { LuClock } from 'react-icons/lu'
import { BackLink, LoadError } from '@/components/layout/page-frame'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { formatDateTime } from '@/lib/date-time'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { appealOrder, cancelAppeal, cancelOrder, fetchOrder, markPaid, releaseOrder } from '../api/p2p-api'
import { p2pKeys, type Order } from '../api/types'
import { trimZeros } from '../lib/amounts'
import { formatCountdown, useSecondsLeft } from '../lib/countdown'
import { appealLabel, availableActions, isFinished, roleOf, type OrderAction, type Role } from '../lib/status'
import { p2pTexts } from '../lib/texts'
import { ChatPanel } from './chat-panel'
import { AppealDialog, ReleaseDialog } from './order-dialogs'
import { CopyButton, coinPlaces, KindTags, LabelBadge, methodTitle, OrderStatusBadge, PageSkeleton, TraderName, UploadImage, usePublicInfo } from './shared'

/** Code of an order that is not the caller's (or none). */
export const CODE_ORDER_NOT_FOUND = '17010'
/** How often an unfinished order is read again (the socket brings changes sooner). */
export const ORDER_POLL_MS = 4000

/**
 * /p2p/order-detail?id= (spec §2, §4): the order's state, with a countdown
 * to the payment deadline while it is unpaid; the amounts; the seller's
 * accounts with copy buttons; the actions of the reader's side in this
 * state; the appeal and its outcome; and the chat. Every action refreshes
 * the order (spec §4).
 */
export function OrderDetailPage({ id }: { id: string }) {
  const { t, ready } = p2pTexts.useTexts()
  const { user } = useUserInfo()
  const query = useQuery({
    queryKey: p2pKeys.order(id),
    queryFn: ({ signal }) => fetchOrder(id, signal),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data.status) ? false : ORDER_POLL_MS),
    retry: (count, error) => !(error instanceof ApiError) && count < 1,
  })
  const order = query.data

  return (
    <Container maxW="7xl" py={{ base: '5', md: '8' }} px={{ base: '4', md: '6' }} data-testid="order-detail">
      <Stack gap="4">
        <BackLink href="/order/otc" label={t('order.back')} />
        {!ready || (query.isPending && !!id) ? (
          <PageSkeleton label={t('loading')} />
        ) : !order ? (
          <LoadError
            title={t('order.loadError')}
            description={query.error instanceof Error ? query.error.message : undefined}
            notFound={!query.error || (query.error instanceof ApiError && query.error.code === CODE_ORDER_NOT_FOUND) ? t('order.notFound') : undefined}
            retryLabel={t('retry')}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
            testId="order-error"
          />
        ) : (
          <OrderView order={order} uid={user?.id} t={t} />
        )}
      </Stack>
    </Container>
  )
}


/** The order page's body for a loaded order (exported for the tests). */
export function OrderView({ order, uid, t }: { order: Order; uid?: string | number; t: TranslateFn }) {
  const queryClient = useQueryClient()
  const info = usePublicInfo()
  const role = roleOf(order, uid)
  const actions = availableActions(order, role, uid)
  const places = coinPlaces(info.data, order.coinSymbol)
  const counterparty = role === 'buyer' ? { uid: order.sellerUid, name: order.sellerNickName } : { uid: order.buyerUid, name: order.buyerNickName }
  const [dialog, setDialog] = useState<OrderAction>()
  const [busy, setBusy] = useState(false)
  const finished = isFinished(order.status)

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: p2pKeys.order(order.id) })
    void queryClient.invalidateQueries({ queryKey: p2pKeys.chat(order.id) })
    void queryClient.invalidateQueries({ queryKey: p2pKeys.orders })
  }
  // The deadline passed: the system cancels the order; read it again.
  const left = useSecondsLeft(order.payDeadline, order.status === 'PENDING', refresh)
  // Every change of state writes its message in the chat: read it now, not at the next poll.
  const appealState = order.appeal?.status ?? ''
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: p2pKeys.chat(order.id) })
  }, [order.status, appealState, order.id, queryClient])

  const run = async (action: () => Promise<Order>, done: string) => {
    setBusy(true)
    try {
      const next = await action()
      if (next?.id) queryClient.setQueryData(p2pKeys.order(order.id), next)
      notifySuccess(done)
      setDialog(undefined)
    } catch {
      // The server's message was toasted; the dialog stays for another try.
    } finally {
      setBusy(false)
      refresh()
    }
  }

  const amount = `${fixed(order.totalPrice, 2)} ${order.paySymbol}`
  const volume = `${trimZeros(fixed(order.volume, places).replace(/,/g, ''))} ${order.coinSymbol}`

  return (
    <Stack gap="5" data-role={role}>
      <Stack gap="1">
        <HStack gap="3" flexWrap="wrap">
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }} data-testid="order-title">
            {t(role === 'buyer' ? 'order.titleBuy' : 'order.titleSell', { coin: order.coinSymbol })}
          </Heading>
          <OrderStatusBadge order={order} t={t} />
        </HStack>
        <HStack gap="2" textStyle="sm" color="fg.muted" flexWrap="wrap">
          <Text>{t('order.number')}</Text>
          <Text fontFamily="mono" data-testid="order-number">
            {order.sequence || order.id}
          </Text>
          <CopyButton value={order.sequence || order.id} label={t('order.copyNumber')} copiedLabel={t('copied')} />
          <Text ms={{ base: '0', sm: '2' }}>{t('order.created', { time: formatDateTime(order.ctime) })}</Text>
        </HStack>
      </Stack>

      <Grid templateColumns={{ base: '1fr', lg: '7fr 5fr' }} gap="5" alignItems="start">
        <GridItem minW="0">
          <Stack gap="4">
            <StatusNotice order={order} role={role} left={left} amount={amount} volume={volume} t={t} />

            <Card.Root>
              <Card.Body>
                <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr 1fr', sm: 'repeat(3, 1fr)' }} gap="4" m="0" css={{ '& > :first-of-type': { gridColumn: { base: 'span 2', sm: 'auto' } } }}>
                  <Figure label={t('order.total')} value={amount} strong testId="order-total" copy={{ value: trimZeros(order.totalPrice), label: t('order.copyTotal'), t }} />
                  <Figure label={t('order.price')} value={`${fixed(order.price, 2)} ${order.paySymbol}`} testId="order-price" />
                  <Figure label={t('order.volume')} value={volume} testId="order-volume" />
                </Box>
                <HStack mt="4" gap="2" textStyle="sm" flexWrap="wrap">
                  <Text color="fg.muted">{t(role === 'buyer' ? 'order.seller' : 'order.buyer')}:</Text>
                  <TraderName uid={counterparty.uid} name={counterparty.name} t={t} testId="order-counterparty" />
                </HStack>
              </Card.Body>
            </Card.Root>

            <PaymentAccounts order={order} role={role} t={t} />

            {actions.length > 0 && (
              <HStack gap="3" flexWrap="wrap" data-testid="order-actions">
                {actions.map((a) => (
                  <Button
                    key={a}
                    colorPalette={a === 'markPaid' || a === 'release' ? 'green' : a === 'appeal' ? 'orange' : 'gray'}
                    variant={a === 'markPaid' || a === 'release' ? 'solid' : 'outline'}
                    onClick={() => setDialog(a)}
                    data-testid={`order-${a}`}
                    flex={{ base: '1 1 auto', sm: '0 0 auto' }}
                  >
                    {t(`order.actions.${a}`)}
                  </Button>
                ))}
              </HStack>
            )}

            {order.appeal && <AppealCard order={order} uid={uid} t={t} />}

            {order.description && (
              <Card.Root variant="subtle">
                <Card.Body>
                  <Text fontWeight="medium" textStyle="sm">
                    {t('order.terms')}
                  </Text>
                  <Text textStyle="sm" color="fg.muted" whiteSpace="pre-wrap">
                    {order.description}
                  </Text>
                </Card.Body>
              </Card.Root>
            )}
          </Stack>
        </GridItem>
        <GridItem minW="0">
          <ChatPanel orderId={order.id} uid={uid} counterparty={counterparty.name || counterparty.uid} finished={finished} t={t} />
        </GridItem>
      </Grid>

      <ConfirmDialog
        open={dialog === 'markPaid'}
        onClose={() => setDialog(undefined)}
        onConfirm={() => void run(() => markPaid(order.id), t('order.paidDone'))}
        title={t('order.paidTitle')}
        cancelLabel={t('cancel')}
        confirmLabel={t('order.paidConfirm')}
        confirmPalette="brand"
        busy={busy}
        testId="paid-dialog"
        confirmTestId="paid-confirm"
      >
        <Dialog.Description>{t('order.paidBody', { amount })}</Dialog.Description>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'cancel'}
        onClose={() => setDialog(undefined)}
        onConfirm={() => void run(() => cancelOrder(order.id), t('order.cancelDone'))}
        title={t('order.cancelTitle')}
        cancelLabel={t('order.keep')}
        confirmLabel={t('order.cancelConfirm')}
        busy={busy}
        testId="cancel-dialog"
        confirmTestId="cancel-confirm"
      >
        <Dialog.Description>{t(order.status === 'BUYER_PAID' ? 'order.cancelBodyPaid' : 'order.cancelBody')}</Dialog.Description>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'cancelAppeal'}
        onClose={() => setDialog(undefined)}
        onConfirm={() => void run(() => cancelAppeal(order.id), t('order.appealCancelled'))}
        title={t('order.cancelAppealTitle')}
        cancelLabel={t('order.keep')}
        confirmLabel={t('order.cancelAppealConfirm')}
        busy={busy}
        testId="cancel-appeal-dialog"
        confirmTestId="cancel-appeal-confirm"
      >
        <Dialog.Description>{t('order.cancelAppealBody')}</Dialog.Description>
      </ConfirmDialog>
      <ReleaseDialog
        open={dialog === 'release'}
        onClose={() => setDialog(undefined)}
        onRelease={(pw) => void run(() => releaseOrder(order.id, pw), t('order.releaseDone'))}
        busy={busy}
        summary={t('order.releaseBody', { volume, amount, name: counterparty.name })}
        t={t}
      />
      <AppealDialog
        open={dialog === 'appeal'}
        onClose={() => setDialog(undefined)}
        onAppeal={(input) => void run(() => appealOrder({ id: order.id, ...input }), t('order.appealDone'))}
        busy={busy}
        reasons={info.data?.appealReasons ?? []}
        t={t}
      />
    </Stack>
  )
}

function Figure({
  label,
  value,
  strong,
  testId,
  copy,
}: {
  label: string
  value: string
  strong?: boolean
  testId?: string
  copy?: { value: string; label: string; t: TranslateFn }
}) {
  return (
    <Stack gap="0.5">
      <Text as="dt" textStyle="xs" color="fg.muted">
        {label}
      </Text>
      <HStack as="dd" m="0" gap="1">
        <Text fontWeight={strong ? 'bold' : 'semibold'} fontSize={strong ? 'lg' : 'md'} color={strong ? 'brand.fg' : undefined} data-testid={testId} fontVariantNumeric="tabular-nums">
          {value}
        </Text>
        {copy && <CopyButton value={copy.value} label={copy.label} copiedLabel={copy.t('copied')} />}
      </HStack>
    </Stack>
  )
}

/** What the state means for the reader, with the countdown while the buyer has to pay. */
function StatusNotice({ order, role, left, amount, volume, t }: { order: Order; role: Role; left: number; amount: string; volume: string; t: TranslateFn }) {
  const s = order.status
  let status: 'info' | 'warning' | 'success' | 'error' | 'neutral' = 'info'
  let text = ''
  if (s === 'PENDING') {
    status = 'warning'
    text = role === 'buyer' ? t('order.notice.payBuyer', { amount }) : t('order.notice.paySeller', { amount })
  } else if (s === 'BUYER_PAID') {
    text = role === 'buyer' ? t('order.notice.paidBuyer', { volume }) : t('order.notice.paidSeller', { amount, volume })
  } else if (s === 'IN_APPEAL') {
    status = 'error'
    text = t('order.notice.appeal')
  } else if (s === 'COMPLETED') {
    status = 'success'
    text = role === 'buyer' ? t('order.notice.completedBuyer', { volume }) : t('order.notice.completedSeller', { volume })
  } else if (s === 'CANCELLED_BY_SYSTEM') {
    status = 'neutral'
    text = t('order.notice.expired')
  } else if (s === 'CANCELLED') {
    status = 'neutral'
    text = order.cancelBy === 'operator' ? t('order.notice.refunded') : t('order.notice.cancelled')
  }
  return (
    <Alert.Root status={status} data-testid="order-notice" data-status={s}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{text}</Alert.Description>
      </Alert.Content>
      {s === 'PENDING' && (
        <HStack gap="1.5" flexShrink={0} alignSelf="center" fontWeight="bold" fontVariantNumeric="tabular-nums" fontSize="lg">
          <LuClock aria-hidden="true" />
          <Text as="span" role="timer" aria-label={t('order.countdownLabel', { time: formatCountdown(left) })} data-testid="order-countdown">
            {formatCountdown(left)}
          </Text>
        </HStack>
      )}
    </Alert.Root>
  )
}

/** Where the buyer pays: the seller's accounts, each value with a copy button. */
function PaymentAccounts({ order, role, t }: { order: Order; role: Role; t: TranslateFn }) {
  const { lan } = p2pTexts.useTexts()
  const kinds = usePublicInfo().data?.payments
  const methods = order.payments ?? []
  if (methods.length === 0) return null
  return (
    <Card.Root as="section" aria-labelledby="p2p-pay-accounts">
      <Card.Header pb="2">
        <HStack justify="space-between" gap="2" flexWrap="wrap">
          <Heading as="h2" id="p2p-pay-accounts" size="sm">
            {t(role === 'seller' ? 'order.accountsSeller' : order.status === 'PENDING' ? 'order.accountsBuyer' : 'order.accountsPaid')}
          </Heading>
          <KindTags kinds={methods.map((m) => m.kind)} t={t} />
        </HStack>
      </Card.Header>
      <Card.Body pt="0">
        <Stack gap="3" data-testid="order-accounts">
          {methods.map((m) => (
            <Box key={m.id} borderWidth="1px" rounded="md" p="3" data-testid="order-account">
              <Text fontWeight="semibold" mb="2">
                {methodTitle(m, lan, kinds)}
              </Text>
              <Box as="dl" display="grid" gridTemplateColumns="auto 1fr auto" columnGap="3" rowGap="1" m="0" alignItems="center" textStyle="sm">
                <Text as="dt" color="fg.muted">{t('order.holder')}</Text>
                <Text as="dd" m="0" data-testid="order-account-holder">{m.userName}</Text>
                <CopyButton value={m.userName} label={t('order.copyHolder')} copiedLabel={t('copied')} />
                <Text as="dt" color="fg.muted">{t(m.kind === 'bank' ? 'order.iban' : 'order.phone')}</Text>
                <Text as="dd" m="0" fontFamily="mono" wordBreak="break-all" data-testid="order-account-number">{m.account}</Text>
                <CopyButton value={m.account} label={t('order.copyAccount')} copiedLabel={t('copied')} testId="order-account-copy" />
              </Box>
            </Box>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}

/** The appeal: who appealed, why, the evidence, and the operator's decision once there is one. */
function AppealCard({ order, uid, t }: { order: Order; uid?: string | number; t: TranslateFn }) {
  const appeal = order.appeal!
  const mine = uid !== undefined && appeal.by === String(uid)
  return (
    <Card.Root as="section" aria-labelledby="p2p-appeal" borderColor={appeal.status === 'open' ? 'border.error' : undefined} data-testid="order-appeal" data-appeal={appeal.status}>
      <Card.Header pb="2">
        <HStack justify="space-between" gap="2">
          <Heading as="h2" id="p2p-appeal" size="sm">
            {t('order.appealHeading')}
          </Heading>
          <LabelBadge label={appealLabel(appeal)} t={t} testId="appeal-status" status={appeal.status} />
        </HStack>
      </Card.Header>
      <Card.Body pt="0">
        <Stack gap="2" textStyle="sm">
          <Text color="fg.muted">
            {t(mine ? 'order.appealByYou' : 'order.appealByPeer', { time: formatDateTime(appeal.ctime) })}
          </Text>
          <Text>
            <Text as="span" fontWeight="medium">{t('order.appealReason')}: </Text>
            {t(`reasons.${appeal.reason}`) || appeal.reason}
          </Text>
          <Text whiteSpace="pre-wrap">{appeal.description}</Text>
          {appeal.evidence && appeal.evidence.length > 0 && (
            <HStack gap="2" flexWrap="wrap">
              {appeal.evidence.map((id, i) => (
                <UploadImage key={id} orderId={order.id} id={id} alt={t('order.evidenceN', { n: i + 1 })} unavailable={t('chat.imageUnavailable')} size="16" />
              ))}
            </HStack>
          )}
          {(appeal.status === 'decided' || appeal.status === 'resolved') && (
            <Alert.Root status={appeal.outcome === 'release' ? 'success' : 'info'} mt="2" data-testid="appeal-outcome" data-outcome={appeal.outcome}>
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>
                  {appeal.status === 'resolved' ? t('order.outcome.resolved') : t(`order.outcome.${appeal.outcome === 'release' ? 'release' : 'refund'}`)}
                </Alert.Title>
                {appeal.note && <Alert.Description data-testid="appeal-note">{t('order.outcome.note', { note: appeal.note })}</Alert.Description>}
                {appeal.decidedAt ? <Alert.Description>{formatDateTime(appeal.decidedAt)}</Alert.Description> : null}
              </Alert.Content>
            </Alert.Root>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
