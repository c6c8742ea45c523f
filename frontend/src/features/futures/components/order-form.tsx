import { Button, chakra, Checkbox, HStack, IconButton, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { LuArrowLeftRight } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { NumberField } from '@/components/form/number-field'
import { PercentSlider } from '@/components/form/percent-slider'
import { SettingsPopover } from '@/components/form/settings-popover'
import { SIDE_COLORS } from '@/components/form/side-colors'
import { AppLink } from '@/components/layout/app-link'
import { TOAST_DURATION_MS, toaster } from '@/components/ui/toaster'
import { tickerQuery } from '@/features/trade/api/trade-api'
import type { PickedPrice } from '@/features/trade/components/order-form'
import { loginHref } from '@/lib/auth-guard'
import { fixed, placesOf, ratePercent } from '@/lib/decimal'
import { RetryKeys } from '@/lib/idempotency'
import { ApiError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import {
  createOrder,
  createTrigger,
  FUTURES_API,
  futuresKeys,
  ladderQuery,
  MARGIN_ISOLATED,
  marketInfoQuery,
  openFuturesAccount,
  savePageConfig,
  TIME_IN_FORCE,
  type ContractInfo,
  type FuturesOrder,
  type FuturesOrderType,
  type OrderSide,
  type TimeInForce,
  type TriggerBy,
  type UserConfig,
} from '../api/futures-api'
import { openBySide, signedPosition, useAssets, useOpenOrders, useRefreshFutures, useUserConfig } from '../api/use-futures'
import { contracts as contractCount, money, spendable } from '../lib/format'
import { baseSize, closableOf, maxNotionalAt, maxOpen, orderCost, percentOfMax, volumeForPercent, type OrderCost } from '../lib/margin'
import { hedgeExposure, hedgePositionSide, isHedge, type HedgeIntent } from '../lib/hedge'
import { buildOrder, draftErrorKey, marketReferencePrice, validateDraft, wholeContracts, type DraftError, type FuturesDraft } from '../lib/order'
import { confirmOn, PAGE_CONFIG, type PageConfigKey } from '../lib/page-config'
import { futuresTexts } from '../lib/texts'
import { estimatePnl, positionSideOf, TPSL_KINDS, tpslRequest, validateTpsl, type TpslError, type TpslKind } from '../lib/tpsl'
import { LeverageDialog } from './leverage-dialog'
import { MarginModeDialog } from './margin-mode-dialog'
import { OrderConfirm, type ConfirmRow } from './order-confirm'
import { PositionModeDialog, positionModeKey } from './position-mode-dialog'
import { notifyTransport } from './shared'
import { TpslField, tpslErrorText, TriggerByToggle } from './tpsl-fields'

/** Saves one preference, keeping the others (sent whole, so it reads the same whether the server merges or replaces). */
export function usePageConfig(symbol: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ key, on }: { key: PageConfigKey; on: boolean }) => {
      const current = queryClient.getQueryData<UserConfig>(futuresKeys.config(symbol))?.pageConfig ?? {}
      return savePageConfig({ ...current, [PAGE_CONFIG[key]]: on ? '1' : '0' })
    },
    onMutate: ({ key, on }) => {
      queryClient.setQueryData<UserConfig>(futuresKeys.config(symbol), (old) =>
        old ? { ...old, pageConfig: { ...(old.pageConfig ?? {}), [PAGE_CONFIG[key]]: on ? '1' : '0' } } : old,
      )
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: futuresKeys.config(symbol) }),
  })
}

/** The gear: which confirmations the page asks for, kept on the server. Not portalled (it works inside the phone's sheet). */
function FormSettings({ symbol, config }: { symbol: string; config: UserConfig | undefined }) {
  const { t } = futuresTexts.useTexts()
  const save = usePageConfig(symbol)
  return (
    <SettingsPopover
      label={t('form.settings.label')}
      triggerTestId="futures-form-settings"
      variant="ghost"
      size="xs"
      items={(Object.keys(PAGE_CONFIG) as PageConfigKey[]).map((key) => ({
        key,
        label: t(`form.settings.${key}`),
        checked: confirmOn(config, key),
        disabled: !config,
        onChange: (on: boolean) => save.mutate({ key, on }),
        testId: `futures-settings-${key}`,
      }))}
    />
  )
}

/** Props of {@link FuturesOrderForm}. */
export interface FuturesOrderFormProps {
  contract: ContractInfo
  /** The book's best bid and ask: a market order is valued at them. */
  best?: { bid?: string; ask?: string }
  /** A price picked in the book. */
  picked?: PickedPrice
  /** Called after an order was accepted (the phone's sheet closes). */
  onPlaced?: () => void
  /**
   * One side only (the phone's sheet, opened from its Buy/Long or Sell/Short
   * bar): that side's button, with a switch to the other; both without it.
   */
  side?: OrderSide
  /** Opens the transfer between the spot and futures accounts. */
  onTransfer?: () => void
}

/**
 * The futures order form: margin mode, position mode and leverage, Limit
 * and Market, the price, the size in whole contracts (≈ the base coin), a
 * slider of the share of what the available balance can open, time in
 * force, reduce-only, and Buy/Long and Sell/Short, each with its cost
 * (initial margin + fee) and maximum. In hedge mode, Open and Close tabs
 * instead of reduce-only: Open's buttons open a long or a short, Close's
 * close the long (Sell) or the short (Buy), each at most what its position
 * has left after its open closing orders. Visitors see it with a sign-in
 * prompt instead of the buttons.
 */
export function FuturesOrderForm(props: FuturesOrderFormProps) {
  const { isSignedIn, isLoading } = useUserInfo()
  if (isLoading) return <Skeleton h="96" m="3" rounded="md" />
  return <FormBody {...props} signedIn={isSignedIn} />
}

/** The take-profit and stop-loss to set once the order is placed (TP/SL ticked); '' for none. */
interface OrderTpsl {
  tp: string
  sl: string
  by: TriggerBy
}

/** An order as it is sent: the draft, and its TP/SL. */
type PlacedDraft = FuturesDraft & { tpsl?: OrderTpsl }

/** A confirmation being asked. */
interface Pending {
  draft: PlacedDraft
  rows: ConfirmRow[]
  heading: string
}

/** An order the engine ended at once without a fill: why, as a text key (futures texts). */
export function outcomeKey(order: Pick<FuturesOrder, 'status' | 'reason' | 'dealVolume'> | undefined): string | undefined {
  if (!order || order.dealVolume > 0) return undefined
  if (order.status !== 'REJECTED' && order.status !== 'CANCELED') return undefined
  const known = ['post_only', 'no_liquidity', 'fok', 'self_trade', 'liquidation']
  return `form.outcome.${known.includes(order.reason) ? order.reason : 'rejected'}`
}

function FormBody({ contract, best, picked, onPlaced, onTransfer, side: sideProp, signedIn }: FuturesOrderFormProps & { signedIn: boolean }) {
  const { t } = futuresTexts.useTexts()
  const symbol = contract.symbol
  const [type, setType] = useState<FuturesOrderType>('LIMIT')
  const [price, setPrice] = useState('')
  const [volume, setVolume] = useState('')
  // The slider's share of the maximum while it sets the size (each side then sends its own share); null once a size is typed.
  const [pct, setPct] = useState<number | null>(null)
  const [tif, setTif] = useState<TimeInForce>('GTC')
  const [reduceOnly, setReduceOnly] = useState(false)
  const [withTpsl, setWithTpsl] = useState(false)
  const [tpsl, setTpsl] = useState<Record<TpslKind, string>>({ tp: '', sl: '' })
  const [tpslBy, setTpslBy] = useState<TriggerBy>('MARK')
  const [errorsFor, setErrorsFor] = useState<OrderSide | null>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const [dialog, setDialog] = useState<'leverage' | 'mode' | 'position' | null>(null)
  // Hedge mode: whether the buttons open a position or close one.
  const [intent, setIntent] = useState<HedgeIntent>('open')
  const [only, setOnly] = useState<OrderSide | undefined>(sideProp)
  useEffect(() => setOnly(sideProp), [sideProp])
  const refresh = useRefreshFutures()
  const queryClient = useQueryClient()

  const config = useUserConfig(symbol)
  const assets = useAssets()
  const orders = useOpenOrders()
  const ladder = useQuery(ladderQuery(symbol))
  const { data: ticker } = useQuery(tickerQuery(contract.marketSymbol, FUTURES_API))
  const { data: market } = useQuery(marketInfoQuery(symbol))
  const last = ticker?.close || market?.lastPrice || undefined
  const mark = market?.markPrice || undefined

  const leverage = config.data?.leverage
  const maxLeverage = config.data?.maxLeverage || contract.maxLeverage
  const account = assets.data?.accountList?.find((a) => a.coin === contract.marginCoin)
  const available = assets.data ? (account?.availableBalance ?? '0') : undefined
  const position = signedPosition(assets.data?.positionList, symbol)
  const open = openBySide(orders.data?.orderList, symbol)
  const pricePlaces = Math.max(contract.pricePrecision, placesOf(contract.priceTick))
  const hedge = isHedge(config.data)
  // Hedge mode names the position of each order: the Open tab's buttons open a long (Buy) or a short (Sell), the Close tab's close them.
  const positionSideFor = (side: OrderSide) => (hedge ? hedgePositionSide(side, intent) : undefined)
  // What can only close: a reduce-only order, or any order of the hedge mode's Close tab (no reduce-only box there).
  const closing = hedge ? intent === 'close' : reduceOnly
  useEffect(() => setIntent('open'), [hedge])

  useEffect(() => {
    if (!picked) return
    setPrice(picked.price)
    setType('LIMIT')
  }, [picked])
  useEffect(() => {
    setPrice('')
    setVolume('')
    setPct(null)
    setErrorsFor(null)
  }, [symbol])

  const priceFor = (side: OrderSide) => (type === 'LIMIT' ? price : marketReferencePrice(side, best, last, mark))
  // Until a limit price is typed, the maximum is what the balance opens at the market's price (as the big venues show it).
  const maxPriceFor = (side: OrderSide) => (type === 'LIMIT' && price ? price : marketReferencePrice(side, best, last, mark))
  const sides = useMemo(() => {
    const per = (side: OrderSide) => {
      const ps = positionSideFor(side)
      const exposure = ps ? hedgeExposure(assets.data?.positionList, orders.data?.orderList, symbol, side, ps) : { position, openSameSide: open[side] }
      const at = priceFor(side)
      const max =
        leverage === undefined
          ? 0
          : maxOpen({
              side,
              price: maxPriceFor(side),
              leverage,
              contractValue: contract.contractValue,
              takerFee: contract.takerFee,
              exposure,
              available,
              maxOrderQty: contract.maxOrderQty,
              maxNotional: maxNotionalAt(ladder.data, leverage),
              reduceOnly: closing,
            })
      const vol = pct !== null ? volumeForPercent(pct, max) : wholeContracts(volume)
      const cost: OrderCost | undefined =
        leverage === undefined || vol === undefined
          ? undefined
          : orderCost({ side, volume: vol, price: at, leverage, contractValue: contract.contractValue, takerFee: contract.takerFee, exposure })
      return { max, vol, cost, closable: closableOf(side, exposure) }
    }
    return { BUY: per('BUY'), SELL: per('SELL') }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [type, price, volume, pct, best, last, mark, leverage, available, position, open.BUY, open.SELL, closing, hedge, intent, assets.data, orders.data, ladder.data, contract])

  const sliderValue = pct ?? percentOfMax(wholeContracts(volume) ?? 0, Math.max(sides.BUY.max, sides.SELL.max))

  const draftFor = (side: OrderSide): FuturesDraft => ({
    side,
    type,
    price,
    volume: pct !== null ? String(sides[side].vol ?? 0) : volume,
    timeInForce: tif,
    reduceOnly: hedge ? false : reduceOnly,
    positionSide: positionSideFor(side),
  })
  const errorsOf = (side: OrderSide): DraftError[] =>
    validateDraft(draftFor(side), contract, { cost: closing ? undefined : sides[side].cost?.cost, available, closable: closing ? sides[side].closable : undefined })
  // The TP/SL, when ticked (not with reduce-only or in the Close tab: those only close): each checked for the side's position against the watched price now and a limit order's price.
  const tpslOn = withTpsl && !closing
  const tpslErrorsOf = (side: OrderSide): Partial<Record<TpslKind, TpslError>> => {
    if (!tpslOn) return {}
    const out: Partial<Record<TpslKind, TpslError>> = {}
    for (const kind of TPSL_KINDS) {
      const e = validateTpsl({
        kind,
        side: positionSideOf(side),
        price: tpsl[kind],
        priceTick: contract.priceTick,
        reference: tpslBy === 'LAST' ? last : mark,
        triggerBy: tpslBy,
        orderPrice: type === 'LIMIT' ? price : undefined,
      })
      if (e) out[kind] = e
    }
    return out
  }
  const shownTpslErrors = errorsFor ? tpslErrorsOf(errorsFor) : {}
  // The PnL a TP/SL price would give: of the side it suits (the only side in the phone's sheet), at the order's price and size.
  const tpslPnl = (kind: TpslKind): { pnl?: string; side?: OrderSide } => {
    if (!tpsl[kind].trim()) return {}
    const side = (only ? [only] : (['BUY', 'SELL'] as const)).find((sd) => !tpslErrorsOf(sd)[kind])
    if (!side) return {}
    const vol = sides[side].vol
    const pnl = estimatePnl({ side: positionSideOf(side), entry: priceFor(side), exit: tpsl[kind], volume: vol ?? 0, contractValue: contract.contractValue })
    return { pnl, side }
  }
  const shownErrors = errorsFor ? errorsOf(errorsFor) : []
  const errorText = (field: DraftError['field']) => {
    const e = shownErrors.find((x) => x.field === field)
    return e ? t(draftErrorKey(e), { ...e.vars, coin: contract.marginCoin }) : undefined
  }

  const keys = useRef(new RetryKeys())
  const place = useMutation({
    mutationFn: async (d: PlacedDraft) => {
      const body = buildOrder(d, symbol)
      let order: FuturesOrder
      try {
        order = await createOrder({ ...body, clientOid: keys.current.keyFor(body) })
        keys.current.answered()
      } catch (e) {
        // A refused order was not placed; one without an answer may have been: sent again unchanged it keeps its key.
        if (e instanceof ApiError) keys.current.answered()
        throw e
      }
      // The TP/SL right after the order (one call each): not for an order the engine ended at once. A refusal has had its toast
      // from the request client (18021: the price is already there; 18022: too many); the order stands either way.
      let armed = 0
      if (d.tpsl && !outcomeKey(order)) {
        for (const kind of TPSL_KINDS) {
          const at = d.tpsl[kind]
          if (!at) continue
          try {
            // Tied to the order: armed by its first fill, cancelled if it ends unfilled.
            await createTrigger(tpslRequest(symbol, at, d.tpsl.by, d.positionSide, order.orderId))
            armed++
          } catch (e) {
            notifyTransport(e, t('tpsl.formUnreachable'))
          }
        }
      }
      return { order, armed }
    },
    onSuccess: ({ order, armed }) => {
      const why = outcomeKey(order)
      if (why) toaster.create({ type: 'warning', title: t(`${why}.title`), description: t(`${why}.body`), duration: TOAST_DURATION_MS, closable: true })
      else
        toaster.create({
          type: 'success',
          title: t('form.placed'),
          description: armed > 0 ? t('tpsl.formPlaced') : undefined,
          duration: TOAST_DURATION_MS,
          closable: true,
        })
      if (armed > 0) setTpsl({ tp: '', sl: '' })
      setVolume('')
      setPct(null)
      setErrorsFor(null)
      refresh()
      onPlaced?.()
    },
    onError: (error) => {
      notifyTransport(error, t('form.unreachable'))
      refresh()
    },
  })
  const openAccount = useMutation({
    mutationFn: openFuturesAccount,
    onSuccess: (c) => {
      if (c && typeof c === 'object') queryClient.setQueryData(futuresKeys.config(symbol), c)
      void queryClient.invalidateQueries({ queryKey: futuresKeys.config(symbol) })
    },
    onError: (error) => notifyTransport(error, t('common.unreachable')),
  })
  const saveConfig = usePageConfig(symbol)

  const sideName = (side: OrderSide) =>
    t(hedge && intent === 'close' ? (side === 'SELL' ? 'positionMode.actions.closeLong' : 'positionMode.actions.closeShort') : side === 'BUY' ? 'form.buyLong' : 'form.sellShort')
  const summary = (d: PlacedDraft): Pending => {
    const s = sides[d.side]
    const vol = wholeContracts(d.volume) ?? 0
    const rows: ConfirmRow[] = [
      { label: t('form.price'), value: d.type === 'LIMIT' ? `${fixed(d.price, pricePlaces)} ${contract.quote}` : t('form.marketPrice'), testId: 'futures-confirm-price' },
      { label: t('form.size'), value: `${vol} ${t('form.cont')} ≈ ${baseSize(vol, contract.contractValue, contract.sizePrecision)} ${contract.base}`, testId: 'futures-confirm-size' },
      {
        label: t('form.leverage'),
        value: `${t(config.data?.marginMode === MARGIN_ISOLATED ? 'marginMode.isolated' : 'marginMode.cross')} ${leverage ?? '—'}×`,
      },
    ]
    if (d.type === 'LIMIT') rows.push({ label: t('form.tif.label'), value: t(`form.tif.${d.timeInForce}`) })
    if (d.reduceOnly) rows.push({ label: t('form.reduceOnly'), value: t('common.yes') })
    else if (s.cost) rows.push({ label: t('form.cost'), value: `${money(s.cost.cost)} ${contract.marginCoin}`, testId: 'futures-confirm-cost' })
    for (const kind of TPSL_KINDS) {
      const at = d.tpsl?.[kind]
      if (at) rows.push({ label: t(`tpsl.${kind}`), value: `${fixed(at, pricePlaces)} ${contract.quote} (${t(`tpsl.by.${d.tpsl!.by}`)})`, testId: `futures-confirm-${kind}` })
    }
    return { draft: d, rows, heading: `${symbol} · ${sideName(d.side)} · ${t(`form.types.${d.type}`)}` }
  }

  const submit = (side: OrderSide) => {
    setErrorsFor(side)
    if (errorsOf(side).length > 0 || Object.keys(tpslErrorsOf(side)).length > 0) return
    const d: PlacedDraft = draftFor(side)
    if (tpslOn && (tpsl.tp.trim() || tpsl.sl.trim())) d.tpsl = { tp: tpsl.tp.trim().replace(/\.$/, ''), sl: tpsl.sl.trim().replace(/\.$/, ''), by: tpslBy }
    if (confirmOn(config.data, 'orderConfirm')) setPending(summary(d))
    else place.mutate(d)
  }

  const tabs: FuturesOrderType[] = ['LIMIT', 'MARKET']
  const unit = t('form.cont')
  const typedVol = wholeContracts(volume)
  const modeKey = config.data?.marginMode === MARGIN_ISOLATED ? 'marginMode.isolated' : 'marginMode.cross'
  const closed = contract.status !== 'open'

  return (
    <>
      <chakra.form
        p="3"
        noValidate
        onSubmit={(e) => {
          // Enter in a field places nothing: which side is for the buttons to say.
          e.preventDefault()
        }}
        aria-label={t('form.label', { symbol })}
        data-testid="futures-order-form"
      >
        <Stack gap="2.5">
          {only && (
            <HStack gap="0" borderWidth="1px" rounded="md" p="0.5" role="group" aria-label={t('form.side')}>
              {(['BUY', 'SELL'] as const).map((sd) => (
                <Button
                  key={sd}
                  type="button"
                  flex="1"
                  size="sm"
                  variant={only === sd ? 'solid' : 'ghost'}
                  bg={only === sd ? SIDE_COLORS[sd].bg : undefined}
                  color={only === sd ? SIDE_COLORS[sd].color : undefined}
                  aria-pressed={only === sd}
                  onClick={() => {
                    setOnly(sd)
                    setErrorsFor(null)
                  }}
                  data-testid={`futures-side-${sd.toLowerCase()}`}
                >
                  {sideName(sd)}
                </Button>
              ))}
            </HStack>
          )}
          <HStack gap="1.5">
            <Button
              type="button"
              size="xs"
              variant="outline"
              flex="1"
              disabled={!signedIn || !config.data}
              onClick={() => setDialog('mode')}
              aria-label={t('form.marginModeOf', { mode: config.data ? t(modeKey) : '—' })}
              data-testid="futures-margin-mode"
            >
              {config.data ? t(modeKey) : t('marginMode.cross')}
            </Button>
            <Button
              type="button"
              size="xs"
              variant="outline"
              flex="1"
              minW="0"
              disabled={!signedIn || !config.data}
              onClick={() => setDialog('position')}
              aria-label={t('positionMode.of', { mode: t(positionModeKey(config.data?.positionMode)) })}
              data-testid="futures-position-mode"
            >
              <chakra.span truncate>{t(positionModeKey(config.data?.positionMode))}</chakra.span>
            </Button>
            <Button
              type="button"
              size="xs"
              variant="outline"
              flex="1"
              disabled={!signedIn || !config.data}
              onClick={() => setDialog('leverage')}
              aria-label={t('form.leverageOf', { leverage: leverage ?? '—' })}
              data-testid="futures-leverage"
            >
              {leverage ?? '—'}×
            </Button>
            {signedIn && <FormSettings symbol={symbol} config={config.data} />}
          </HStack>
          {hedge && (
            <HStack gap="0" borderWidth="1px" rounded="md" p="0.5" role="group" aria-label={t('positionMode.intent')} data-testid="futures-intent">
              {(['open', 'close'] as const).map((it) => (
                <Button
                  key={it}
                  type="button"
                  flex="1"
                  size="xs"
                  variant={intent === it ? 'subtle' : 'ghost'}
                  aria-pressed={intent === it}
                  onClick={() => {
                    setIntent(it)
                    setVolume('')
                    setPct(null)
                    setErrorsFor(null)
                  }}
                  data-testid={`futures-intent-${it}`}
                >
                  {t(`positionMode.${it}`)}
                </Button>
              ))}
            </HStack>
          )}
          <HStack gap="0" borderBottomWidth="1px" role="group" aria-label={t('form.type')}>
            {tabs.map((ty) => (
              <Button
                key={ty}
                type="button"
                size="sm"
                variant="ghost"
                rounded="0"
                borderBottomWidth="2px"
                borderColor={type === ty ? 'brand.solid' : 'transparent'}
                fontWeight={type === ty ? 'semibold' : 'normal'}
                color={type === ty ? 'fg' : 'fg.muted'}
                aria-pressed={type === ty}
                onClick={() => {
                  setType(ty)
                  setErrorsFor(null)
                }}
                data-testid={`futures-type-${ty.toLowerCase()}`}
              >
                {t(`form.types.${ty}`)}
              </Button>
            ))}
          </HStack>
          <HStack justify="space-between" fontSize="xs" gap="2">
            <Text color="fg.muted">{t('form.available')}</Text>
            <HStack gap="1" minW="0">
              <Text fontVariantNumeric="tabular-nums" data-testid="futures-available">
                {!signedIn ? '—' : assets.isError && !assets.data ? t('form.balanceError') : available === undefined ? '…' : `${spendable(available)} ${contract.marginCoin}`}
              </Text>
              {signedIn && onTransfer && (
                <IconButton
                  type="button"
                  size="2xs"
                  variant="ghost"
                  minW="5"
                  h="5"
                  color="brand.fg"
                  aria-label={t('form.transfer', { coin: contract.marginCoin })}
                  title={t('form.transfer', { coin: contract.marginCoin })}
                  onClick={onTransfer}
                  data-testid="futures-transfer"
                >
                  <LuArrowLeftRight aria-hidden="true" />
                </IconButton>
              )}
            </HStack>
          </HStack>
          {type === 'LIMIT' ? (
            <NumberField
              label={t('form.price')}
              value={price}
              onChange={setPrice}
              unit={contract.quote}
              places={pricePlaces}
              error={errorText('price')}
              testId="futures-price"
              t={t}
              end={
                last ? (
                  <Button type="button" size="2xs" variant="ghost" colorPalette="brand" px="1" onClick={() => setPrice(last)} aria-label={t('form.useLast')} data-testid="futures-price-last">
                    {t('form.last')}
                  </Button>
                ) : undefined
              }
            />
          ) : (
            <Text fontSize="xs" color="fg.muted" borderWidth="1px" rounded="md" px="3" py="2" data-testid="futures-market-price">
              {t('form.marketPrice')}
            </Text>
          )}
          <NumberField
            label={t('form.size')}
            value={pct !== null ? '' : volume}
            onChange={(v) => {
              setVolume(v)
              setPct(null)
            }}
            unit={unit}
            places={0}
            error={errorText('volume')}
            testId="futures-volume"
            t={t}
            hint={
              pct !== null ? (
                <chakra.span data-testid="futures-volume-percent">
                  {hedge
                    ? t('positionMode.sizeByPercent', { pct, first: sideName('BUY'), buy: sides.BUY.vol ?? 0, second: sideName('SELL'), sell: sides.SELL.vol ?? 0, unit })
                    : t('form.sizeByPercent', { pct, buy: sides.BUY.vol ?? 0, sell: sides.SELL.vol ?? 0, unit })}
                </chakra.span>
              ) : typedVol ? (
                <chakra.span data-testid="futures-volume-base">
                  ≈ {baseSize(typedVol, contract.contractValue, contract.sizePrecision)} {contract.base}
                </chakra.span>
              ) : (
                <chakra.span>{t('form.contractValue', { value: contract.contractValue, coin: contract.base })}</chakra.span>
              )
            }
          />
          <PercentSlider
            value={sliderValue}
            disabled={!signedIn || (sides.BUY.max <= 0 && sides.SELL.max <= 0)}
            label={t('form.percent')}
            testIds={{ root: 'futures-percent', value: 'futures-percent-value', mark: 'futures-percent-' }}
            onChange={(p) => {
              setPct(p > 0 ? p : null)
              if (p <= 0) setVolume('')
              setErrorsFor(null)
            }}
          />
          <HStack gap="3" wrap="wrap" justify="space-between">
            {type === 'LIMIT' && (
              <NativeSelect.Root size="xs" width="auto">
                <NativeSelect.Field aria-label={t('form.tif.label')} value={tif} onChange={(e) => setTif(e.target.value as TimeInForce)} data-testid="futures-tif">
                  {TIME_IN_FORCE.map((x) => (
                    <option key={x} value={x}>
                      {t(`form.tif.${x}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            )}
            <HStack gap="3">
              <Checkbox.Root
                size="sm"
                checked={tpslOn}
                disabled={closing}
                onCheckedChange={(e) => {
                  setWithTpsl(e.checked === true)
                  setErrorsFor(null)
                }}
                data-testid="futures-tpsl"
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label fontWeight="normal" fontSize="xs" title={t('tpsl.formHint')}>
                  {t('tpsl.action')}
                </Checkbox.Label>
              </Checkbox.Root>
              {!hedge && (
                <Checkbox.Root size="sm" checked={reduceOnly} onCheckedChange={(e) => setReduceOnly(e.checked === true)} data-testid="futures-reduce-only">
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontWeight="normal" fontSize="xs">
                    {t('form.reduceOnly')}
                  </Checkbox.Label>
                </Checkbox.Root>
              )}
            </HStack>
          </HStack>
          {tpslOn && (
            <Stack gap="2" borderWidth="1px" rounded="md" p="2" data-testid="futures-tpsl-fields">
              <TriggerByToggle value={tpslBy} onChange={setTpslBy} testId="futures-tpsl-by" />
              {TPSL_KINDS.map((kind) => {
                const est = tpslPnl(kind)
                return (
                  <TpslField
                    key={kind}
                    kind={kind}
                    value={tpsl[kind]}
                    onChange={(v) => setTpsl((old) => ({ ...old, [kind]: v }))}
                    error={tpslErrorText(t, shownTpslErrors[kind], pricePlaces)}
                    pnl={est.pnl}
                    pnlSide={!only && est.side ? sideName(est.side) : undefined}
                    coin={contract.marginCoin}
                    quote={contract.quote}
                    places={pricePlaces}
                    testId={`futures-${kind}`}
                  />
                )
              })}
              <Text fontSize="2xs" color="fg.muted">
                {t('tpsl.formHint')}
              </Text>
            </Stack>
          )}
          {signedIn && config.data && !config.data.openContract && (
            <Stack gap="1.5" borderWidth="1px" borderColor="border.warning" rounded="md" p="2" fontSize="xs" data-testid="futures-open-account">
              <Text>{t('form.openAccount.body')}</Text>
              <BusyButton type="button" size="xs" colorPalette="brand" loading={openAccount.isPending} onClick={() => openAccount.mutate()} data-testid="futures-open-account-button">
                {t('form.openAccount.action')}
              </BusyButton>
            </Stack>
          )}
          {closed && (
            <Text fontSize="xs" color="fg.warning" role="status" data-testid="futures-closed">
              {t('page.closed')}
            </Text>
          )}
          {signedIn ? (
            <Stack gap="2">
              {(only ? [only] : (['BUY', 'SELL'] as const)).map((side) => {
                const s = sides[side]
                return (
                  <Stack key={side} gap="1">
                    <BusyButton
                      type="button"
                      size="md"
                      bg={SIDE_COLORS[side].bg}
                      color={SIDE_COLORS[side].color}
                      _hover={{ opacity: 0.9 }}
                      disabled={closed}
                      loading={place.isPending && place.variables?.side === side}
                      onClick={() => submit(side)}
                      data-testid={`futures-submit-${side.toLowerCase()}`}
                    >
                      {sideName(side)}
                    </BusyButton>
                    <HStack justify="space-between" fontSize="2xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                      <Text data-testid={`futures-cost-${side.toLowerCase()}`}>
                        {t('form.cost')} {closing ? `${money(s.cost?.fee)} ${contract.marginCoin}` : `${money(s.cost?.cost)} ${contract.marginCoin}`}
                      </Text>
                      <Text data-testid={`futures-max-${side.toLowerCase()}`}>
                        {t('form.max')} {contractCount(s.max)} {unit}
                      </Text>
                    </HStack>
                  </Stack>
                )
              })}
              {leverage !== undefined && (
                <Text fontSize="2xs" color="fg.muted" data-testid="futures-fee-rates">
                  {t('form.fees', { maker: ratePercent(contract.makerFee), taker: ratePercent(contract.takerFee) })}
                </Text>
              )}
            </Stack>
          ) : (
            <Stack gap="2" align="stretch" textAlign="center" borderWidth="1px" rounded="md" p="3" data-testid="futures-signin">
              <Text fontWeight="semibold" fontSize="sm">
                {t('form.signInTitle')}
              </Text>
              <Text fontSize="xs" color="fg.muted">
                {t('form.signInBody')}
              </Text>
              <HStack>
                <Button asChild size="sm" flex="1" colorPalette="brand">
                  <AppLink href={loginHref(`/futures/${symbol}`)}>{t('form.logIn')}</AppLink>
                </Button>
                <Button asChild size="sm" flex="1" variant="outline">
                  <AppLink href="/auth/register">{t('form.signUp')}</AppLink>
                </Button>
              </HStack>
            </Stack>
          )}
        </Stack>
      </chakra.form>
      {signedIn && config.data && (
        <>
          <LeverageDialog
            open={dialog === 'leverage'}
            onClose={() => setDialog(null)}
            symbol={symbol}
            quote={contract.quote}
            leverage={config.data.leverage}
            maxLeverage={maxLeverage}
            tiers={ladder.data}
          />
          <MarginModeDialog open={dialog === 'mode'} onClose={() => setDialog(null)} symbol={symbol} mode={config.data.marginMode} />
          <PositionModeDialog open={dialog === 'position'} onClose={() => setDialog(null)} mode={config.data.positionMode} />
        </>
      )}
      <OrderConfirm
        open={!!pending}
        heading={pending?.heading ?? ''}
        rows={pending?.rows ?? []}
        colors={SIDE_COLORS[pending?.draft.side ?? 'BUY']}
        onCancel={() => setPending(null)}
        onConfirm={(dontAsk) => {
          if (!pending) return
          if (dontAsk) saveConfig.mutate({ key: 'orderConfirm', on: false })
          place.mutate(pending.draft)
          setPending(null)
        }}
      />
    </>
  )
}
