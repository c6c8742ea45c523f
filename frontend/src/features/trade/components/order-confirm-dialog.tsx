import { Button, Checkbox, Dialog, HStack, Portal, Stack, Text } from '@chakra-ui/react'
import { useRef, useState } from 'react'
import { useTexts } from '@/lib/i18n'

/** A row of the order summary: a label and its value. */
export interface SummaryRow {
  label: string
  value: string
  testId?: string
}

/** What the confirmation shows: why it asks, and the order. */
export interface OrderConfirmContent {
  /** Why the order is worth a second look (the far price or the slippage, with the figures). */
  warning: string
  /** The order's first line (pair, side, type). */
  heading: string
  rows: SummaryRow[]
}

/** Props of {@link OrderConfirmDialog}. */
export interface OrderConfirmDialogProps {
  /** The confirmation to ask; null while none is asked. */
  content: OrderConfirmContent | null
  /** Colours of the Confirm button (the side's, as the form's submit). */
  confirmColors: { bg: string; color: { _light: string; _dark: string } }
  /** The order is confirmed; dontAsk when "Don't ask again" was ticked. */
  onConfirm: (dontAsk: boolean) => void
  /** Closed without sending (Cancel, Esc or a click outside). */
  onCancel: () => void
  /** Where focus goes when the dialog closes (the form's submit button). */
  finalFocus?: () => HTMLElement | null
}

/**
 * Asks before an order that is likely a mistake is sent (an alert dialog):
 * says why (a limit price far from the last price, a market order's
 * slippage) with the figures, shows the order, and sends it only on
 * Confirm. Cancel, Esc or a click outside send nothing and return focus to
 * the form. "Don't ask again" turns that confirmation off with the Confirm.
 * Focus starts on Cancel, so an Enter pressed out of habit sends nothing.
 */
export function OrderConfirmDialog({ content, confirmColors, onConfirm, onCancel, finalFocus }: OrderConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null)
  return (
    <Dialog.Root
      open={!!content}
      onOpenChange={(d) => !d.open && onCancel()}
      role="alertdialog"
      placement="center"
      size="xs"
      lazyMount
      unmountOnExit
      initialFocusEl={() => cancel.current}
      finalFocusEl={finalFocus}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>{content && <ConfirmBody content={content} confirmColors={confirmColors} onConfirm={onConfirm} onCancel={onCancel} cancel={cancel} />}</Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function ConfirmBody({
  content,
  confirmColors,
  onConfirm,
  onCancel,
  cancel,
}: Omit<OrderConfirmDialogProps, 'content' | 'finalFocus'> & { content: OrderConfirmContent; cancel: React.RefObject<HTMLButtonElement | null> }) {
  const { t } = useTexts('trade')
  const [dontAsk, setDontAsk] = useState(false)
  // Sent once: a second click (or Enter) before the dialog has gone does nothing.
  const done = useRef(false)
  return (
    <Dialog.Content mx="3" data-testid="order-confirm-dialog">
      <Dialog.Header pb="2">
        <Dialog.Title fontSize="md">{t('form.confirm.title')}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="3" fontSize="sm">
          <Dialog.Description asChild>
            <Stack gap="1">
              <Text color="fg.warning" data-testid="order-confirm-warning">
                {content.warning}
              </Text>
              <Text>{t('form.confirm.question')}</Text>
            </Stack>
          </Dialog.Description>
          <Stack gap="1" borderWidth="1px" rounded="md" p="2" data-testid="order-confirm-summary">
            <Text fontWeight="semibold">{content.heading}</Text>
            {content.rows.map((r) => (
              <HStack key={r.label} justify="space-between" gap="2" align="start">
                <Text color="fg.muted" flexShrink={0}>
                  {r.label}
                </Text>
                <Text fontVariantNumeric="tabular-nums" textAlign="end" minW="0" overflowWrap="anywhere" data-testid={r.testId}>
                  {r.value}
                </Text>
              </HStack>
            ))}
          </Stack>
          <Checkbox.Root size="sm" checked={dontAsk} onCheckedChange={(e) => setDontAsk(e.checked === true)} data-testid="order-confirm-dont-ask">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label fontWeight="normal">{t('form.confirm.dontAsk')}</Checkbox.Label>
          </Checkbox.Root>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button ref={cancel} type="button" variant="outline" size="sm" onClick={onCancel} data-testid="order-confirm-cancel">
          {t('form.confirm.cancel')}
        </Button>
        <Button
          type="button"
          size="sm"
          bg={confirmColors.bg}
          color={confirmColors.color}
          onClick={() => {
            if (done.current) return
            done.current = true
            onConfirm(dontAsk)
          }}
          data-testid="order-confirm"
        >
          {t('form.confirm.confirm')}
        </Button>
      </Dialog.Footer>
    </Dialog.Content>
  )
}
