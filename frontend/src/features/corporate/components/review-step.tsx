import { Alert, Badge, Box, Button, Card, Grid, Heading, HStack, List, Stack, Text } from '@chakra-ui/react'
import { Fragment, useState, type ReactNode } from 'react'
import { LuPencil } from 'react-icons/lu'
import type { TranslateFn } from '@/lib/i18n'
import { COMPANY_DOCUMENT_KINDS, STEP_NUMBERS, type CorporateApplication, type Missing, type StepNumber } from '../api/types'
import { formatAddress } from '../lib/format'
import { displayStep, missingMessage } from '../lib/server-errors'
import { stepComplete } from '../lib/steps'
import { useCorporateTexts } from '../lib/texts'
import { AttachedFileRow } from './file-preview'
import { SubmitDialog } from './submit-dialog'
import { useCountryName } from './use-country-name'

/**
 * Everything the application holds, step by step, with what a submit still
 * needs; each step has a link to its form, and the application is
 * submitted from here after a confirmation. Read-only (no links, no
 * submit) while it is reviewed or approved.
 */
export function ReviewStep({
  app,
  t,
  readOnly,
  onEdit,
  onSubmitted,
  onIncomplete,
}: {
  app: CorporateApplication
  t: TranslateFn
  readOnly: boolean
  onEdit?: (step: StepNumber) => void
  onSubmitted?: (app: CorporateApplication) => void
  onIncomplete?: (missing: Missing[]) => void
}) {
  const texts = [useCorporateTexts(1).t, useCorporateTexts(2).t, useCorporateTexts(3).t, useCorporateTexts(4).t, useCorporateTexts(5).t]
  const sOf = (step: StepNumber) => texts[step - 1]
  const [confirming, setConfirming] = useState(false)
  const nameOf = useCountryName()
  const yesNo = (v: boolean | null | undefined) => (v === true ? t('yes') : v === false ? t('no') : '')
  const a = app.applicant
  const c = app.company
  const q = app.questionnaire
  const people = app.people?.people ?? []
  const files = app.documents?.files ?? []
  const incomplete = STEP_NUMBERS.filter((s) => !stepComplete(app, s))

  /** The name of a missing field as its form labels it. */
  const label = (m: Missing): string => {
    const step = displayStep(m)
    const s = sOf(step)
    if (m.field.startsWith('businessAddress.')) {
      const part = m.field.slice('businessAddress.'.length)
      return s(`fields.business${part.charAt(0).toUpperCase()}${part.slice(1)}.label`)
    }
    if (m.field.startsWith('files.representative_id.')) {
      const id = m.field.slice('files.representative_id.'.length)
      return sOf(4)('kinds.representative_id.title', { name: people.find((p) => p.id === id)?.name ?? id })
    }
    if (m.field.startsWith('files.')) return sOf(4)(`kinds.${m.field.slice('files.'.length)}.title`)
    // Lists and declarations: the message says it all.
    if (m.field === 'people' || m.field === 'allOwnersListed' || m.field === 'accuracyConfirmed') return ''
    return s(`fields.${m.field}.label`)
  }

  const section = (step: StepNumber, body: ReactNode) => {
    const missing = app.missing.filter((m) => displayStep(m) === step)
    const complete = missing.length === 0
    return (
      <Card.Root key={step} variant="outline" size="sm" as="section" aria-labelledby={`review-step-${step}`} data-testid={`review-step-${step}`}>
        <Card.Header>
          <HStack justify="space-between" gap="3" flexWrap="wrap">
            <HStack gap="2">
              <Heading as="h3" size="md" id={`review-step-${step}`}>
                {t('stepNumber', { n: step })} · {sOf(step)('title')}
              </Heading>
              <Badge colorPalette={complete ? 'green' : 'orange'} variant="subtle" data-testid="review-step-state">
                {complete ? t('stepState.complete') : t('stepState.incomplete')}
              </Badge>
            </HStack>
            {!readOnly && onEdit && (
              <Button size="xs" variant="outline" onClick={() => onEdit(step)} aria-label={t('actions.editNamed', { name: sOf(step)('title') })} data-testid="review-edit">
                <LuPencil aria-hidden="true" />
                {t('actions.edit')}
              </Button>
            )}
          </HStack>
        </Card.Header>
        <Card.Body pt="2">
          <Stack gap="3">
            {body}
            {!readOnly && missing.length > 0 && (
              <Alert.Root status="warning" size="sm" data-testid="review-missing">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t('review.missingTitle')}</Alert.Title>
                  <Alert.Description>
                    <List.Root ps="4" gap="0.5">
                      {missing.map((m) => {
                        const name = label(m)
                        const message = t(missingMessage(m).key, missingMessage(m).vars)
                        return <List.Item key={`${m.field}-${m.rule}`}>{name ? `${name}: ${message}` : message}</List.Item>
                      })}
                    </List.Root>
                  </Alert.Description>
                </Alert.Content>
              </Alert.Root>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    )
  }

  // A list of labels and values: side by side from 768 px, stacked below.
  const rows = (items: [string, ReactNode][]) => (
    <Grid as="dl" templateColumns={{ base: '1fr', md: 'minmax(12rem, 18rem) 1fr' }} columnGap="6" rowGap={{ base: '0.5', md: '2' }} textStyle="sm">
      {items.map(([l, v]) => (
        <Fragment key={l}>
          <Text as="dt" color="fg.muted" mt={{ base: '2', md: '0' }}>
            {l}
          </Text>
          <Text as="dd" overflowWrap="anywhere" whiteSpace="pre-line">
            {v === '' || v == null ? (
              <Text as="span" color="fg.subtle">
                {t('notGiven')}
              </Text>
            ) : (
              v
            )}
          </Text>
        </Fragment>
      ))}
    </Grid>
  )

  const s1 = sOf(1)
  const s2 = sOf(2)
  const s3 = sOf(3)
  const s4 = sOf(4)
  const s5 = sOf(5)

  return (
    <Stack gap="4" data-testid="corporate-review">
      {!readOnly && (
        <Stack gap="1">
          <Heading as="h2" size="lg" tabIndex={-1} data-step-title>
            {t('review.title')}
          </Heading>
          <Text color="fg.muted" textStyle="sm">
            {t('review.intro')}
          </Text>
        </Stack>
      )}

      {section(
        1,
        rows([
          [s1('fields.fullName.label'), a?.fullName],
          [s1('fields.position.label'), a?.position],
          [s1('fields.email.label'), a?.email],
          [s1('fields.phone.label'), a?.phone],
        ]),
      )}
      {section(
        2,
        rows([
          [s2('fields.entityName.label'), c?.entityName],
          [s2('fields.registrationNumber.label'), c?.registrationNumber],
          [s2('fields.registrationDate.label'), c?.registrationDate],
          [s2('fields.contactNumber.label'), c?.contactNumber],
          [s2('fields.businessType.label'), c?.businessType],
          [s2('fields.sourceOfFunds.label'), c?.sourceOfFunds],
          [s2('fields.applyReason.label'), c?.applyReason],
          [s2('registeredAddress'), c ? formatAddress({ street: c.registeredStreet, city: c.registeredCity, zip: c.registeredZip, country: c.registeredCountry }, nameOf) : ''],
          [s2('fields.businessAddressSame.label'), yesNo(c?.businessAddressSame)],
          ...(c?.businessAddressSame === false ? ([[s2('businessAddress'), formatAddress(a?.businessAddress, nameOf)]] as [string, ReactNode][]) : []),
        ]),
      )}
      {section(
        3,
        <Stack gap="3">
          {people.length === 0 ? (
            <Text color="fg.subtle">{s3('emptyTitle')}</Text>
          ) : (
            <Stack as="ul" listStyleType="none" gap="2">
              {people.map((p) => (
                <Box as="li" key={p.id} p="3" borderWidth="1px" rounded="l2" data-testid="review-person">
                  <HStack justify="space-between" flexWrap="wrap" gap="2">
                    <Text fontWeight="semibold">{p.name}</Text>
                    <HStack gap="1" flexWrap="wrap">
                      {p.roles.map((r) => (
                        <Badge key={r} variant="outline" size="sm">
                          {s3(`roles.${r}`)}
                          {r === 'owner' && p.ownershipPercent ? ` · ${p.ownershipPercent}%` : ''}
                        </Badge>
                      ))}
                    </HStack>
                  </HStack>
                  <Text textStyle="sm" color="fg.muted">
                    {[nameOf(p.nationality), p.dateOfBirth].filter(Boolean).join(' · ')}
                  </Text>
                </Box>
              ))}
            </Stack>
          )}
          {rows([[s3('allOwnersListedShort'), yesNo(app.people ? app.people.allOwnersListed : null)]])}
        </Stack>,
      )}
      {section(
        4,
        <Stack gap="3">
          {[...COMPANY_DOCUMENT_KINDS.map((kind) => ({ kind, personId: '', title: s4(`kinds.${kind}.title`) })), ...people.map((p) => ({ kind: 'representative_id' as const, personId: p.id, title: s4('kinds.representative_id.title', { name: p.name }) }))].map(
            (d) => {
              const attached = files.filter((f) => f.kind === d.kind && f.personId === d.personId)
              if (attached.length === 0 && d.kind === 'other') return null
              return (
                <Stack key={`${d.kind}-${d.personId}`} gap="1.5">
                  <Text textStyle="sm" fontWeight="medium">
                    {d.title}
                  </Text>
                  {attached.length === 0 ? (
                    <Text textStyle="sm" color="fg.subtle">
                      {t('notGiven')}
                    </Text>
                  ) : (
                    <Stack as="ul" listStyleType="none" gap="2">
                      {attached.map((f) => (
                        <Box as="li" key={f.uploadId}>
                          <AttachedFileRow uploadId={f.uploadId} meta={undefined} t={t} />
                        </Box>
                      ))}
                    </Stack>
                  )}
                </Stack>
              )
            },
          )}
        </Stack>,
      )}
      {section(
        5,
        rows([
          [s5('fields.monthlyVolume.label'), q?.monthlyVolume ? s5(`volumes.${q.monthlyVolume}`) : ''],
          [s5('fields.purposes.label'), (q?.purposes ?? []).map((p) => s5(`purposes.${p}`)).join(', ')],
          ...(q?.purposes.includes('other') ? ([[s5('fields.purposeDetail.label'), q.purposeDetail]] as [string, ReactNode][]) : []),
          [s5('fields.pep.label'), yesNo(q?.pep)],
          ...(q?.pep ? ([[s5('fields.pepDetail.label'), q.pepDetail]] as [string, ReactNode][]) : []),
          [s5('fields.sanctions.label'), yesNo(q?.sanctions)],
          ...(q?.sanctions ? ([[s5('fields.sanctionsDetail.label'), q.sanctionsDetail]] as [string, ReactNode][]) : []),
          [s5('accuracyShort'), yesNo(q ? q.accuracyConfirmed : null)],
        ]),
      )}

      {!readOnly && (
        <Card.Root variant="subtle">
          <Card.Body>
            <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'stretch', md: 'center' }} gap="4">
              <Text textStyle="sm" color={app.canSubmit ? 'fg' : 'fg.muted'} data-testid="review-submit-hint">
                {app.canSubmit ? t('review.ready') : t('review.notReady', { steps: incomplete.join(', ') })}
              </Text>
              <Button colorPalette="brand" disabled={!app.canSubmit} onClick={() => setConfirming(true)} data-testid="review-submit">
                {t('actions.submitForReview')}
              </Button>
            </Stack>
          </Card.Body>
        </Card.Root>
      )}
      {!readOnly && (
        <SubmitDialog
          open={confirming}
          onClose={() => setConfirming(false)}
          t={t}
          entityName={c?.entityName ?? ''}
          onSubmitted={(next) => {
            setConfirming(false)
            onSubmitted?.(next)
          }}
          onIncomplete={(missing) => onIncomplete?.(missing)}
        />
      )}
    </Stack>
  )
}
