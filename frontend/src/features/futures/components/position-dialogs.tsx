import { Button, CloseButton, Dialog, HStack, Portal, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { NumberField } from '@/components/form/number-field'
import { tickerQuery } from '@/features/trade/api/trade-api'
import { cmpDec, parseDec, placesOf, truncateDecimals } from '@/lib/decimal'
import { notifySuccess } from '@/lib/notify'
import { changePositionMargin, createOrder, FUTURES_API, type ContractInfo, type PositionView } from '../api/futures-api'
import { useRefreshFutures } from '../api/use-futures'
import { liquidationText, money, MONEY_SHOWN, spendable } from '../lib/format'
import { baseSize } from '../lib/margin'
import { hedgeSideOf } from '../lib/hedge'
import { buildOrder, closingSide, draftErrorKey, validateDraft } from '../lib/order'
import { futuresTexts } from '../lib/texts'
import { notifyTransport } from './shared'

/** A dialog frame of the positions: title, body, Cancel and the action (which waits while it runs). */
export function Frame({
  open,
  onClose,
  title,
  busy,
  action,
  onAction,
  testId,
  children,
}: {
  open: boolean
  onClose: () => void
  title: string
  busy: boolean
  action: string
  onAction: () => void
  testId: string
  children: React.ReactNode
}) {
  const { t } = futuresTexts.useTexts()
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && !busy && onClose()} placement="center" size="sm" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="3" data-testid={testId}>
            <Dialog.Header pb="2">
              <Dialog.Title fontSize="md">{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form
                id={`${testId}-form`}
                noValidate
                onSubmit={(e) => {
                  e.preventDefault()
                  onAction()
                }}
              >
                <Stack gap="3" fontSize="sm">
                  {children}
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" size="sm" disabled={busy} onClick={onClose} data-testid={`${testId}-cancel`}>
                {t('common.cancel')}
              </Button>
              <BusyButton type="submit" form={`${testId}-form`} size="sm" colorPalette="brand" loading={busy} data-testid={`${testId}-confirm`}>
                {action}
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

/** A label and its figure in a dialog. */
export function Row({ label, value, testId, color }: { label: string; value: string; testId?: string; color?: string }) {
  return (
    <HStack justify="space-between" gap="2">
      <Text color="fg.muted">{label}</Text>
      <Text fontVariantNumeric="tabular-nums" color={color} data-testid={testId}>
        {value}
      </Text>
    </HStack>
  )
}

/**
 * Adds margin to an isolated position (from the available balance, up to
 * all of it) or removes some (the server refuses what the position needs
 * to stay open, with its message in a toast).
 */
export function AdjustMarginDialog({
  position,
  contract,
  available,
  onClose,
}: {
  position: PositionView | null
  contract: ContractInfo | undefined
  available: string | undefined
  onClose: () => void
}) {
  const { t } = futuresTexts.useTexts()
  const refresh = useRefreshFutures()
  const [kind, setKind] = useState<1 | 2>(1)
  const [amount, setAmount] = useState('')
  const [error, setError] = useState<string>()
  useEffect(() => {
    if (position) {
      setKind(1)
      setAmount('')
      setError(undefined)
    }
  }, [position])
  const save = useMutation({
    mutationFn: () => changePositionMargin(position!.symbol, amount, kind, hedgeSideOf(position!)),
    onSuccess: () => {
      notifySuccess(t(kind === 1 ? 'adjust.added' : 'adjust.removed', { amount: money(amount), coin: contract?.marginCoin ?? '' }))
      refresh()
      onClose()
    },
    onError: (e) => notifyTransport(e, t('common.unreachable')),
  })
  const coin = contract?.marginCoin ?? ''
  const submit = () => {
    const a = parseDec(amount)
    if (!a) return setError(t('adjust.errors.required'))
    if (a.units <= 0n) return setError(t('adjust.errors.zero'))
    const avail = parseDec(available)
    if (kind === 1 && avail && cmpDec(a, avail) > 0) return setError(t('adjust.errors.insufficient'))
    const margin = parseDec(position?.margin)
    if (kind === 2 && margin && cmpDec(a, margin) >= 0) return setError(t('adjust.errors.tooMuch'))
    setError(undefined)
    save.mutate()
  }
  return (
    <Frame
      open={!!position}
      onClose={onClose}
      title={t('adjust.title', { symbol: position?.symbol ?? '' })}
      busy={save.isPending}
      action={t(kind === 1 ? 'adjust.add' : 'adjust.remove')}
      onAction={submit}
      testId="adjust-margin"
    >
      <HStack gap="0" borderWidth="1px" rounded="md" p="0.5" role="group" aria-label={t('adjust.kind')}>
        {([1, 2] as const).map((k) => (
          <Button
            key={k}
            type="button"
            flex="1"
            size="xs"
            variant={kind === k ? 'subtle' : 'ghost'}
            aria-pressed={kind === k}
            onClick={() => {
              setKind(k)
              setError(undefined)
            }}
            data-testid={`adjust-${k === 1 ? 'add' : 'remove'}`}
          >
            {t(k === 1 ? 'adjust.add' : 'adjust.remove')}
          </Button>
        ))}
      </HStack>
      <NumberField
        label={t('adjust.amount')}
        value={amount}
        onChange={(v) => {
          setAmount(v)
          setError(undefined)
        }}
        unit={coin}
        places={MONEY_SHOWN}
        error={error}
        testId="adjust-amount"
        t={t}
        end={
          kind === 1 && available ? (
            <Button type="button" size="2xs" variant="ghost" colorPalette="brand" px="1" onClick={() => setAmount(truncateDecimals(available, MONEY_SHOWN))} data-testid="adjust-max">
              {t('adjust.max')}
            </Button>
          ) : undefined
        }
      />
      <Row label={t('adjust.current')} value={`${money(position?.margin)} ${coin}`} testId="adjust-current" />
      {kind === 1 && <Row label={t('adjust.addable')} value={`${spendable(available)} ${coin}`} testId="adjust-addable" />}
      <Row label={t('positions.cols.liquidation')} value={liquidationText(position?.liquidationPrice, contract?.pricePrecision ?? 2)} />
      <Text fontSize="xs" color="fg.muted">
        {t(kind === 1 ? 'adjust.addHint' : 'adjust.removeHint')}
      </Text>
    </Frame>
  )
}

/**
 * Closes a position, or part of it, with a reduce-only limit order at a
 * price of the user's (the last price to start with).
 */
export function LimitCloseDialog({
  position,
  contract,
  closable,
  onClose,
}: {
  position: PositionView | null
  contract: ContractInfo | undefined
  /** Contracts a reduce-only order can still close (what the user's other closing orders leave). */
  closable: number
  onClose: () => void
}) {
  const { t } = futuresTexts.useTexts()
  const refresh = useRefreshFutures()
  const { data: ticker } = useQuery({ ...tickerQuery(contract?.marketSymbol ?? '', FUTURES_API), enabled: !!contract })
  const [price, setPrice] = useState('')
  const [volume, setVolume] = useState('')
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (position) {
      setPrice(ticker?.close || position.markPrice || '')
      setVolume(String(closable || position.volume))
      setShown(false)
    }
    // Filled in once, when the dialog opens for a position.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [position])
  const draft = {
    side: position ? closingSide(position.side) : ('SELL' as const),
    type: 'LIMIT' as const,
    price,
    volume,
    timeInForce: 'GTC' as const,
    reduceOnly: true,
    // In hedge mode the order names the position it closes (and is sent without reduceOnly).
    positionSide: hedgeSideOf(position ?? undefined),
  }
  const errors = contract ? validateDraft(draft, contract, { closable }) : []
  const errorOf = (field: 'price' | 'volume') => {
    const e = shown ? errors.find((x) => x.field === field) : undefined
    return e ? t(draftErrorKey(e), e.vars) : undefined
  }
  const place = useMutation({
    mutationFn: () => createOrder(buildOrder(draft, position!.symbol)),
    onSuccess: () => {
      notifySuccess(t('close.limitPlaced'))
      refresh()
      onClose()
    },
    onError: (e) => notifyTransport(e, t('form.unreachable')),
  })
  const places = contract ? Math.max(contract.pricePrecision, placesOf(contract.priceTick)) : 2
  return (
    <Frame
      open={!!position}
      onClose={onClose}
      title={t('close.limitTitle', { symbol: position?.symbol ?? '' })}
      busy={place.isPending}
      action={t('close.limitAction')}
      onAction={() => {
        setShown(true)
        if (errors.length === 0) place.mutate()
      }}
      testId="limit-close"
    >
      <Text>
        {position && t(position.side === 'LONG' ? 'close.limitBodyLong' : 'close.limitBodyShort', { volume: position.volume, unit: t('form.cont') })}
      </Text>
      <NumberField label={t('form.price')} value={price} onChange={setPrice} unit={contract?.quote ?? ''} places={places} error={errorOf('price')} testId="limit-close-price" t={t} />
      <NumberField
        label={t('form.size')}
        value={volume}
        onChange={setVolume}
        unit={t('form.cont')}
        places={0}
        error={errorOf('volume')}
        hint={contract && /^\d+$/.test(volume) ? `≈ ${baseSize(Number(volume), contract.contractValue, contract.sizePrecision)} ${contract.base}` : undefined}
        testId="limit-close-volume"
        t={t}
      />
    </Frame>
  )
}
