import { Button, chakra, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { futuresTexts } from '../lib/texts'

/** One choice of a {@link ChoiceDialog}. */
export interface Choice<V> {
  value: V
  /** Names the choice in test ids (`${testId}-${key}`). */
  key: string
  title: string
  hint: string
}

/**
 * A setting chosen among a few, each explained (the margin mode, the
 * position mode): a radio group (arrow keys move between the choices),
 * Cancel and Confirm. Confirm with the current value closes it; otherwise
 * it calls `onConfirm` with the choice, and the host closes it once that
 * was saved (a refusal's toast shows while it stays open).
 */
export function ChoiceDialog<V extends string | number>({
  open,
  onClose,
  title,
  label,
  choices,
  value,
  note,
  busy,
  onConfirm,
  testId,
}: {
  open: boolean
  onClose: () => void
  title: string
  /** The radio group's name. */
  label: string
  choices: Choice<V>[]
  /** The current setting. */
  value: V
  note?: string
  busy: boolean
  onConfirm: (chosen: V) => void
  /** The dialog's is `${testId}-dialog`, its buttons' `${testId}-cancel` and `${testId}-confirm`. */
  testId: string
}) {
  const { t } = futuresTexts.useTexts()
  const [chosen, setChosen] = useState<V>(value)
  useEffect(() => {
    if (open) setChosen(value)
  }, [open, value])
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && !busy && onClose()} placement="center" size="sm" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="3" data-testid={`${testId}-dialog`}>
            <Dialog.Header pb="2">
              <Dialog.Title fontSize="md">{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3" fontSize="sm">
                <Stack gap="2" role="radiogroup" aria-label={label}>
                  {choices.map((c, i) => (
                    <chakra.button
                      key={c.key}
                      type="button"
                      role="radio"
                      aria-checked={chosen === c.value}
                      onClick={() => setChosen(c.value)}
                      onKeyDown={(e) => {
                        const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0
                        if (!step) return
                        e.preventDefault()
                        const j = (i + step + choices.length) % choices.length
                        setChosen(choices[j].value)
                        e.currentTarget.parentElement?.querySelector<HTMLElement>(`[data-choice="${choices[j].key}"]`)?.focus()
                      }}
                      tabIndex={chosen === c.value ? 0 : -1}
                      data-choice={c.key}
                      textAlign="start"
                      p="3"
                      rounded="md"
                      borderWidth={chosen === c.value ? '2px' : '1px'}
                      borderColor={chosen === c.value ? 'brand.solid' : 'border'}
                      bg={chosen === c.value ? 'brand.subtle' : 'transparent'}
                      focusVisibleRing="outside"
                      cursor="pointer"
                      data-testid={`${testId}-${c.key}`}
                    >
                      <Text fontWeight="semibold">{c.title}</Text>
                      <Text fontSize="xs" color="fg.muted">
                        {c.hint}
                      </Text>
                    </chakra.button>
                  ))}
                </Stack>
                {note && (
                  <Text fontSize="xs" color="fg.muted">
                    {note}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" size="sm" disabled={busy} onClick={onClose} data-testid={`${testId}-cancel`}>
                {t('common.cancel')}
              </Button>
              <BusyButton size="sm" colorPalette="brand" loading={busy} onClick={() => (chosen === value ? onClose() : onConfirm(chosen))} data-testid={`${testId}-confirm`}>
                {t('common.confirm')}
              </BusyButton>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} disabled={busy} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
