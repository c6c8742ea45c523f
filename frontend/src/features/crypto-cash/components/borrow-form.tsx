import { Alert, Box, Button, chakra, Heading, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { FormField } from '@/components/form/form-field'
import { AppLink } from '@/components/layout/app-link'
import { earnRecordsKeys } from '@/features/earn-records/api/records-api'
import { addDec, canSend, checkAmount, cutTo, dec, decimalsOf, plain, quotedAmount, sent } from '@/features/staking/lib/amounts'
import { getSpotBalances, walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, notifyFailure, StepForm } from '@/features/wallet/components/shared'
import { loginHref } from '@/lib/auth-guard'
import { getCurrency } from '@/lib/cookies'
import { cmpDec, formatCut, formatFixed, mulDec, roundDec, formatDec } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { RetryKeys } from '@/lib/idempotency'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { borrow, LOAN_TERMS, loanKeys, loanQuoteQuery, type LoanConfig, type LoanQuote } from '../api/crypto-cash-api'
import { liquidationPrice, ltvPercent, type Thresholds } from '../lib/ltv'
import { useDebounced } from '../lib/use-debounced'
import { AmountInput } from './amount-input'
import { amountText } from './amount-text'
import { LtvBar } from './ltv-bar'

/** An hourly rate in percent as a yearly one (× 24 × 365), 2 decimals. */
export function yearRate(hourly: string): string {
  return formatDec(roundDec(mulDec(dec(hourly), { units: 8760n, scale: 0 }), 2), 2)
}

/** The quote answers for what is on the form now (not an earlier amount, coin or term still shown). */
export function quoteMatches(q: LoanQuote | undefined, coin: string, amount: string, collateralCoin: string, term: number): q is LoanQuote {
  return !!q && q.coin === coin && q.collateralCoin === collateralCoin && q.termDays === term && amount !== '' && cmpDec(dec(q.amount), dec(amount)) === 0
}

/**
 * The borrow form (mortgage_borrow): the coin to borrow, the amount (its
 * minimum and maximum checked as it is typed), the term (7, 14, 30 or 90
 * days), the collateral coin; the quote (calculate_inerest_mortgage) as it
 * is typed: the term's interest, the collateral needed at the initial LTV,
 * the liquidation price; the collateral, which follows the required amount
 * until it is typed; the LTV on a bar with the initial, margin-call and
 * liquidation LTVs. Prices move, so Borrow asks for a fresh quote first and,
 * when the collateral was left at the required amount, sends the fresh one.
 */
export function BorrowForm({ t, config, thresholds, signedIn }: { t: TranslateFn; config: LoanConfig; thresholds: Thresholds; signedIn: boolean }) {
  const queryClient = useQueryClient()
  const currency = getCurrency()
  const spot = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency), enabled: signedIn })
  const [coin, setCoin] = useState(config.loanCoins[0]?.coin ?? '')
  const [amount, setAmount] = useState('')
  const [term, setTerm] = useState<number>(LOAN_TERMS[0])
  const firstCollateral = (loan: string) => config.collaterals.find((c) => c !== loan) ?? ''
  const [collateralCoin, setCollateralCoin] = useState(() => firstCollateral(config.loanCoins[0]?.coin ?? ''))
  const [typedCollateral, setTypedCollateral] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const keys = useRef(new RetryKeys())
  const ids = useId()

  const loanCoin = config.loanCoins.find((c) => c.coin === coin)
  const row = (c: string) => spot.data?.coinList.find((r) => r.coin === c)
  const typedQuote = useDebounced(sent(amount), 300)
  const amountPlaces = row(coin)?.showPrecision ?? 8
  const amountProblem = checkAmount(amount, {
    precision: amountPlaces,
    min: loanCoin?.minAmount,
    limits: [{ kind: 'loanMax', max: loanCoin?.maxAmount }],
  })
  const amountOk = canSend(amount, amountProblem)
  const asked = amountOk && typedQuote === sent(amount) ? typedQuote : ''
  const quote = useQuery({ ...loanQuoteQuery(coin, asked, collateralCoin, term), enabled: asked !== '' && collateralCoin !== '', refetchInterval: 10_000 })
  const q = quoteMatches(quote.data, coin, amountOk ? sent(amount) : '', collateralCoin, term) ? quote.data : undefined
  const collPlaces = row(collateralCoin)?.showPrecision ?? decimalsOf(q?.requiredCollateral) ?? 8
  const collateral = typedCollateral ?? (q ? q.requiredCollateral : '')
  const collAvailable = signedIn && spot.data ? cutTo(row(collateralCoin)?.normal ?? '0', collPlaces) : undefined
  const collProblem = checkAmount(collateral, {
    precision: collPlaces,
    min: q?.requiredCollateral,
    limits: [{ kind: 'available', max: collAvailable }],
  })
  const collOk = canSend(collateral, collProblem)
  const ltv = q && collOk ? ltvPercent(sent(amount), sent(collateral), q.price) : ''
  const liq = q && collOk ? liquidationPrice(sent(amount), sent(collateral), config.liquidationLTV) : ''
  const total = q ? plain(addDec(dec(sent(amount)), dec(q.interest))) : ''
  const ready = amountOk && !!q && collOk

  const changeCoin = (next: string) => {
    setCoin(next)
    if (collateralCoin === next || !collateralCoin) setCollateralCoin(firstCollateral(next))
    setTypedCollateral(null)
  }

  const submit = async () => {
    if (!signedIn || !ready) return
    const value = sent(amount)
    setSubmitting(true)
    try {
      // Prices move: the collateral is checked, and the required amount taken, at the price of now.
      const fresh = await queryClient.fetchQuery({ ...loanQuoteQuery(coin, value, collateralCoin, term), staleTime: 0 })
      const sentCollateral = typedCollateral === null ? fresh.requiredCollateral : sent(typedCollateral)
      // A typed collateral now below what is needed: the field says so (the fresh quote is in the cache).
      if (cmpDec(dec(sentCollateral), dec(fresh.requiredCollateral)) < 0) return
      const body = { coin, amount: value, collateralCoin, collateralAmount: sentCollateral, term }
      const envelope = await borrow({ ...body, requestId: keys.current.keyFor(body) })
      keys.current.answered()
      if (isSuccess(envelope)) {
        const loan = envelope.data
        notifySuccess(t('borrow.success', { amount: formatCut(loan?.borrowed || value, amountPlaces), coin, ltv: formatFixed(loan?.ltv || ltv, 2) }))
        setAmount('')
        setTypedCollateral(null)
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: loanKeys.mine }),
          queryClient.invalidateQueries({ queryKey: walletKeys.all }),
          queryClient.invalidateQueries({ queryKey: earnRecordsKeys.all }),
        ])
      } else {
        // Refused (its toast has the server's words): the quote may be out of date.
        void quote.refetch()
      }
    } catch (e) {
      notifyFailure(e)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Box as="section" aria-labelledby={`${ids}-title`} borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '5' }} data-testid="borrow-form">
      <Heading as="h2" size="lg" id={`${ids}-title`} mb="4">
        {t('borrow.title')}
      </Heading>
      <StepForm onSubmit={submit} busy={submitting}>
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <FormField label={t('borrow.coin')}>
              <NativeSelect.Root>
                <NativeSelect.Field value={coin} onChange={(e) => changeCoin(e.target.value)} data-testid="borrow-coin">
                  {config.loanCoins.map((c) => (
                    <option key={c.coin} value={c.coin}>
                      {c.coin}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <AmountInput
              label={t('borrow.amount')}
              value={amount}
              onChange={setAmount}
              coin={coin}
              error={amountText(t, amountProblem, amountPlaces, coin, { min: 'loanMin' })}
              helper={loanCoin ? t('borrow.limits', { min: quotedAmount(loanCoin.minAmount, amountPlaces), max: quotedAmount(loanCoin.maxAmount, amountPlaces), coin }) : undefined}
              testId="borrow-amount"
            />
          </SimpleGrid>

          <chakra.fieldset border="0" p="0" m="0" minW="0">
            <chakra.legend fontSize="sm" fontWeight="medium" mb="2" p="0">
              {t('borrow.term')}
            </chakra.legend>
            <SimpleGrid columns={{ base: 2, sm: 4 }} gap="2" data-testid="borrow-terms">
              {LOAN_TERMS.map((d) => {
                const chosen = term === d
                const hourly = loanCoin?.hourlyRates[String(d)]
                return (
                  <chakra.label
                    key={d}
                    display="flex"
                    flexDirection="column"
                    alignItems="center"
                    gap="0"
                    py="2"
                    px="1"
                    borderWidth="1px"
                    rounded="md"
                    cursor="pointer"
                    borderColor={chosen ? 'brand.solid' : 'border'}
                    bg={chosen ? 'brand.subtle' : undefined}
                    _focusWithin={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' }}
                    data-testid={`borrow-term-${d}`}
                    data-checked={chosen || undefined}
                  >
                    <chakra.input
                      type="radio"
                      name={`${ids}-term`}
                      value={d}
                      checked={chosen}
                      onChange={() => setTerm(d)}
                      srOnly
                      data-testid={`borrow-term-input-${d}`}
                    />
                    <Text fontWeight="semibold" fontSize="sm">
                      {t('borrow.days', { n: d })}
                    </Text>
                    <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                      {hourly ? t('borrow.termRate', { rate: yearRate(hourly) }) : '--'}
                    </Text>
                  </chakra.label>
                )
              })}
            </SimpleGrid>
          </chakra.fieldset>

          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <FormField label={t('borrow.collateralCoin')}>
              <NativeSelect.Root>
                <NativeSelect.Field
                  value={collateralCoin}
                  onChange={(e) => {
                    setCollateralCoin(e.target.value)
                    setTypedCollateral(null)
                  }}
                  data-testid="borrow-collateral-coin"
                >
                  {config.collaterals
                    .filter((c) => c !== coin)
                    .map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <AmountInput
              label={t('borrow.collateral')}
              value={collateral}
              onChange={(v) => setTypedCollateral(v)}
              coin={collateralCoin}
              error={amountText(t, collProblem, collPlaces, collateralCoin, { min: 'collateralMin' })}
              helper={
                collAvailable !== undefined ? t('borrow.collateralAvailable', { amount: formatCut(collAvailable, collPlaces), coin: collateralCoin }) : undefined
              }
              action={{
                text: t('borrow.required'),
                label: t('borrow.requiredLabel'),
                onClick: () => setTypedCollateral(null),
                disabled: typedCollateral === null || !q,
                testId: 'borrow-collateral-required',
              }}
              testId="borrow-collateral"
            />
          </SimpleGrid>

          <Stack gap="2" data-testid="borrow-quote" data-ready={q ? 'true' : undefined} aria-live="polite">
            <InfoRow label={t('borrow.interest', { n: term })} testId="borrow-interest">
              {q ? `${formatCut(q.interest, amountPlaces)} ${coin}` : '--'}
            </InfoRow>
            <InfoRow label={t('borrow.rate')} testId="borrow-rate">
              {q ? t('borrow.rateValue', { hourly: q.hourlyRate, year: yearRate(q.hourlyRate) }) : '--'}
            </InfoRow>
            <InfoRow label={t('borrow.total')} testId="borrow-total">
              {q && total ? `${formatCut(total, amountPlaces)} ${coin}` : '--'}
            </InfoRow>
            <InfoRow label={t('borrow.requiredCollateral', { ltv: thresholds.initial })} testId="borrow-required">
              {q ? `${formatCut(q.requiredCollateral, collPlaces)} ${collateralCoin}` : '--'}
            </InfoRow>
            <InfoRow label={t('borrow.price', { coll: collateralCoin, coin })} testId="borrow-price">
              {q ? `${formatFixed(q.price, 2)} ${coin}` : '--'}
            </InfoRow>
            <InfoRow label={t('borrow.liquidationPrice', { coll: collateralCoin })} testId="borrow-liquidation">
              {liq ? `${formatFixed(liq, 2)} ${coin}` : q ? `${formatFixed(q.liquidationPrice, 2)} ${coin}` : '--'}
            </InfoRow>
          </Stack>

          {quote.isError && asked ? (
            <Alert.Root status="error" data-testid="borrow-quote-error">
              <Alert.Indicator />
              <Alert.Title>{quote.error.message}</Alert.Title>
            </Alert.Root>
          ) : null}

          <LtvBar t={t} ltv={ltv} thresholds={thresholds} testId="borrow-ltv" />

          <Text fontSize="xs" color="fg.muted">
            {t('borrow.note', { grace: config.graceHours, x: formatFixed(config.overdueMultiplier, 0) })}
          </Text>

          {signedIn ? (
            <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={!ready} data-testid="borrow-submit">
              {t('borrow.confirm')}
            </BusyButton>
          ) : (
            <Button asChild colorPalette="brand" variant="outline">
              <AppLink href={loginHref('/cryptoCash')} data-testid="borrow-signin">
                {t('borrow.signIn')}
              </AppLink>
            </Button>
          )}
        </Stack>
      </StepForm>
    </Box>
  )
}
