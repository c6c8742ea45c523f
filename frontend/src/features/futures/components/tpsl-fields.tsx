import { Button, chakra, HStack, Text } from '@chakra-ui/react'
import { NumberField } from '@/components/form/number-field'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import type { TriggerBy } from '../api/futures-api'
import { pnlColor, signedMoney } from '../lib/format'
import type { TpslError, TpslKind } from '../lib/tpsl'
import { futuresTexts } from '../lib/texts'

/** The prices a TP/SL can watch. */
export const TRIGGER_BY: readonly TriggerBy[] = ['MARK', 'LAST']

/** Mark or Last: the price the take-profit and stop-loss watch (a pair of pressed buttons). */
export function TriggerByToggle({ value, onChange, testId }: { value: TriggerBy; onChange: (v: TriggerBy) => void; testId: string }) {
  const { t } = futuresTexts.useTexts()
  return (
    <HStack justify="space-between" gap="2" fontSize="xs">
      <Text color="fg.muted" id={`${testId}-label`}>
        {t('tpsl.triggerBy')}
      </Text>
      <HStack gap="0" borderWidth="1px" rounded="md" p="0.5" role="group" aria-labelledby={`${testId}-label`}>
        {TRIGGER_BY.map((by) => (
          <Button
            key={by}
            type="button"
            size="2xs"
            px="2"
            variant={value === by ? 'subtle' : 'ghost'}
            aria-pressed={value === by}
            onClick={() => onChange(by)}
            data-testid={`${testId}-${by.toLowerCase()}`}
          >
            {t(`tpsl.by.${by}`)}
          </Button>
        ))}
      </HStack>
    </HStack>
  )
}

/** A TP/SL error in words, its prices at the contract's places. */
export function tpslErrorText(t: TranslateFn, error: TpslError | undefined, places: number): string | undefined {
  if (!error) return undefined
  const vars = error.vars?.price ? { ...error.vars, price: fixed(error.vars.price, places) } : error.vars
  return t(`tpsl.errors.${error.key}`, vars)
}

/**
 * The trigger price of a take-profit or a stop-loss, with the PnL the
 * position would have if it closed there (before fees), coloured by its sign.
 */
export function TpslField({
  kind,
  value,
  onChange,
  error,
  pnl,
  pnlSide,
  coin,
  quote,
  places,
  testId,
}: {
  kind: TpslKind
  value: string
  onChange: (v: string) => void
  error?: string
  /** The estimated PnL at the typed price (undefined: nothing to show). */
  pnl?: string
  /** The side the estimate is of, when the form has both. */
  pnlSide?: string
  coin: string
  quote: string
  places: number
  testId: string
}) {
  const { t } = futuresTexts.useTexts()
  return (
    <NumberField
      label={t(`tpsl.${kind}`)}
      value={value}
      onChange={onChange}
      unit={quote}
      places={places}
      error={error}
      testId={testId}
      t={t}
      hint={
        pnl !== undefined ? (
          <chakra.span display="block">
            {pnlSide ? t('tpsl.estPnlOf', { side: pnlSide }) : t('tpsl.estPnl')}{' '}
            <chakra.span color={pnlColor(pnl)} fontVariantNumeric="tabular-nums" data-testid={`${testId}-pnl`}>
              {signedMoney(pnl)} {coin}
            </chakra.span>
          </chakra.span>
        ) : undefined
      }
    />
  )
}
