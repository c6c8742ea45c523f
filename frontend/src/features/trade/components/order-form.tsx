import { Box, Button, chakra, Field, HStack, Input, InputGroup, NativeSelect, Skeleton, Slider, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { TOAST_DURATION_MS, toaster } from '@/components/ui/toaster'
import { loginHref } from '@/lib/auth-guard'
import { useTexts } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { balanceQuery, createOrder, feeRateQuery, orderDetail, tickerQuery, type TradePair } from '../api/trade-api'
import { fixed, groupThousands, placesOf, ratePercent, truncated } from '@/lib/decimal'
import {
  amountFor,
  availablePlaces,
  buildOrderRequest,
  hasPrice,
  isMarketBuyByAmount,
  isQuoteEntry,
  ORDER_TYPES,
  PERCENT_MARKS,
  STOP_REACHED_KEYS,
  percentFill,
  percentOfBalance,
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
import { useNumberInput } from './use-number-input'

/**
 * Colours of the buy and sell buttons (the chosen side and the submit):
 * the side's colour with text that reads on it in both themes (4.5:1 at
 * least): white on the light theme's darker green and red, dark on the dark
 * theme's lighter ones (white on them was 2.1:1 and 2.8:1).
 */
export const SIDE_COLORS = {
  BUY: { bg: 'up', color: { _light: 'white', _dark: 'gray.950' } },
  SELL: { bg: 'down', color: { _light: 'white', _dark: 'gray.950' } },
} as const

/** A price picked in the order book; n changes on every pick so the same price can be picked twice. */
export interface PickedPrice {
  price: string
  n: number
}

/**
 * A number input of the form. It never holds an invalid number: what is typed
 * or pasted is cleaned (digits and one point, the field's decimals), and when
 * that changed it a short note under the field says why ("Only digits and one
 * decimal point", "At most 2 decimals for this pair"). The note stays while
 * the value is the one it explains and goes with the next change; it is the
 * field's helper text (so the input is described by it) and is also read out
 * at once through a live region that is always there (one added with its
 * words is not reliably announced).
 */
function NumberField({
  label,
  value,
  onChange,
  coin,
  places,
  error,
  hint,
  testId,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  coin: string
  places: number
  error?: string
  /** A muted note under the field (read out with it). */
  hint?: string
  testId: string
}) {
  const { noticeText, onInput, onBlur } = useNumberInput(value, places, onChange)
  return (
    <Field.Root invalid={!!error}>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <InputGroup endElement={<Text fontSize="xs" color="fg.muted">{coin}</Text>}>
        <Input
          size="sm"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          data-testid={testId}
          onChange={(e) => onInput(e.target.value)}
          onBlur={onBlur}
          fontVariantNumeric="tabular-nums"
        />
      </InputGroup>
      {error && <Field.ErrorText data-testid={`${testId}-error`}>{error}</Field.ErrorText>}
      {(noticeText || hint) && (
        <Field.HelperText data-testid={`${testId}-hint`}>
          {noticeText && (
            <chakra.span display="block" data-testid={`${testId}-notice`}>
              {noticeText}
            </chakra.span>
          )}
          {hint}
        </Field.HelperText>
      )}
      <VisuallyHidden aria-live="polite" data-testid={`${testId}-notice-live`}>
        {noticeText}
      </VisuallyHidden>
    </Field.Root>
  )
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
 * The percentage slider: a share of the available balance, with marks at
 * 0/25/50/75/100 %. Arrow keys move it by 1 %, Page Up/Down by 10 %,
 * Home/End to either end.
 */
function PercentSlider({ value, onChange, disabled, label }: { value: number; onChange: (v: number) => void; disabled: boolean; label: string }) {
  return (
    <Slider.Root
      size="sm"
      min={0}
      max={100}
      step={1}
      value={[value]}
      onValueChange={(e) => onChange(e.value[0] ?? 0)}
      disabled={disabled}
      colorPalette="brand"
      getAriaValueText={({ value: v }) => `${v}%`}
      data-testid="percent-slider"
    >
      <HStack justify="space-between">
        <Slider.Label fontSize="xs" color="fg.muted" fontWeight="normal">
          {label}
        </Slider.Label>
        <Slider.ValueText fontSize="xs" fontVariantNumeric="tabular-nums" data-testid="percent-value">
          {value}%
        </Slider.ValueText>
      </HStack>
      {/* Inset so that the end marks' labels stay inside the form. */}
      <Box px="2">
        <Slider.Control>
          <Slider.Track>
            <Slider.Range />
          </Slider.Track>
          <Slider.Thumbs />
          <Slider.MarkerGroup>
            {PERCENT_MARKS.map((m) => (
              <Slider.Marker key={m} value={m}>
                <Slider.MarkerIndicator />
                {/*
                  A tap on a mark's label sets that share exactly (the keys do so for keyboard users: Home, End, Page Up/Down).
                  It acts on the press and keeps it from the slider's control: the control would otherwise take the press
                  as a drag to the pointer's spot (26 % beside the 25 % label), and when that change moved the layout (an
                  error under a field going away) the label never got the click that corrects it.
                */}
                <Slider.MarkerLabel
                  pointerEvents={disabled ? 'none' : 'auto'}
                  cursor="pointer"
                  px="1"
                  rounded="sm"
                  fontVariantNumeric="tabular-nums"
                  color={m === value ? 'fg' : undefined}
                  _hover={{ color: 'fg' }}
                  onPointerDown={(e) => {
                    e.stopPropagation()
                    e.preventDefault()
                    if (!disabled) onChange(m)
                  }}
                  onClick={() => !disabled && onChange(m)}
                  data-testid={`percent-mark-${m}`}
                >
                  {m}%
                </Slider.MarkerLabel>
              </Slider.Marker>
            ))}
          </Slider.MarkerGroup>
        </Slider.Control>
      </Box>
    </Slider.Root>
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
}

/** Buy/Sell order form of spec §9 (or a sign-in prompt for anonymous users). */
export function OrderForm({ pair, picked, best, follow }: OrderFormProps) {
  const { isSignedIn, isLoading } = useUserInfo()
  if (isLoading) return <Skeleton h="72" m="3" rounded="md" />
  if (!isSignedIn) return <SignInPrompt symbol={pair.routeSymbol} />
  return <SignedInOrderForm pair={pair} picked={picked} best={best} follow={follow} />
}

function SignedInOrderForm({ pair, picked, best, follow }: OrderFormProps) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const [side, setSide] = useState<OrderSide>('BUY')
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
  }, [pair.symbol])

  // Follow-ups of placed orders stop when the form goes away.
  const following = useRef<AbortController | null>(null)
  useEffect(() => () => following.current?.abort(), [])

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] })
    void queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] })
  }

  const mutation = useMutation({
    mutationFn: async (d: OrderDraft) => {
      // The API acknowledges the order before the engine has seen it: one
      // that ends at once with nothing filled replaces "placed" with why.
      // The follow-up listens from before the order is sent, as the push
      // that ends it can come before the answer.
      following.current ??= new AbortController()
      const watch = watchOrder({ ...follow, signal: following.current.signal })
      try {
        return { placed: await createOrder(buildOrderRequest(d, pair)), watch }
      } catch (e) {
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

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setShowErrors(true)
    if (errors.length === 0) mutation.mutate(draft)
  }

  return (
    <chakra.form onSubmit={submit} p="3" data-testid="order-form" noValidate>
      <Stack gap="3">
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
        <NativeSelect.Root size="sm">
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
        <HStack justify="space-between" fontSize="xs" gap="2">
          <Text color="fg.muted">{t('form.available')}</Text>
          {balanceFailed ? (
            // Not "0": a balance that could not be read is said to be unknown, with a way to read it again.
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
          ) : (
            <Text fontVariantNumeric="tabular-nums" data-testid="available-balance">
              {balances.isLoading ? '…' : `${truncated(available ?? '0', availablePlaces(pair, side))} ${payCoin}`}
            </Text>
          )}
        </HStack>
        {type === 'STOP_LIMIT' && (
          <NumberField label={t('form.stopPrice')} value={stopPrice} onChange={setStopPrice} coin={pair.quote} places={pricePlaces} error={errorOf('stopPrice')} testId="stop-price-input" />
        )}
        {hasPrice(type) ? (
          <NumberField label={t('form.price')} value={price} onChange={setPrice} coin={pair.quote} places={pricePlaces} error={errorOf('price')} testId="price-input" />
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
            coin={pair.base}
            places={amountPlaces}
            error={errorOf('amount')}
            hint={byAmount ? t('form.marketBy.hint', { coin: pair.quote }) : undefined}
            testId="amount-input"
          />
        )}
        <PercentSlider
          value={pct}
          disabled={!hasBalance || byAmount}
          label={t('form.percent')}
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
            coin={pair.quote}
            places={totalPlaces(pair)}
            error={errorOf('total')}
            testId="total-input"
          />
        )}
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
  )
}
