import { Badge, Box, Button, Heading, HStack, Icon, List, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { LuCheck, LuX } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { loginHref } from '@/lib/auth-guard'
import { fixed, parseDec } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { competitionKeys, joinCompetition, type Competition, type CompetitionState, type Condition, type UserRank } from '../api/competition-api'
import { AMOUNT_PLACES } from '../lib/format'
import { competitionTexts } from '../lib/texts'

/** Where a user meets each rule (the futures contract the menus open first for the futures account). */
export const RULE_LINKS = {
  kyc: '/profile/identity',
  mobile: '/profile/security',
  funds: (coin: string) => `/wallet?modal=transfer&account=futures&coin=${encodeURIComponent(coin)}`,
  futuresAccount: '/futures/BTCUSDT',
} as const

type RuleId = 'kyc' | 'mobile' | 'funds' | 'futuresAccount'

/** One rule of joining as the checklist shows it. */
interface RuleLine {
  id: RuleId
  text: string
  /** Undefined while it is not known (signed out, loading). */
  met?: boolean
  /** Where to meet it, when it is not met. */
  fix?: { href: string; text: string }
}

/** The rules the competition asks, met or not (a rule not asked is left out). */
export function ruleLines(t: TranslateFn, c: Competition, cond: Condition | undefined): RuleLine[] {
  const coin = c.coin
  const out: RuleLine[] = []
  if (c.rules.kycLevel > 0) out.push({ id: 'kyc', text: t('rules.kyc'), met: cond?.kyc.met, fix: { href: RULE_LINKS.kyc, text: t('rules.kycFix') } })
  if (c.rules.mobile) out.push({ id: 'mobile', text: t('rules.mobile'), met: cond?.mobile.met, fix: { href: RULE_LINKS.mobile, text: t('rules.mobileFix') } })
  if (c.rules.futuresAccount)
    out.push({ id: 'futuresAccount', text: t('rules.futuresAccount'), met: cond?.futuresAccount.met, fix: { href: RULE_LINKS.futuresAccount, text: t('rules.futuresAccountFix') } })
  const min = c.rules.minBalance
  const least = parseDec(min)
  if (least && least.units > 0n) {
    const text = cond
      ? t('rules.fundsOf', { min: fixed(min, AMOUNT_PLACES), balance: fixed(cond.funds.balance, AMOUNT_PLACES), coin })
      : t('rules.funds', { min: fixed(min, AMOUNT_PLACES), coin })
    out.push({ id: 'funds', text, met: cond?.funds.met, fix: { href: RULE_LINKS.funds(coin), text: t('rules.fundsFix', { coin }) } })
  }
  return out
}

/**
 * Joining: the rules of the competition as a checklist (each met or not for
 * a signed-in user, with a link to where an unmet one is met: verify the
 * identity, bind a mobile number, transfer to the futures account, open
 * it), and the Join button, live only while the competition runs and every
 * rule is met. Visitors are asked to log in; a participant is told so.
 */
export function JoinCard({
  competition,
  phase,
  signedIn,
  condition,
  conditionLoading,
  rank,
}: {
  competition: Competition
  phase: CompetitionState
  signedIn: boolean
  condition?: Condition
  conditionLoading: boolean
  rank?: UserRank
}) {
  const { t } = competitionTexts.useTexts()
  const queryClient = useQueryClient()
  const id = competition.competitionId
  const join = useMutation({
    mutationFn: () => joinCompetition(id),
    onSuccess: (r) => {
      queryClient.setQueryData(competitionKeys.userRank(id), r)
      notifySuccess(t('join.joined'))
      void queryClient.invalidateQueries({ queryKey: competitionKeys.all })
    },
    onError: (e) => {
      // A refusal has had its toast with the server's words; no answer has not.
      if (!(e instanceof ApiError)) notifyError(t('join.unreachable'))
      void queryClient.invalidateQueries({ queryKey: competitionKeys.condition(id) })
    },
  })
  const joined = !!rank?.joined || !!condition?.joined || competition.joined
  const lines = ruleLines(t, competition, signedIn ? condition : undefined)
  const unmet = lines.filter((l) => l.met === false).length
  const canJoin = !!condition?.canJoin && phase === 'running' && !joined
  let action: React.ReactNode
  if (!signedIn) {
    action = (
      <Button asChild colorPalette="brand" w="full" data-testid="competition-login">
        <AppLink href={loginHref('/futureBonus')}>{t('join.logIn')}</AppLink>
      </Button>
    )
  } else if (joined) {
    action = (
      <HStack justify="center" gap="2" py="1" data-testid="competition-joined">
        <Icon as={LuCheck} color="up" aria-hidden="true" />
        <Text fontWeight="semibold">{t('join.already')}</Text>
      </HStack>
    )
  } else if (phase === 'ended' || phase === 'settled') {
    action = (
      <Text textAlign="center" color="fg.muted" fontSize="sm" data-testid="competition-join-closed">
        {t('join.closed')}
      </Text>
    )
  } else {
    const why = phase === 'upcoming' ? t('join.notStarted') : unmet > 0 ? t('join.unmet', { n: unmet }) : undefined
    action = (
      <Stack gap="1.5">
        <BusyButton
          colorPalette="brand"
          w="full"
          disabled={!canJoin || conditionLoading}
          loading={join.isPending}
          onClick={() => join.mutate()}
          aria-describedby={why ? 'competition-join-why' : undefined}
          data-testid="competition-join"
        >
          {t('join.action')}
        </BusyButton>
        {why && (
          <Text id="competition-join-why" fontSize="xs" color="fg.muted" textAlign="center" data-testid="competition-join-why">
            {why}
          </Text>
        )}
      </Stack>
    )
  }
  return (
    <Box as="section" aria-labelledby="competition-join-title" borderWidth="1px" rounded="lg" bg="bg.panel" p="4" data-testid="competition-join-card">
      <Stack gap="3">
        <HStack justify="space-between" gap="2">
          <Heading as="h2" size="md" id="competition-join-title">
            {t('join.title')}
          </Heading>
          {signedIn && condition && !joined && phase === 'running' && (
            <Badge colorPalette={unmet === 0 ? 'green' : 'orange'} variant="subtle" data-testid="competition-rules-summary">
              {unmet === 0 ? t('join.allMet') : t('join.unmetShort', { n: unmet })}
            </Badge>
          )}
        </HStack>
        {signedIn && conditionLoading ? (
          <Skeleton h="24" rounded="md" />
        ) : lines.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            {t('rules.none')}
          </Text>
        ) : (
          <List.Root gap="2.5" variant="plain" aria-label={t('rules.title')} data-testid="competition-rules">
            {lines.map((l) => (
              <List.Item key={l.id} alignItems="flex-start" gap="2" data-testid={`competition-rule-${l.id}`} data-met={l.met === undefined ? undefined : String(l.met)}>
                <List.Indicator asChild mt="0.5">
                  {l.met === undefined ? (
                    <Box w="4" h="4" display="flex" alignItems="center" justifyContent="center" aria-hidden="true">
                      <Box w="1.5" h="1.5" rounded="full" bg="fg.muted" />
                    </Box>
                  ) : (
                    <Icon as={l.met ? LuCheck : LuX} color={l.met ? 'up' : 'down'} boxSize="4" aria-hidden="true" />
                  )}
                </List.Indicator>
                <Stack gap="0.5" flex="1" minW="0" fontSize="sm">
                  <Text>
                    {l.text}
                    {l.met !== undefined && <Box as="span" srOnly>{` (${t(l.met ? 'rules.met' : 'rules.unmet')})`}</Box>}
                  </Text>
                  {l.met === false && l.fix && (
                    <AppLink href={l.fix.href} color="brand.fg" fontSize="xs" fontWeight="medium" data-testid={`competition-fix-${l.id}`}>
                      {l.fix.text}{' '}
                      <span aria-hidden="true">→</span>
                    </AppLink>
                  )}
                </Stack>
              </List.Item>
            ))}
          </List.Root>
        )}
        {action}
      </Stack>
    </Box>
  )
}
