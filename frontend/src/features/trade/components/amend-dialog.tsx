import { Button, chakra, Dialog, Field, HStack, IconButton, Input, InputGroup, Portal, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { LuPencil } from 'react-icons/lu'
import { useTexts } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { amendOrder, pairsQuery } from '../api/trade-api'
import { canAmend, validateAmend, type AmendableOrder } from '../lib/amend'
import { finishedNumber, useNumberInput } from '@/lib/number-input'
import { fixed, groupThousands, placesOf } from '@/lib/decimal'

/** What the amend dialog shows of an order. */
export interface AmendTarget extends AmendableOrder {
  order_id: string
  symbol: string
  side: string
}

/**
 * The pencil beside an open order's amount that opens the amend dialog (only
 * for orders that can be amended). Named for screen readers by the order.
 */
export function AmendButton({ order, onAmend }: { order: AmendTarget; onAmend: (o: AmendTarget) => void }) {
  const { t } = useTexts('trade')
  if (!canAmend(order)) return null
  const label = t('amend.actionOf', { id: order.order_id })
  return (
    <IconButton size="2xs" variant="ghost" aria-label={label} title={t('amend.action')} ms="1" verticalAlign="middle" onClick={() => onAmend(order)} data-testid="amend-order">
      <LuPencil />
    </IconButton>
  )
}

/**
 * Reduces an open order's amount (/order/amend): the new amount, checked
 * against the exchange's rules before it is sent, with the order's price,
 * amount and filled part for reference. The price and the order's place in
 * the book stay; what it no longer holds is released. Enter sends, Esc or
 * "Keep" closes; a refused amend keeps the dialog open (the server's reason
 * is shown by the request client).
 */
export function AmendDialog({
  order,
  onClose,
  onAmended,
}: {
  order: AmendTarget | null
  onClose: () => void
  /** Called once the exchange has taken the new amount (before the dialog closes). */
  onAmended?: () => void
}) {
  return (
    <Dialog.Root open={!!order} onOpenChange={(d) => !d.open && onClose()} placement="center" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>{order && <AmendForm order={order} onClose={onClose} onAmended={onAmended} />}</Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function AmendForm({ order, onClose, onAmended }: { order: AmendTarget; onClose: () => void; onAmended?: () => void }) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const pair = useQuery(pairsQuery).data?.find((p) => p.symbol === order.symbol)
  // Without the pair's rules (the pair list could not be read) the amount and filled part still bound the new
  // amount; the exchange checks the rest.
  const rules = pair ?? { symbol: order.symbol, base: '', quote: '', pricePrecision: 8, volumePrecision: 8, priceTick: '', lotSize: '', minQty: '', minNotional: '' }
  const [amount, setAmount] = useState('')
  const [showError, setShowError] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const places = pair ? placesOf(pair.lotSize) : 8
  // Cleaned as the order form's fields are, saying why when that changed the number.
  const { noticeText, onInput, onBlur } = useNumberInput(amount, places, setAmount, t)
  const error = validateAmend(order, amount, rules)
  const coin = pair?.base ?? ''
  const amend = useMutation({
    mutationFn: (volume: string) => amendOrder(order.symbol, order.order_id, volume),
    onSuccess: async () => {
      notifySuccess(t('amend.done'))
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] }),
        queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] }),
      ])
      onAmended?.()
      onClose()
    },
    // A refused amend has had its toast from the request client; a transport failure has not.
    onError: (e) => {
      if (!(e instanceof ApiError)) notifyError(t('amend.unreachable'))
    },
  })
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setShowError(true)
    if (!error) amend.mutate(finishedNumber(amount))
    else input.current?.focus()
  }
  const price = pair && Number(order.price) > 0 ? `${fixed(order.price, pair.pricePrecision)} ${pair.quote}` : '—'
  const errorText =
    showError && error
      ? t(`amend.errors.${error.key}`, error.vars && Object.fromEntries(Object.entries(error.vars).map(([k, v]) => [k, k === 'coin' ? v : groupThousands(v)])))
      : undefined
  return (
    <Dialog.Content mx="4" data-testid="amend-dialog" asChild>
      <chakra.form onSubmit={submit} noValidate>
        <Dialog.Header>
          <Dialog.Title>{t('amend.title')}</Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>
          <Stack gap="3">
            <Dialog.Description asChild>
              <Stack gap="1" fontSize="sm" data-testid="amend-summary">
                <HStack gap="2" fontWeight="semibold">
                  <Text>{pair?.showName ?? order.symbol.toUpperCase()}</Text>
                  <Text color={order.side === 'BUY' ? 'up' : 'down'}>{t(order.side === 'BUY' ? 'form.buy' : 'form.sell')}</Text>
                  <Text>{t(`form.types.${order.type}`)}</Text>
                </HStack>
                <HStack justify="space-between">
                  <Text color="fg.muted">{t('amend.price')}</Text>
                  <Text fontVariantNumeric="tabular-nums">{price}</Text>
                </HStack>
                <HStack justify="space-between">
                  <Text color="fg.muted">{t('amend.amount')}</Text>
                  <Text fontVariantNumeric="tabular-nums" data-testid="amend-current">
                    {fixed(order.volume, places)} {coin}
                  </Text>
                </HStack>
                <HStack justify="space-between">
                  <Text color="fg.muted">{t('amend.filled')}</Text>
                  <Text fontVariantNumeric="tabular-nums">
                    {fixed(order.deal_volume || '0', places)} {coin}
                  </Text>
                </HStack>
              </Stack>
            </Dialog.Description>
            <Field.Root invalid={!!errorText}>
              <Field.Label>{t('amend.newAmount')}</Field.Label>
              <InputGroup endElement={<Text fontSize="xs" color="fg.muted">{coin}</Text>}>
                <Input
                  ref={input}
                  inputMode="decimal"
                  autoComplete="off"
                  value={amount}
                  onChange={(e) => onInput(e.target.value)}
                  onBlur={onBlur}
                  fontVariantNumeric="tabular-nums"
                  data-testid="amend-amount"
                />
              </InputGroup>
              {errorText && <Field.ErrorText data-testid="amend-amount-error">{errorText}</Field.ErrorText>}
              <Field.HelperText>
                {noticeText && (
                  <chakra.span display="block" data-testid="amend-amount-notice">
                    {noticeText}
                  </chakra.span>
                )}
                {t('amend.hint')}
              </Field.HelperText>
              <VisuallyHidden aria-live="polite">{noticeText}</VisuallyHidden>
            </Field.Root>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Button type="button" variant="outline" onClick={onClose} data-testid="amend-keep">
            {t('amend.keep')}
          </Button>
          <Button type="submit" colorPalette="brand" loading={amend.isPending} data-testid="amend-submit">
            {t('amend.submit')}
          </Button>
        </Dialog.Footer>
      </chakra.form>
    </Dialog.Content>
  )
}
