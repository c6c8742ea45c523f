import { Alert, Badge, Box, Button, Card, DataList, Heading, HStack, List, Separator, Stack, Text } from '@chakra-ui/react'
import { useNavigate } from '@tanstack/react-router'
import { Fragment, useState } from 'react'
import { LuArrowRight, LuCheck, LuPencil, LuShieldCheck } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { PageFrame } from '@/components/layout/page-frame'
import { STEP_NUMBERS, type CorporateApplication, type StepNumber } from '../api/types'
import { formatMoment } from '../lib/format'
import { APPLY_PATH } from '../lib/paths'
import { completeCount, stepComplete, stepSaved } from '../lib/steps'
import { useCorporateTexts } from '../lib/texts'
import { ChangeToRegularDialog } from './change-to-regular-dialog'
import { CorporateLoadError, CorporateSkeleton } from './loading'
import { ProgressBar } from './progress-bar'
import { StatusBadge } from './status-badge'
import { SubmitDialog } from './submit-dialog'
import { useCorporateApplication } from './use-application'

/**
 * /profile/corporate: corporate verification's general page: where the
 * application stands, what each step needs and how far it is, the reasons
 * of a rejection, the submit, and for an enterprise account the change
 * back to a regular one.
 */
export function CorporatePage() {
  const { t, lan, ready } = useCorporateTexts()
  const query = useCorporateApplication()
  const app = query.data
  if (!ready) {
    return (
      <PageFrame>
        <CorporateSkeleton />
      </PageFrame>
    )
  }
  return (
    <PageFrame title={t('title')} subtitle={t('intro')} testId="corporate-page">
      {query.isLoading ? (
        <CorporateSkeleton t={t} />
      ) : !app ? (
        <CorporateLoadError t={t} onRetry={() => void query.refetch()} />
      ) : (
        <Overview app={app} lan={lan} />
      )}
    </PageFrame>
  )
}

function Overview({ app, lan }: { app: CorporateApplication; lan: string }) {
  const { t } = useCorporateTexts()
  const navigate = useNavigate()
  const [dialog, setDialog] = useState<'submit' | 'toRegular' | null>(null)
  const done = completeCount(app)
  const started = app.status !== 'none'

  const dates: [string, number][] = (
    [
      ['dates.updated', app.updatedAt],
      ['dates.submitted', app.submittedAt],
      ['dates.reviewed', app.reviewedAt],
    ] as [string, number][]
  ).filter(([, ms]) => ms > 0)

  return (
    <Stack gap={{ base: '5', md: '6' }}>
      <Card.Root data-testid="corporate-status-card">
        <Card.Body>
          <Stack gap="5">
            <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" gap="4">
              <HStack gap="3" align="flex-start">
                <Box p="2.5" rounded="l2" bg="brand.subtle" color="brand.fg" flexShrink={0}>
                  <LuShieldCheck size="22" aria-hidden="true" />
                </Box>
                <Stack gap="1.5">
                  <HStack gap="2" flexWrap="wrap">
                    <Text fontWeight="semibold">{t('statusLabel')}</Text>
                    <StatusBadge status={app.status} t={t} size="lg" />
                  </HStack>
                  <HStack gap="2" flexWrap="wrap">
                    <Text textStyle="sm" color="fg.muted">
                      {t('accountTypeLabel')}
                    </Text>
                    <Badge variant="outline" colorPalette={app.accountType === 'enterprise' ? 'green' : 'gray'} data-testid="corporate-account-type" data-type={app.accountType}>
                      {t(`accountType.${app.accountType}`)}
                    </Badge>
                  </HStack>
                </Stack>
              </HStack>
              <Stack gap="2" minW={{ md: '64' }}>
                <HStack justify="space-between">
                  <Text textStyle="sm" fontWeight="medium">
                    {t('progressLabel')}
                  </Text>
                  <Text textStyle="sm" color="fg.muted" data-testid="corporate-progress">
                    {t('progress', { done, total: 5 })}
                  </Text>
                </HStack>
                <ProgressBar value={done * 20} label={t('progressLabel')} colorPalette={done === 5 ? 'green' : 'brand'} />
              </Stack>
            </Stack>

            <Notice app={app} />

            {dates.length > 0 && (
              <DataList.Root orientation="horizontal" size="sm" gap="1.5">
                {dates.map(([key, ms]) => (
                  <DataList.Item key={key}>
                    <DataList.ItemLabel minW="40">{t(key)}</DataList.ItemLabel>
                    <DataList.ItemValue>{formatMoment(ms, lan)}</DataList.ItemValue>
                  </DataList.Item>
                ))}
              </DataList.Root>
            )}

            <Stack direction={{ base: 'column', sm: 'row' }} gap="3" flexWrap="wrap">
              {app.editable && (
                <Button asChild colorPalette="brand" variant={app.canSubmit ? 'outline' : 'solid'} data-testid="corporate-continue">
                  <AppLink href={APPLY_PATH}>
                    {started ? <LuPencil aria-hidden="true" /> : <LuArrowRight aria-hidden="true" />}
                    {!started ? t('actions.start') : app.status === 'rejected' ? t('actions.editResubmit') : t('actions.continue')}
                  </AppLink>
                </Button>
              )}
              {app.editable && app.canSubmit && (
                <Button colorPalette="brand" onClick={() => setDialog('submit')} data-testid="corporate-submit">
                  {t('actions.submitForReview')}
                </Button>
              )}
              {!app.editable && (
                <Button asChild variant="outline" data-testid="corporate-view">
                  <AppLink href={APPLY_PATH}>{t('actions.viewApplication')}</AppLink>
                </Button>
              )}
              {app.canChangeToRegular && (
                <Button variant="outline" colorPalette="red" onClick={() => setDialog('toRegular')} data-testid="corporate-change-to-regular">
                  {t('actions.changeToRegular')}
                </Button>
              )}
            </Stack>
          </Stack>
        </Card.Body>
      </Card.Root>

      <Card.Root data-testid="corporate-steps-card">
        <Card.Header>
          <Card.Title>
            <Heading as="h2" size="md">
              {t('stepsTitle')}
            </Heading>
          </Card.Title>
          <Card.Description>{t('stepsIntro')}</Card.Description>
        </Card.Header>
        <Card.Body pt="2">
          <Stack as="ol" gap="0" listStyleType="none">
            {STEP_NUMBERS.map((step, i) => (
              <Fragment key={step}>
                {i > 0 && <Separator as="li" aria-hidden="true" />}
                <StepRow app={app} step={step} />
              </Fragment>
            ))}
          </Stack>
        </Card.Body>
      </Card.Root>

      <SubmitDialog
        open={dialog === 'submit'}
        onClose={() => setDialog(null)}
        t={t}
        entityName={app.company?.entityName ?? ''}
        onSubmitted={() => setDialog(null)}
        onIncomplete={() => void navigate({ to: APPLY_PATH, search: { step: 'review' } })}
      />
      <ChangeToRegularDialog open={dialog === 'toRegular'} onClose={() => setDialog(null)} t={t} />
    </Stack>
  )
}

/** What the application's state means for the user. */
function Notice({ app }: { app: CorporateApplication }) {
  const { t } = useCorporateTexts()
  const status = app.accountType === 'enterprise' && app.status !== 'approved' ? 'enterprise' : app.status
  const alert = {
    none: 'info',
    draft: 'info',
    pending: 'warning',
    approved: 'success',
    rejected: 'error',
    enterprise: 'success',
  } as const
  return (
    <Alert.Root status={alert[status]} data-testid="corporate-notice">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t(`notice.${status}.title`)}</Alert.Title>
        <Alert.Description>
          <Stack gap="2">
            <Text>{t(`notice.${status}.body`)}</Text>
            {app.status === 'rejected' && app.reasons.length > 0 && (
              <List.Root ps="4" data-testid="corporate-reasons">
                {app.reasons.map((r) => (
                  <List.Item key={r}>{r}</List.Item>
                ))}
              </List.Root>
            )}
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  )
}

/** One step: what it needs, how far it is, and its form. */
function StepRow({ app, step }: { app: CorporateApplication; step: StepNumber }) {
  const { t } = useCorporateTexts()
  const { t: s } = useCorporateTexts(step)
  const complete = stepComplete(app, step)
  const saved = stepSaved(app, step)
  const state = complete ? 'complete' : saved ? 'incomplete' : 'notStarted'
  return (
    <Stack as="li" direction={{ base: 'column', md: 'row' }} gap={{ base: '3', md: '6' }} py="4" align={{ base: 'stretch', md: 'center' }} data-testid={`corporate-step-row-${step}`}>
      <HStack gap="3" flex="1" align="flex-start">
        <Box
          boxSize="6"
          flexShrink={0}
          rounded="full"
          display="flex"
          alignItems="center"
          justifyContent="center"
          textStyle="xs"
          fontWeight="semibold"
          bg={complete ? 'green.solid' : 'bg.muted'}
          color={complete ? 'green.contrast' : saved ? 'orange.fg' : 'fg.muted'}
          borderWidth={saved && !complete ? '1px' : undefined}
          borderColor="orange.emphasized"
          aria-hidden="true"
        >
          {complete ? <LuCheck /> : step}
        </Box>
        <Stack gap="0.5">
          <Text fontWeight="semibold">
            {t('stepNumber', { n: step })} · {s('title')}
          </Text>
          <Text textStyle="sm" color="fg.muted">
            {s('needs')}
          </Text>
        </Stack>
      </HStack>
      <HStack gap="3" justify={{ base: 'space-between', md: 'flex-end' }} ps={{ base: '8', md: '0' }}>
        <Badge variant="subtle" colorPalette={complete ? 'green' : saved ? 'orange' : 'gray'} data-testid="corporate-step-state" data-state={state}>
          {t(`stepState.${state}`)}
        </Badge>
        {app.editable && (
          <Button asChild size="sm" variant="outline" aria-label={t('actions.editNamed', { name: s('title') })}>
            <AppLink href={`${APPLY_PATH}?step=${step}`}>{saved ? t('actions.edit') : t('actions.start')}</AppLink>
          </Button>
        )}
      </HStack>
    </Stack>
  )
}
