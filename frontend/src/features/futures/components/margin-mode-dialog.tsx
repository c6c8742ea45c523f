import { Button, chakra, CloseButton, Dialog, Portal, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { notifySuccess } from '@/lib/notify'
import { futuresKeys, MARGIN_CROSS, MARGIN_ISOLATED, setMarginMode, type MarginMode, type UserConfig } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { notifyTransport } from './shared'

const MODES: { mode: MarginMode; key: 'cross' | 'isolated' }[] = [
  { mode: MARGIN_CROSS, key: 'cross' },
  { mode: MARGIN_ISOLATED, key: 'isolated' },
]

/**
 * The margin mode of a contract: Cross (the account's whole balance backs
 * its positions) or Isolated (each position its own margin), each
 * explained. Confirm saves it (/user/margin_model_edit); the server refuses
 * it while the contract has a position or open orders, and its message
 * shows in a toast while the dialog stays open.
 */
export function MarginModeDialog({ open, onClose, symbol, mode }: { open: boolean; onClose: () => void; symbol: string; mode: MarginMode }) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const [chosen, setChosen] = useState<MarginMode>(mode)
  useEffect(() => {
    if (open) setChosen(mode)
  }, [open, mode])
  const save = useMutation({
    mutationFn: () => setMarginMode(symbol, chosen),
    onSuccess: (config) => {
      if (config && typeof config === 'object') queryClient.setQueryData<UserConfig>(futuresKeys.config(symbol), config)
      void queryClient.invalidateQueries({ queryKey: futuresKeys.config(symbol) })
      notifySuccess(t('marginMode.done', { symbol, mode: t(chosen === MARGIN_ISOLATED ? 'marginMode.isolated' : 'marginMode.cross') }))
      onClose()
    },
    onError: (error) => notifyTransport(error, t('common.unreachable')),
  })
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && !save.isPending && onClose()} placement="center" size="sm" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="3" data-testid="margin-mode-dialog">
            <Dialog.Header pb="2">
              <Dialog.Title fontSize="md">{t('marginMode.title', { symbol })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3" fontSize="sm">
                <Stack gap="2" role="radiogroup" aria-label={t('marginMode.label')}>
                  {MODES.map(({ mode: m, key }) => (
                    <chakra.button
                      key={m}
                      type="button"
                      role="radio"
                      aria-checked={chosen === m}
                      onClick={() => setChosen(m)}
                      onKeyDown={(e) => {
                        if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
                          e.preventDefault()
                          setChosen(m === MARGIN_CROSS ? MARGIN_ISOLATED : MARGIN_CROSS)
                          const next = e.currentTarget.parentElement?.querySelector<HTMLElement>(`[data-mode="${m === MARGIN_CROSS ? MARGIN_ISOLATED : MARGIN_CROSS}"]`)
                          next?.focus()
                        }
                      }}
                      tabIndex={chosen === m ? 0 : -1}
                      data-mode={m}
                      textAlign="start"
                      p="3"
                      rounded="md"
                      borderWidth={chosen === m ? '2px' : '1px'}
                      borderColor={chosen === m ? 'brand.solid' : 'border'}
                      bg={chosen === m ? 'brand.subtle' : 'transparent'}
                      focusVisibleRing="outside"
                      cursor="pointer"
                      data-testid={`margin-mode-${key}`}
                    >
                      <Text fontWeight="semibold">{t(`marginMode.${key}`)}</Text>
                      <Text fontSize="xs" color="fg.muted">
                        {t(`marginMode.${key}Hint`)}
                      </Text>
                    </chakra.button>
                  ))}
                </Stack>
                <Text fontSize="xs" color="fg.muted">
                  {t('marginMode.note')}
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" size="sm" disabled={save.isPending} onClick={onClose} data-testid="margin-mode-cancel">
                {t('common.cancel')}
              </Button>
              <BusyButton
                size="sm"
                colorPalette="brand"
                loading={save.isPending}
                onClick={() => (chosen === mode ? onClose() : save.mutate())}
                data-testid="margin-mode-confirm"
              >
                {t('common.confirm')}
              </BusyButton>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} disabled={save.isPending} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
