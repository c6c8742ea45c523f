import {
  Button,
  chakra,
  HStack,
  IconButton,
  Menu,
  NativeSelect,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { LuArrowDownToLine, LuArrowLeftRight, LuCirclePlus } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { NumberField } from '@/components/form/number-field'
import { PercentSlider } from '@/components/form/percent-slider'
import { SettingsPopover } from '@/components/form/settings-popover'
import { SIDE_COLORS } from '@/components/form/side-colors'
import { AppLink } from '@/components/layout/app-link'
import { TOAST_DURATION_MS, toaster } from '@/components/ui/toaster'
import { loginHref } from '@/lib/auth-guard'
import { useTexts } from '@/lib/i18n'
import { RetryKeys } from '@/lib/idempotency'
import { notifyError } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { getOrderConfirmation, setOrderConfirmation, type OrderConfirmation } from '@/lib/storage'
import { balanceQuery, createOrder, feeRateQuery, orderDetail, tickerQuery, type TradePair } from '../api/trade-api'
import { useLiveDepth } from '../api/use-live-depth'
import { fixed, groupThousands, placesOf, ratePercent, truncated } from '@/lib/decimal'
import { estimateMarket, slippageBeyond, type BookLevel, type MarketEstimate } from '../lib/market-estimate'
import {
  amountFor,
  availablePlaces,
  buildOrderRequest,
  farFromLast,
  hasPrice,
  isMarketBuyByAmount,
  isQuoteEntry,
  marketBuyHold,
  ORDER_TYPES,
  STOP_REACHED_KEYS,
  percentFill,
  percentOfBalance,
  SLIPPAGE_PERCENT,
  totalFor,
  totalPlaces,
  validateOrder,
  type BestPrices,
  type MarketBuyBy,
  type OrderDraft,
  type OrderError,
  type OrderSide,
  type OrderType,
} from '../lib/order-form'
import { outcomeWarning, watchOrder, type FollowOptions } from '../lib/order-outcome'
import { OrderConfirmDialog, type OrderConfirmContent, type SummaryRow } from './order-confirm-dialog'

// The buttons' colours are the futures form's too.
export { SIDE_COLORS }

/** A price picked in the order book; n changes on every pick so the same price can be picked twice. */
export interface PickedPrice {
  price: string
  n: number
}

function SignInPrompt({ symbol }: { symbol: string }) {
  const { t } = useTexts('trade')
  return (
    <Stack gap="3" p="4" align="center" textAlign="center" data-testid="trade-signin">
      <Text fontWeight="semibold">{t('form.signInTitle')}</Text>
      <Text fontSize="sm" color="fg.muted">
        {t('form.signInBody')}
      </Text>
      <HStack>
        <Button asChild size="sm" colorPalette="brand">
          <AppLink href={loginHref(`/trade/${symbol}`)}>{t('form.logIn')}</AppLink>
        </Button>
        <Button asChild size="sm" variant="outline">
          <AppLink href="/auth/register">{t('form.signUp')}</AppLink>
        </Button>
      </HStack>
    </Stack>
  )
}

/**
 * The Deposit and Transfer shortcuts of a coin: a small menu beside its
 * balance whose links open the wallet's deposit or transfer with the coin
 * chosen (the wallet reads ?modal=deposit|transfer&coin=). Not portalled, so
 * it also works inside a sheet or dialog that holds the form; fixed, so the
 * form's panel does not clip it.
 */
function FundsMenu({ coin, which }: { coin: string; which: 'base' | 'quote' }) {
  const { t } = useTexts('trade')
  const q = encodeURIComponent(coin)
  return (
    <Menu.Root positioning={{ placement: 'bottom-end', strategy: 'fixed' }} lazyMount unmountOnExit>
      <Menu.Trigger asChild>
        <IconButton
          type="button"
          variant="ghost"
          size="2xs"
          minW="5"
          h="5"
          color="fg.muted"
          aria-label={t('form.funds.label', { coin })}
          title={t('form.funds.label', { coin })}
          data-testid={`form-funds-${which}`}
        >
          <LuCirclePlus aria-hidden="true" />
        </IconButton>
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content minW="40" aria-label={t('form.funds.label', { coin })}>
          <Menu.Item value="deposit" asChild>
            <AppLink href={`/wallet?modal=deposit&coin=${q}`} _hover={{ textDecoration: 'none' }} data-testid="form-deposit">
              <LuArrowDownToLine aria-hidden="true" />
              {t('form.funds.deposit', { coin })}
            </AppLink>
          </Menu.Item>
          <Menu.Item value="transfer" asChild>
            <AppLink href={`/wallet?modal=transfer&coin=${q}`} _hover={{ textDecoration: 'none' }} data-testid="form-transfer">
              <LuArrowLeftRight aria-hidden="true" />
              {t('form.funds.transfer', { coin })}
            </AppLink>
          </Menu.Item>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}

/**
 * What a market order would do against the book, under the fields: the
 * estimated average price, and the estimated total (a sell's proceeds, a
 * buy by amount's cost) or, for a buy by total, the amount it buys; and
 * when the book (or a buy by amount's held funds) cannot fill it all, so.
 */
function EstimateLines({ estimate, pair, byTotal, amountPlaces }: { estimate: MarketEstimate; pair: TradePair; byTotal: boolean; amountPlaces: number }) {
  const { t } = useTexts('trade')
  const filled = !!estimate.avgPrice
  return (
    <Stack gap="0" fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums" data-testid="market-estimate">
      {filled && <Text data-testid="est-avg">{t('form.estimate.avgPrice', { price: fixed(estimate.avgPrice, pair.pricePrecision), coin: pair.quote })}</Text>}
      {filled &&
        (byTotal ? (
          <Text data-testid="est-amount">{t('form.estimate.amount', { amount: fixed(estimate.amount, amountPlaces), coin: pair.base })}</Text>
        ) : (
          <Text data-testid="est-total">{t('form.estimate.total', { total: fixed(estimate.total, totalPlaces(pair)), coin: pair.quote })}</Text>
        ))}
      {estimate.short && (
        <Text color="fg.warning" data-testid="est-short">
          {filled ? t('form.estimate.short', { amount: fixed(estimate.amount, amountPlaces), coin: pair.base }) : t('form.estimate.empty')}
        </Text>
      )}
      {estimate.fundsOut && (
        <Text color="fg.warning" data-testid="est-funds">
          {t('form.estimate.funds', { amount: fixed(estimate.amount, amountPlaces), coin: pair.quote, base: pair.base })}
        </Text>
      )}
    </Stack>
  )
}

/** Which confirmations the form asks for (both unless turned off). */
type ConfirmSettings = Record<OrderConfirmation, boolean>

/**
 * The gear beside the order type: "Order confirmations", with a switch for
 * each (a limit price far from the last price, a market order's slippage),
 * kept in local storage.
 */
function OrderSettings({ value, onChange }: { value: ConfirmSettings; onChange: (kind: OrderConfirmation, on: boolean) => void }) {
  const { t } = useTexts('trade')
  return (
    <SettingsPopover
      label={t('form.settings.label')}
      description={t('form.settings.hint')}
      triggerTestId="form-settings"
      panelTestId="form-settings-panel"
      items={(['farLimit', 'slippage'] as const).map((kind) => ({
        key: kind,
        label: t(`form.settings.${kind}`),
        checked: value[kind],
        onChange: (on: boolean) => onChange(kind, on),
        testId: `form-settings-${kind}`,
      }))}
    />
  )
}

/** Props of {@link OrderForm}. */
export interface OrderFormProps {
  pair: TradePair
  picked?: PickedPrice
  /**
   * The order book's best bid and ask (kept live by the trade page): a market
   * order by amount is valued at them against the minimum order value.
   */
  best?: BestPrices
  /** How placed orders are followed up (the default waits about 5 s for the push that ends them; tests shorten it). */
  follow?: Omit<FollowOptions, 'signal'>
  /**
   * The side to show: when given, and whenever it changes, the form switches
   * to it (the phone layout opens the form from its Buy and Sell bar).
   */
  side?: OrderSide
  /** Called after an order was accepted (the phone sheet closes then). */
  onPlaced?: () => void
}

/** Buy/Sell order form of spec §9 (or a sign-in prompt for anonymous users). */
export function OrderForm(props: OrderFormProps) {
  const { isSignedIn, isLoading } = useUserInfo()
  if (isLoading) return <Skeleton h="72" m="3" rounded="md" />
  if (!isSignedIn) return <SignInPrompt symbol={props.pair.routeSymbol} />
  return <SignedInOrderForm {...props} />
}

/** The levels a market order would take (asks for a buy, bids for a sell), or undefined while the book is unknown. */
function sideLevels(depth: unknown, side: OrderSide): readonly BookLevel[] | undefined {
  if (typeof depth !== 'object' || depth === null) return undefined
  const levels = (depth as Record<string, unknown>)[side === 'BUY' ? 'asks' : 'buys']
  return Array.isArray(levels) ? (levels as BookLevel[]) : undefined
}

/** A confirmation being asked: for which order and why. */
interface PendingConfirm {
  draft: OrderDraft
  kind: OrderConfirmation
  content: OrderConfirmContent
}

function SignedInOrderForm({ pair, picked, best, follow, side: sideProp, onPlaced }: OrderFormProps) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const [side, setSide] = useState<OrderSide>(sideProp ?? 'BUY')
  const [type, setType] = useState<OrderType>('LIMIT')
  const [price, setPrice] = useState('')
  const [stopPrice, setStopPrice] = useState('')
  const [amount, setAmount] = useState('')
  const [total, setTotal] = useState('')
  // How a market buy is entered; kept while the side or type changes.
  const [marketBy, setMarketBy] = useState<MarketBuyBy>('total')
  // The slider's own position while it drives the amount; null when the
  // amount was typed (the slider then shows the share it comes to).
  const [sliderPct, setSliderPct] = useState<number | null>(null)
  const [showErrors, setShowErrors] = useState(false)
  const balances = useQuery(balanceQuery)
  const fees = useQuery(feeRateQuery)
  // The last price (kept live by the trade header's ticker channel): a
  // stop-limit whose stop it has already reached is refused before it is sent.
  const { data: ticker } = useQuery(tickerQuery(pair.symbol))
  const lastPrice = ticker?.close ?? pair.close
  // The unmerged book (kept live by its depth channel, shared with the
  // page's best prices): a market order is estimated against it.
  const { data: depth } = useLiveDepth(pair.symbol, 0)
  const [confirmOn, setConfirmOn] = useState<ConfirmSettings>(() => ({
    farLimit: getOrderConfirmation('farLimit'),
    slippage: getOrderConfirmation('slippage'),
  }))
  const changeConfirm = (kind: OrderConfirmation, on: boolean) => {
    setOrderConfirmation(kind, on)
    setConfirmOn((c) => ({ ...c, [kind]: on }))
  }
  const [pending, setPending] = useState<PendingConfirm | null>(null)
  const submitButton = useRef<HTMLButtonElement>(null)

  // The balances could not be read (and none were read before): unknown, not zero.
  const balanceFailed = balances.isError && !balances.data
  const payCoin = side === 'BUY' ? pair.quote : pair.base
  // A coin the account has never held is a zero balance once the balances are in.
  const available = balances.data ? (balances.data[payCoin] ?? '0') : undefined
  const pricePlaces = Math.max(pair.pricePrecision, placesOf(pair.priceTick))
  const amountPlaces = placesOf(pair.lotSize)
  const draft: OrderDraft = { side, type, price, stopPrice, amount, total, marketBy }
  const errors = validateOrder(draft, pair, available, lastPrice, best)
  const errorOf = (field: OrderError['field']) => {
    const e = errors.find((x) => x.field === field)
    // A stop the last price has already reached is said as soon as it is
    // typed (the market moves under it); the other errors after a submit.
    if (!e || (!showErrors && !(STOP_REACHED_KEYS as readonly string[]).includes(e.key))) return undefined
    // Amounts in the messages group thousands like the rest of the page ("at least 5,000 MNT").
    // The last price reads as the header shows it (at the pair's price places).
    return t(
      `form.errors.${e.key}`,
      e.vars && Object.fromEntries(Object.entries(e.vars).map(([k, v]) => [k, k === 'last' ? fixed(v, pair.pricePrecision) : groupThousands(v)])),
    )
  }
  const quoteEntry = isQuoteEntry(draft)
  // A market buy by amount has no price to turn a share of the balance into
  // an amount: the slider stays at 0 % and disabled.
  const byAmount = isMarketBuyByAmount(draft)
  const pct = byAmount ? 0 : (sliderPct ?? percentOfBalance(draft, available))
  const hasBalance = (Number(available) || 0) > 0
  const baseAvailable = balances.data ? (balances.data[pair.base] ?? '0') : undefined
  const quoteAvailable = balances.data ? (balances.data[pair.quote] ?? '0') : undefined

  // What a market order would do against the book as it stands.
  const levels = type === 'MARKET' ? sideLevels(depth, side) : undefined
  const estimate = useMemo<MarketEstimate | undefined>(() => {
    if (!levels) return undefined
    if (quoteEntry) return estimateMarket(levels, { total }, { lot: pair.lotSize })
    const budget = byAmount ? marketBuyHold(amount, available, lastPrice) : undefined
    return estimateMarket(levels, { amount }, { lot: pair.lotSize, budget })
  }, [levels, quoteEntry, byAmount, total, amount, available, lastPrice, pair.lotSize])

  const fillPercent = (p: number, at: { type: OrderType; price: string }) => {
    if (p <= 0) {
      setAmount('')
      setTotal('')
      return
    }
    const fill = percentFill(p, side, at.type, available ?? '0', at.price, pair)
    setAmount(fill.amount)
    setTotal(fill.total)
  }

  useEffect(() => {
    if (!picked) return
    setPrice(picked.price)
  }, [picked])
  // A new price or type keeps the slider's share when the slider set the
  // amount (a buy gets the amount that share buys at the new price), and
  // otherwise keeps the amount and recomputes the total. A market buy by
  // amount keeps the amount and has no total (nor a slider share).
  useEffect(() => {
    if (isMarketBuyByAmount({ side, type, marketBy })) {
      setSliderPct(null)
      setTotal('')
    } else if (sliderPct !== null) fillPercent(sliderPct, { type, price })
    else if (!isQuoteEntry({ side, type, marketBy })) setTotal(amount && hasPrice(type) ? totalFor(amount, price, pair) : '')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [price, type])
  useEffect(() => {
    setPrice('')
    setStopPrice('')
    setAmount('')
    setTotal('')
    setSliderPct(null)
    setPending(null)
  }, [pair.symbol])
  // The side asked for by the page (the phone's Buy and Sell bar).
  useEffect(() => {
    if (sideProp && sideProp !== side) switchSide(sideProp)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sideProp])

  // Follow-ups of placed orders stop when the form goes away (unless its host closes it on purpose: see onPlaced).
  const following = useRef<AbortController | null>(null)
  useEffect(() => () => following.current?.abort(), [])

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] })
    void queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] })
  }

  // Idempotency keys of the orders sent (clientOrderId).
  const orderKeys = useRef(new RetryKeys())
  const mutation = useMutation({
    mutationFn: async (d: OrderDraft) => {
      // The API acknowledges the order before the engine has seen it: one
      // that ends at once with nothing filled replaces "placed" with why.
      // The follow-up listens from before the order is sent, as the push
      // that ends it can come before the answer.
      // A host that closes the form once an order is placed (the phone's
      // sheet) lets the follow-up outlive it (it ends by itself within
      // seconds), so that the order's outcome is still said.
      following.current ??= new AbortController()
      const watch = watchOrder({ ...follow, signal: onPlaced ? undefined : following.current.signal })
      const req = buildOrderRequest(d, pair)
      try {
        const placed = await createOrder({ ...req, clientOrderId: orderKeys.current.keyFor(req) })
        orderKeys.current.answered()
        return { placed, watch }
      } catch (e) {
        // An order refused by the exchange was not placed; one that got no
        // answer may have been: sent again unchanged, it carries the same
        // key and is placed at most once.
        if (e instanceof ApiError) orderKeys.current.answered()
        watch.stop()
        throw e
      }
    },
    onSuccess: ({ placed: data, watch }, d) => {
      const placed = toaster.create({ type: 'success', title: t('form.placed'), duration: TOAST_DURATION_MS, closable: true })
      setAmount('')
      setTotal('')
      setSliderPct(null)
      setShowErrors(false)
      refresh()
      onPlaced?.()
      const orderId = data?.order_id
      if (!orderId) {
        watch.stop()
        return
      }
      void watch.follow(String(orderId), orderDetail).then((order) => {
        const key = order && outcomeWarning(d.type, order)
        if (!key) return
        toaster.dismiss(placed)
        toaster.create({
          type: 'warning',
          title: t(`form.outcome.${key}.title`),
          description: t(`form.outcome.${key}.body`, { filled: fixed(order.deal_volume, amountPlaces), coin: pair.base }),
          duration: TOAST_DURATION_MS,
          closable: true,
        })
        refresh()
      })
    },
    // A refused order has had its toast from the request client; a transport
    // failure (offline, server down) has not, and may even have reached the
    // exchange: say so instead of leaving the button without an answer.
    onError: (error) => {
      if (!(error instanceof ApiError)) notifyError(t('form.unreachable'))
      refresh()
    },
  })

  const switchSide = (s: OrderSide) => {
    setSide(s)
    setAmount('')
    setTotal('')
    setSliderPct(null)
    setShowErrors(false)
  }

  const switchMarketBy = (m: MarketBuyBy) => {
    if (m === marketBy) return
    setMarketBy(m)
    setAmount('')
    setTotal('')
    setSliderPct(null)
    setShowErrors(false)
  }

  /** The figures of the order the confirmation shows. */
  const summaryRows = (d: OrderDraft): SummaryRow[] => {
    const rows: SummaryRow[] = []
    const quote = (v: string) => `${fixed(v, pair.pricePrecision)} ${pair.quote}`
    const base = (v: string) => `${fixed(v, amountPlaces)} ${pair.base}`
    const money = (v: string) => `${fixed(v, totalPlaces(pair))} ${pair.quote}`
    if (d.type === 'STOP_LIMIT') rows.push({ label: t('form.stopPrice'), value: quote(d.stopPrice), testId: 'order-confirm-stop' })
    if (hasPrice(d.type)) {
      // The total as the form's field shows it.
      const value = totalFor(d.amount, d.price, pair)
      rows.push({ label: t('form.price'), value: quote(d.price), testId: 'order-confirm-price' })
      rows.push({ label: t('form.amount'), value: base(d.amount), testId: 'order-confirm-amount' })
      if (value) rows.push({ label: t('form.total'), value: money(value), testId: 'order-confirm-total' })
      return rows
    }
    if (isQuoteEntry(d)) rows.push({ label: t('form.total'), value: money(d.total), testId: 'order-confirm-total' })
    else rows.push({ label: t('form.amount'), value: base(d.amount), testId: 'order-confirm-amount' })
    if (estimate?.avgPrice) {
      rows.push({ label: t('form.confirm.estAvg'), value: quote(estimate.avgPrice), testId: 'order-confirm-avg' })
      if (isQuoteEntry(d)) rows.push({ label: t('form.confirm.estAmount'), value: base(estimate.amount), testId: 'order-confirm-est-amount' })
      else rows.push({ label: t('form.confirm.estTotal'), value: money(estimate.total), testId: 'order-confirm-est-total' })
    }
    return rows
  }

  /** The confirmation a valid draft needs before it is sent (one the user has not turned off), if any. */
  const confirmationFor = (d: OrderDraft): PendingConfirm | undefined => {
    const heading = `${pair.showName} · ${t(d.side === 'BUY' ? 'form.buy' : 'form.sell')} · ${t(`form.types.${d.type}`)}`
    if (hasPrice(d.type)) {
      const far = confirmOn.farLimit ? farFromLast(d.side, d.price, lastPrice) : undefined
      if (!far) return undefined
      const warning = t(far.direction === 'above' ? 'form.confirm.farAbove' : 'form.confirm.farBelow', {
        percent: far.percent,
        last: fixed(lastPrice, pair.pricePrecision),
        coin: pair.quote,
      })
      return { draft: d, kind: 'farLimit', content: { warning, heading, rows: summaryRows(d) } }
    }
    const slip = confirmOn.slippage ? slippageBeyond(d.side, estimate, SLIPPAGE_PERCENT) : undefined
    if (!slip || !estimate?.avgPrice) return undefined
    let warning = t('form.confirm.slippage', {
      avg: fixed(estimate.avgPrice, pair.pricePrecision),
      best: fixed(estimate.bestPrice, pair.pricePrecision),
      percent: slip,
      coin: pair.quote,
    })
    if (estimate.short) warning += ` ${t('form.estimate.short', { amount: fixed(estimate.amount, amountPlaces), coin: pair.base })}`
    return { draft: d, kind: 'slippage', content: { warning, heading, rows: summaryRows(d) } }
  }

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setShowErrors(true)
    if (errors.length > 0) return
    const ask = confirmationFor(draft)
    if (ask) setPending(ask)
    else mutation.mutate(draft)
  }

  const confirmPending = (dontAsk: boolean) => {
    if (!pending) return
    if (dontAsk) changeConfirm(pending.kind, false)
    setPending(null)
    mutation.mutate(pending.draft)
  }

  return (
    <>
      <chakra.form onSubmit={submit} p="3" data-testid="order-form" noValidate>
        <Stack gap="2.5">
          <HStack gap="0" borderWidth="1px" rounded="md" p="0.5">
            {(['BUY', 'SELL'] as const).map((s) => (
              <Button
                key={s}
                type="button"
                flex="1"
                size="sm"
                variant={side === s ? 'solid' : 'ghost'}
                bg={side === s ? SIDE_COLORS[s].bg : undefined}
                color={side === s ? SIDE_COLORS[s].color : undefined}
                aria-pressed={side === s}
                data-testid={`side-${s.toLowerCase()}`}
                onClick={() => switchSide(s)}
              >
                {t(s === 'BUY' ? 'form.buy' : 'form.sell')}
              </Button>
            ))}
          </HStack>
          <HStack gap="1.5">
            <NativeSelect.Root size="sm" flex="1" minW="0">
              <NativeSelect.Field
                aria-label={t('form.type')}
                data-testid="order-type"
                value={type}
                onChange={(e) => {
                  setType(e.target.value as OrderType)
                  setShowErrors(false)
                }}
              >
                {ORDER_TYPES.map((ot) => (
                  <option key={ot} value={ot}>
                    {t(`form.types.${ot}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <OrderSettings value={confirmOn} onChange={changeConfirm} />
          </HStack>
          {type === 'MARKET' && side === 'BUY' && (
            <HStack gap="0" borderWidth="1px" rounded="md" p="0.5" role="group" aria-label={t('form.marketBy.label')} data-testid="market-by">
              {(['total', 'amount'] as const).map((m) => (
                <Button
                  key={m}
                  type="button"
                  flex="1"
                  size="xs"
                  variant={marketBy === m ? 'subtle' : 'ghost'}
                  aria-pressed={marketBy === m}
                  data-testid={`market-by-${m}`}
                  onClick={() => switchMarketBy(m)}
                >
                  {t(`form.marketBy.${m}`, { coin: m === 'total' ? pair.quote : pair.base })}
                </Button>
              ))}
            </HStack>
          )}
          {balanceFailed ? (
            <HStack justify="space-between" fontSize="xs" gap="2">
              <Text color="fg.muted">{t('form.available')}</Text>
              {/* Not "0": a balance that could not be read is said to be unknown, with a way to read it again. */}
              <HStack gap="1" data-testid="available-balance-error">
                <Text color="fg.error" data-testid="available-balance">
                  {t('form.balanceError')}
                </Text>
                <Button
                  type="button"
                  size="2xs"
                  variant="ghost"
                  colorPalette="brand"
                  loading={balances.isFetching}
                  onClick={() => void balances.refetch()}
                  data-testid="available-balance-retry"
                >
                  {t('form.balanceRetry')}
                </Button>
              </HStack>
            </HStack>
          ) : (
            // Both coins' balances, each with its Deposit and Transfer shortcuts; the one this side pays with stands out.
            <Stack gap="0" fontSize="xs" data-testid="form-balances">
              {(['base', 'quote'] as const).map((which, i) => {
                const coin = which === 'base' ? pair.base : pair.quote
                const pays = coin === payCoin
                const text = balances.isLoading
                  ? '…'
                  : `${truncated((which === 'base' ? baseAvailable : quoteAvailable) ?? '0', availablePlaces(pair, which === 'base' ? 'SELL' : 'BUY'))} ${coin}`
                return (
                  <HStack key={which} justify="space-between" gap="2" minH="5">
                    <Text color="fg.muted" flexShrink={0}>
                      {i === 0 ? t('form.available') : ''}
                    </Text>
                    <HStack gap="0.5" minW="0">
                      <Text
                        fontVariantNumeric="tabular-nums"
                        color={pays ? 'fg' : 'fg.muted'}
                        fontWeight={pays ? 'medium' : 'normal'}
                        textAlign="end"
                        overflowWrap="anywhere"
                        data-testid={`form-available-${which}`}
                      >
                        {pays ? <chakra.span data-testid="available-balance">{text}</chakra.span> : text}
                      </Text>
                      <FundsMenu coin={coin} which={which} />
                    </HStack>
                  </HStack>
                )
              })}
            </Stack>
          )}
          {type === 'STOP_LIMIT' && (
            <NumberField label={t('form.stopPrice')} value={stopPrice} onChange={setStopPrice} unit={pair.quote} places={pricePlaces} error={errorOf('stopPrice')} testId="stop-price-input" t={t} />
          )}
          {hasPrice(type) ? (
            <NumberField label={t('form.price')} value={price} onChange={setPrice} unit={pair.quote} places={pricePlaces} error={errorOf('price')} testId="price-input" t={t} />
          ) : (
            <Text fontSize="xs" color="fg.muted" borderWidth="1px" rounded="md" px="3" py="2">
              {t('form.marketPrice')}
            </Text>
          )}
          {!quoteEntry && (
            <NumberField
              label={t('form.amount')}
              value={amount}
              onChange={(v) => {
                setAmount(v)
                setSliderPct(null)
                setTotal(hasPrice(type) ? totalFor(v, price, pair) : '')
              }}
              unit={pair.base}
              places={amountPlaces}
              error={errorOf('amount')}
              hint={byAmount ? t('form.marketBy.hint', { coin: pair.quote }) : undefined}
              testId="amount-input"
              t={t}
            />
          )}
          <PercentSlider
            value={pct}
            disabled={!hasBalance || byAmount}
            label={t('form.percent')}
            testIds={{ root: 'percent-slider', value: 'percent-value', mark: 'percent-mark-' }}
            onChange={(p) => {
              setSliderPct(p)
              fillPercent(p, { type, price })
            }}
          />
          {(quoteEntry || hasPrice(type)) && (
            <NumberField
              label={t('form.total')}
              value={total}
              onChange={(v) => {
                setTotal(v)
                setSliderPct(null)
                if (!quoteEntry) setAmount(amountFor(v, price, pair))
              }}
              unit={pair.quote}
              places={totalPlaces(pair)}
              error={errorOf('total')}
              testId="total-input"
              t={t}
            />
          )}
          {type === 'MARKET' && estimate && <EstimateLines estimate={estimate} pair={pair} byTotal={quoteEntry} amountPlaces={amountPlaces} />}
          <Text fontSize="2xs" color="fg.muted" data-testid="min-notional">
            {t('form.minNotional', { min: groupThousands(pair.minNotional), coin: pair.quote })}
          </Text>
          {fees.data?.maker && fees.data.taker && (
            <Text fontSize="2xs" color="fg.muted" data-testid="fee-rates">
              {t('form.feeRates', { maker: ratePercent(fees.data.maker), taker: ratePercent(fees.data.taker) })}
            </Text>
          )}
          {/* Keeps keyboard focus through its loading state, so the next order starts where this one was sent. */}
          <BusyButton
            ref={submitButton}
            type="submit"
            size="md"
            color={SIDE_COLORS[side].color}
            bg={SIDE_COLORS[side].bg}
            loading={mutation.isPending}
            data-testid="order-submit"
          >
            {t(side === 'BUY' ? 'form.submitBuy' : 'form.submitSell', { coin: pair.base })}
          </BusyButton>
        </Stack>
      </chakra.form>
      <OrderConfirmDialog
        content={pending?.content ?? null}
        confirmColors={SIDE_COLORS[pending?.draft.side ?? side]}
        onConfirm={confirmPending}
        onCancel={() => setPending(null)}
        finalFocus={() => submitButton.current}
      />
    </>
  )
}
