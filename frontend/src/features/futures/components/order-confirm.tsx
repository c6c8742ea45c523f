import { Button, Checkbox, Dialog, HStack, Portal, Stack, Text } from '@chakra-ui/react'
import { useRef, useState } from 'react'
import { futuresTexts } from '../lib/texts'

/** A row of the order summary. */
export interface ConfirmRow {
  label: string
  value: string
  testId?: string
}

/**
 * Asks before an order is sent (an alert dialog, while the user keeps the
 * order confirmation on): the order's contract, side and type, its figures,
 * and "Don't ask again", which turns the confirmation off with the Confirm.
 * Focus starts on Cancel, so an Enter pressed out of habit sends nothing.
 */
export function OrderConfirm({
  open,
  heading,
  rows,
  colors,
  onConfirm,
  onCancel,
}: {
  open: boolean
  heading: string
  rows: ConfirmRow[]
  colors: { bg: string; color: { _light: string; _dark: string } }
  onConfirm: (dontAsk: boolean) => void
  onCancel: () => void
}) {
  const { t } = futuresTexts.useTexts()
  const cancel = useRef<HTMLButtonElement>(null)
  const [dontAsk, setDontAsk] = useState(false)
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(d) => !d.open && onCancel()}
      role="alertdialog"
      placement="center"
      size="xs"
      lazyMount
      unmountOnExit
      initialFocusEl={() => cancel.current}
      onExitComplete={() => setDontAsk(false)}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="3" data-testid="futures-confirm">
            <Dialog.Header pb="2">
              <Dialog.Title fontSize="md">{t('form.confirm.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3" fontSize="sm">
                <Dialog.Description fontWeight="semibold">{heading}</Dialog.Description>
                <Stack gap="1" borderWidth="1px" rounded="md" p="2">
                  {rows.map((r) => (
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
                <Checkbox.Root size="sm" checked={dontAsk} onCheckedChange={(e) => setDontAsk(e.checked === true)} data-testid="futures-confirm-dont-ask">
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontWeight="normal">{t('form.confirm.dontAsk')}</Checkbox.Label>
                </Checkbox.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button ref={cancel} type="button" variant="outline" size="sm" onClick={onCancel} data-testid="futures-confirm-cancel">
                {t('common.cancel')}
              </Button>
              <Button type="button" size="sm" bg={colors.bg} color={colors.color} onClick={() => onConfirm(dontAsk)} data-testid="futures-confirm-send">
                {t('common.confirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
