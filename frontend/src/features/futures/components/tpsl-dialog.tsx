import { Text } from '@chakra-ui/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { tickerQuery } from '@/features/trade/api/trade-api'
import { fixed, placesOf } from '@/lib/decimal'
import { notifySuccess } from '@/lib/notify'
import { cancelTrigger, createTrigger, FUTURES_API, type ContractInfo, type PositionView, type TriggerBy, type TriggerOrder } from '../api/futures-api'
import { useRefreshFutures } from '../api/use-futures'
import { contracts as contractCount } from '../lib/format'
import { estimatePnl, TPSL_KINDS, tpslChanges, tpslDirection, tpslRequest, validateTpsl, type TpslChange, type TpslKind } from '../lib/tpsl'
import { hedgeSideOf } from '../lib/hedge'
import { futuresTexts } from '../lib/texts'
import { Frame, Row } from './position-dialogs'
import { notifyTransport } from './shared'
import { TpslField, tpslErrorText, TriggerByToggle } from './tpsl-fields'

/**
 * Sets a position's take-profit and stop-loss: trigger prices the watched
 * price (mark or last) must reach for the whole position to close at
 * market, each checked on the client (on the tick, on the side it fires
 * from) and shown with the PnL it would realize. Each price is one
 * condition_create call; a price that replaces the current one is armed
 * before the old one is cancelled, so the position is never left without.
 */
export function TpslDialog({
  position,
  contract,
  current,
  onClose,
}: {
  position: PositionView | null
  contract: ContractInfo | undefined
  /** The position's waiting TP and SL. */
  current: Record<TpslKind, TriggerOrder[]>
  onClose: () => void
}) {
  const { t } = futuresTexts.useTexts()
  const refresh = useRefreshFutures()
  const [typed, setTyped] = useState<Record<TpslKind, string>>({ tp: '', sl: '' })
  const [by, setBy] = useState<TriggerBy>('MARK')
  const [shown, setShown] = useState(false)
  const { data: ticker } = useQuery({ ...tickerQuery(contract?.marketSymbol ?? '', FUTURES_API), enabled: !!contract && !!position && by === 'LAST' })
  useEffect(() => {
    if (position) {
      setTyped({ tp: current.tp[0]?.triggerPrice ?? '', sl: current.sl[0]?.triggerPrice ?? '' })
      setBy((current.tp[0] ?? current.sl[0])?.triggerBy ?? 'MARK')
      setShown(false)
    }
    // Filled in once, when the dialog opens for a position.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [position])
  const places = contract ? Math.max(contract.pricePrecision, placesOf(contract.priceTick)) : 2
  const coin = contract?.marginCoin ?? ''
  const reference = by === 'LAST' ? ticker?.close || undefined : position?.markPrice
  const errors = Object.fromEntries(
    TPSL_KINDS.map((kind) => [
      kind,
      position && contract
        ? validateTpsl({ kind, side: position.side, price: typed[kind], priceTick: contract.priceTick, reference, triggerBy: by })
        : undefined,
    ]),
  ) as Record<TpslKind, ReturnType<typeof validateTpsl>>
  const save = useMutation({
    mutationFn: async (changes: TpslChange[]) => {
      for (const c of changes) {
        if (c.price) await createTrigger(tpslRequest(position!.symbol, c.price, by, hedgeSideOf(position!)))
        for (const old of c.cancel) await cancelTrigger(old.triggerId)
      }
    },
    onSuccess: () => {
      notifySuccess(t('tpsl.saved', { symbol: position?.symbol ?? '' }))
      refresh()
      onClose()
    },
    onError: (e) => {
      notifyTransport(e, t('common.unreachable'))
      refresh()
    },
  })
  const submit = () => {
    setShown(true)
    if (!position || errors.tp || errors.sl) return
    const changes = tpslChanges(typed, by, current)
    if (changes.length === 0) return onClose()
    save.mutate(changes)
  }
  const byName = t(`tpsl.byWord.${by}`)
  return (
    <Frame
      open={!!position}
      onClose={onClose}
      title={position ? t('tpsl.title', { symbol: position.symbol, side: t(`positions.side.${position.side}`) }) : ''}
      busy={save.isPending}
      action={t('tpsl.save')}
      onAction={submit}
      testId="tpsl-dialog"
    >
      {position && contract && (
        <>
          <Row label={t('positions.cols.entry')} value={fixed(position.openPrice, places)} testId="tpsl-entry" />
          <Row label={t(by === 'LAST' ? 'tpsl.last' : 'positions.cols.mark')} value={fixed(reference, places)} testId="tpsl-reference" />
          <Row label={t('positions.cols.size')} value={`${contractCount(position.volume)} ${t('form.cont')}`} />
          <TriggerByToggle value={by} onChange={setBy} testId="tpsl-by" />
          {TPSL_KINDS.map((kind) => (
            <TpslField
              key={kind}
              kind={kind}
              value={typed[kind]}
              onChange={(v) => setTyped((old) => ({ ...old, [kind]: v }))}
              error={shown ? tpslErrorText(t, errors[kind], places) : undefined}
              pnl={errors[kind] ? undefined : estimatePnl({ side: position.side, entry: position.openPrice, exit: typed[kind], volume: position.volume, contractValue: contract.contractValue })}
              coin={coin}
              quote={contract.quote}
              places={places}
              testId={`tpsl-${kind}`}
            />
          ))}
          <Text fontSize="xs" color="fg.muted" data-testid="tpsl-note">
            {t(`tpsl.fires.${tpslDirection(position.side, 'tp')}`, { by: byName })} {t('tpsl.note')}
          </Text>
        </>
      )}
    </Frame>
  )
}
