import { Box, Button, chakra, CloseButton, Dialog, HStack, IconButton, Input, Portal, Slider, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { LuMinus, LuPlus } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { fixed } from '@/lib/decimal'
import { notifySuccess } from '@/lib/notify'
import { notifyTransport } from './shared'
import { futuresKeys, setLeverage, type Tier, type UserConfig } from '../api/futures-api'
import { maxNotionalAt } from '../lib/margin'
import { futuresTexts } from '../lib/texts'

/** Above this leverage the dialog warns of the liquidation risk (as the big venues do). */
export const HIGH_LEVERAGE = 20

/** The slider's marks: 1×, quarters of the maximum and the maximum, each once. */
export function leverageMarks(max: number): number[] {
  const top = Math.max(1, Math.trunc(max))
  const marks = [1, Math.round(top / 4), Math.round(top / 2), Math.round((3 * top) / 4), top].filter((m) => m >= 1)
  return [...new Set(marks)].sort((a, b) => a - b)
}

/** A typed leverage as a whole number within 1..max, or undefined while it is not one. */
export function clampLeverage(value: string | number, max: number): number | undefined {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN
  if (!Number.isFinite(n)) return undefined
  return Math.min(Math.max(1, Math.trunc(n)), Math.max(1, Math.trunc(max)))
}

/**
 * The leverage of a contract: a slider from 1× to the highest leverage the
 * position's size allows, buttons and a field for an exact value, and the
 * largest position the chosen leverage allows (the tier table's notional
 * limit). Confirm saves it (/user/level_edit); a refusal keeps the dialog
 * open with the server's message in a toast.
 */
export function LeverageDialog({
  open,
  onClose,
  symbol,
  quote,
  leverage,
  maxLeverage,
  tiers,
}: {
  open: boolean
  onClose: () => void
  symbol: string
  quote: string
  leverage: number
  maxLeverage: number
  tiers: readonly Tier[] | undefined
}) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const max = Math.max(1, Math.trunc(maxLeverage))
  const [value, setValue] = useState(leverage)
  const [typed, setTyped] = useState(String(leverage))
  const inputId = useId()
  // Each opening starts from the saved leverage.
  useEffect(() => {
    if (open) {
      setValue(Math.min(Math.max(1, leverage), max))
      setTyped(String(Math.min(Math.max(1, leverage), max)))
    }
  }, [open, leverage, max])
  const choose = (n: number) => {
    const v = clampLeverage(n, max) ?? 1
    setValue(v)
    setTyped(String(v))
  }
  const save = useMutation({
    mutationFn: () => setLeverage(symbol, value),
    onSuccess: (config) => {
      if (config && typeof config === 'object') queryClient.setQueryData<UserConfig>(futuresKeys.config(symbol), config)
      void queryClient.invalidateQueries({ queryKey: futuresKeys.config(symbol) })
      void queryClient.invalidateQueries({ queryKey: futuresKeys.assets })
      notifySuccess(t('leverage.done', { symbol, leverage: value }))
      onClose()
    },
    onError: (error) => notifyTransport(error, t('common.unreachable')),
  })
  const cap = maxNotionalAt(tiers, value)
  const marks = leverageMarks(max)
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && !save.isPending && onClose()} placement="center" size="sm" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="3" data-testid="leverage-dialog">
            <Dialog.Header pb="2">
              <Dialog.Title fontSize="md">{t('leverage.title', { symbol })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4" fontSize="sm">
                <Stack gap="1">
                  <chakra.label htmlFor={inputId} color="fg.muted" fontSize="xs">
                    {t('leverage.label')}
                  </chakra.label>
                  <HStack gap="1" borderWidth="1px" rounded="md" p="1">
                    <IconButton size="sm" variant="ghost" aria-label={t('leverage.less')} disabled={value <= 1} onClick={() => choose(value - 1)} data-testid="leverage-minus">
                      <LuMinus aria-hidden="true" />
                    </IconButton>
                    <Input
                      id={inputId}
                      unstyled
                      flex="1"
                      textAlign="center"
                      fontWeight="semibold"
                      fontSize="md"
                      inputMode="numeric"
                      autoComplete="off"
                      value={typed}
                      aria-describedby={`${inputId}-range`}
                      onChange={(e) => {
                        const raw = e.target.value.replace(/[^\d]/g, '')
                        setTyped(raw)
                        const v = clampLeverage(raw, max)
                        if (v !== undefined && raw !== '') setValue(v)
                      }}
                      onBlur={() => setTyped(String(value))}
                      data-testid="leverage-input"
                    />
                    <Text color="fg.muted" aria-hidden="true">
                      ×
                    </Text>
                    <IconButton size="sm" variant="ghost" aria-label={t('leverage.more')} disabled={value >= max} onClick={() => choose(value + 1)} data-testid="leverage-plus">
                      <LuPlus aria-hidden="true" />
                    </IconButton>
                  </HStack>
                  <Text id={`${inputId}-range`} fontSize="xs" color="fg.muted">
                    {t('leverage.range', { max })}
                  </Text>
                </Stack>
                <Slider.Root
                  size="sm"
                  min={1}
                  max={max}
                  step={1}
                  value={[value]}
                  onValueChange={(e) => choose(e.value[0] ?? 1)}
                  colorPalette="brand"
                  getAriaValueText={({ value: v }) => `${v}×`}
                  aria-label={[t('leverage.label')]}
                  data-testid="leverage-slider"
                >
                  <Box px="2" pb="5">
                    <Slider.Control>
                      <Slider.Track>
                        <Slider.Range />
                      </Slider.Track>
                      <Slider.Thumbs />
                      <Slider.MarkerGroup>
                        {marks.map((m) => (
                          <Slider.Marker key={m} value={m}>
                            <Slider.MarkerIndicator />
                            <Slider.MarkerLabel
                              cursor="pointer"
                              px="1"
                              fontVariantNumeric="tabular-nums"
                              onPointerDown={(e) => {
                                e.stopPropagation()
                                e.preventDefault()
                                choose(m)
                              }}
                              onClick={() => choose(m)}
                              data-testid={`leverage-mark-${m}`}
                            >
                              {m}×
                            </Slider.MarkerLabel>
                          </Slider.Marker>
                        ))}
                      </Slider.MarkerGroup>
                    </Slider.Control>
                  </Box>
                </Slider.Root>
                <Text data-testid="leverage-max-position">
                  {cap
                    ? t('leverage.maxPosition', { amount: fixed(cap, 0), coin: quote, leverage: value })
                    : t('leverage.maxPositionUnknown')}
                </Text>
                {value > HIGH_LEVERAGE && (
                  <Text color="fg.warning" fontSize="xs" role="note" data-testid="leverage-warning">
                    {t('leverage.warning', { leverage: HIGH_LEVERAGE })}
                  </Text>
                )}
                <Text color="fg.muted" fontSize="xs">
                  {t('leverage.hint')}
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" size="sm" disabled={save.isPending} onClick={onClose} data-testid="leverage-cancel">
                {t('common.cancel')}
              </Button>
              <BusyButton size="sm" colorPalette="brand" loading={save.isPending} onClick={() => save.mutate()} data-testid="leverage-confirm">
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
