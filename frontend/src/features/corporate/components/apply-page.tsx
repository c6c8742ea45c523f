import { Alert, List, Stack, Text } from '@chakra-ui/react'
import { useBlocker, useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { PageFrame } from '@/components/layout/page-frame'
import type { CorporateApplication, Missing, StepNumber } from '../api/types'
import { APPLY_PATH, CORPORATE_PATH } from '../lib/paths'
import { firstIncompleteStep, nextView, previousView, type StepView } from '../lib/steps'
import { useCorporateTexts } from '../lib/texts'
import { ApplicantStep } from './applicant-step'
import { CompanyStep } from './company-step'
import { DocumentsStep } from './documents-step'
import { LeaveDialog } from './leave-dialog'
import { CorporateLoadError, CorporateSkeleton } from './loading'
import { PeopleStep } from './people-step'
import { QuestionnaireStep } from './questionnaire-step'
import { ReviewStep } from './review-step'
import { StatusBadge } from './status-badge'
import { StepNav } from './step-nav'
import type { SaveKind } from './step-shell'
import type { StepProps } from './step-props'
import { useCorporateApplication } from './use-application'

const STEP_FORMS: Record<StepNumber, (props: StepProps) => React.JSX.Element> = {
  1: ApplicantStep,
  2: CompanyStep,
  3: PeopleStep,
  4: DocumentsStep,
  5: QuestionnaireStep,
}

/**
 * /profile/corporate/apply?step=: the five steps' forms under a stepper,
 * and the review with the submit. Without a step (or with one that does
 * not exist) it opens the first step a submit still needs something of, so
 * a visit resumes where the application stopped. Every step saves its own
 * draft; leaving a step with unsaved changes asks first. While the
 * application is reviewed or approved, it shows what was sent, read-only.
 */
export function CorporateApplyPage({ view }: { view: StepView | undefined }) {
  const { t, lan, ready } = useCorporateTexts()
  const navigate = useNavigate()
  const query = useCorporateApplication()
  const app = query.data
  const [showMissing, setShowMissing] = useState(false)
  const dirty = useRef(false)
  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d
  }, [])

  const blocker = useBlocker({
    shouldBlockFn: () => dirty.current,
    enableBeforeUnload: () => dirty.current,
    withResolver: true,
  })

  const go = useCallback(
    (next: StepView, replace = false) => void navigate({ to: APPLY_PATH, search: { step: next }, replace }),
    [navigate],
  )

  // A visit without a step resumes at the first incomplete one.
  useEffect(() => {
    if (app && app.editable && view === undefined) go(firstIncompleteStep(app), true)
  }, [app, view, go])

  // A new step's title takes focus (a screen reader hears where it is), and the page scrolls to it.
  const shown = useRef<StepView | undefined>(undefined)
  useEffect(() => {
    if (!app || view === undefined) return
    if (shown.current !== undefined && shown.current !== view) {
      const title = document.querySelector<HTMLElement>('[data-step-title]')
      title?.focus({ preventScroll: true })
      window.scrollTo({ top: 0 })
    }
    shown.current = view
  }, [app, view])

  const onSaved = useCallback(
    (kind: SaveKind, saved: CorporateApplication) => {
      if (kind !== 'continue' || view === undefined) return
      // Saved: nothing is left to lose, so the move is not held up.
      dirty.current = false
      go(nextView(view))
      if (saved.missing.length === 0) setShowMissing(false)
    },
    [view, go],
  )

  const onIncomplete = (missing: Missing[]) => {
    setShowMissing(true)
    if (missing.length > 0) go(missing[0].field.startsWith('businessAddress.') ? 2 : missing[0].step)
  }

  if (!ready) {
    return (
      <PageFrame>
        <CorporateSkeleton />
      </PageFrame>
    )
  }

  return (
    <PageFrame
      back={{ href: CORPORATE_PATH, label: t('backToOverview'), testId: 'corporate-back' }}
      title={t('title')}
      badge={app && <StatusBadge status={app.status} t={t} />}
      testId="corporate-apply-page"
    >
      {query.isLoading || (app && app.editable && view === undefined) ? (
        <CorporateSkeleton t={t} />
      ) : !app ? (
        <CorporateLoadError t={t} onRetry={() => void query.refetch()} />
      ) : !app.editable ? (
        <Stack gap="4">
          <Alert.Root status={app.status === 'approved' ? 'success' : 'info'} data-testid="corporate-readonly">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t(`notice.${app.status}.title`)}</Alert.Title>
              <Alert.Description>{t(`notice.${app.status}.body`)}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <ReviewStep app={app} t={t} readOnly />
        </Stack>
      ) : (
        <Stack gap={{ base: '5', md: '6' }}>
          {app.status === 'rejected' && app.reasons.length > 0 && (
            <Alert.Root status="error" data-testid="corporate-reasons">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('notice.rejected.title')}</Alert.Title>
                <Alert.Description>
                  <List.Root ps="4">
                    {app.reasons.map((r) => (
                      <List.Item key={r}>{r}</List.Item>
                    ))}
                  </List.Root>
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <StepNav app={app} view={view ?? 1} t={t} onView={(v) => go(v)} />
          {view === 'review' ? (
            <ReviewStep
              app={app}
              t={t}
              readOnly={false}
              onEdit={(s) => go(s)}
              onIncomplete={onIncomplete}
              onSubmitted={() => void navigate({ to: CORPORATE_PATH })}
            />
          ) : view !== undefined ? (
            <StepForm
              key={view}
              step={view}
              props={{
                app,
                t,
                lan,
                showMissing,
                onSaved,
                onDirtyChange,
                onBack: previousView(view) ? () => go(previousView(view) as StepView) : undefined,
              }}
            />
          ) : null}
          <Text textStyle="xs" color="fg.muted">
            {t('draftNote')}
          </Text>
        </Stack>
      )}
      <LeaveDialog open={blocker.status === 'blocked'} onStay={() => blocker.reset?.()} onLeave={() => blocker.proceed?.()} t={t} />
    </PageFrame>
  )
}

/** The form of one step. */
function StepForm({ step, props }: { step: StepNumber; props: StepProps }) {
  const { onDirtyChange } = props
  // A form that goes leaves nothing unsaved behind it.
  useEffect(() => () => onDirtyChange(false), [onDirtyChange])
  const Form = STEP_FORMS[step]
  return <Form {...props} />
}
