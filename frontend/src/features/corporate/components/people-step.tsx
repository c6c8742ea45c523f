import { Alert, Box, Button, Card, Checkbox, Heading, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { LuPlus, LuTrash2, LuUsers } from 'react-icons/lu'
import { FormField } from '@/components/form/form-field'
import type { TranslateFn } from '@/lib/i18n'
import { ROLES, type Role } from '../api/types'
import { saveCompanyUser } from '../api/save-company-user'
import { emptyPerson, peopleOf, peopleValues } from '../lib/forms'
import { missingErrors } from '../lib/server-errors'
import { useCorporateTexts } from '../lib/texts'
import {
  formatHundredths,
  LIMITS,
  ownershipTotalHundredths,
  todayISO,
  validatePeople,
  type CheckMode,
  type PeopleValues,
  type PersonValues,
} from '../lib/validation'
import { CountryField, GroupField, TextField } from './fields'
import { StepShell } from './step-shell'
import type { StepProps } from './step-props'
import { useStepForm, type StepForm } from './use-step-form'
import { useStepSave } from './use-step-save'

/** The list's own problems (shares over 100%, too many people) show as they arise. */
const LIVE = ['people']

/**
 * Step 3: the company's representatives (directors, signatories) and its
 * beneficial owners with their shares, and the applicant's word that no
 * owner of 25% or more is left out. The list replaces the saved one: a
 * person kept keeps their id (and their ID documents of step 4).
 */
export function PeopleStep({ app, t, lan, showMissing, onSaved, onBack, onDirtyChange }: StepProps) {
  const { t: s } = useCorporateTexts(3)
  const formRef = useRef<HTMLFormElement>(null)
  const addRef = useRef<HTMLButtonElement>(null)
  const today = todayISO()
  const missing = useMemo(() => (showMissing ? missingErrors(app.missing, 3) : {}), [showMissing, app.missing])
  const validate = useCallback((v: PeopleValues, mode: CheckMode) => validatePeople(v, mode, today), [today])
  const form = useStepForm<PeopleValues>({ initial: () => peopleValues(app), validate, missing, t, live: LIVE })
  const { shell } = useStepSave({
    form,
    formRef,
    t,
    valuesOf: peopleValues,
    onSaved,
    send: (v, run) => run(() => saveCompanyUser(peopleOf(v))),
  })
  useEffect(() => onDirtyChange(form.dirty), [form.dirty, onDirtyChange])

  const people = form.values.people
  const total = ownershipTotalHundredths(people)
  const focusAfterAdd = useRef<string | undefined>(undefined)
  useEffect(() => {
    const key = focusAfterAdd.current
    if (!key) return
    focusAfterAdd.current = undefined
    formRef.current?.querySelector<HTMLInputElement>(`[data-person="${key}"] input[name$=".name"]`)?.focus()
  }, [people.length])

  const add = () => {
    const person = emptyPerson()
    focusAfterAdd.current = person.key
    form.update((v) => ({ ...v, people: [...v.people, person] }), 'people')
  }
  const remove = (key: string) => {
    // Messages by position would move to the wrong person: the refusals of the list go.
    form.update((v) => ({ ...v, people: v.people.filter((p) => p.key !== key) }), 'people', ...people.flatMap((_, i) => personFields(i)))
    addRef.current?.focus()
  }

  return (
    <StepShell
      title={s('title')}
      intro={s('intro')}
      testId="corporate-step-3"
      {...shell}
      onBack={onBack}
    >
      <Stack gap="4" data-field="people" tabIndex={-1} outline="none" aria-labelledby="corporate-people-heading">
        <HStack justify="space-between" flexWrap="wrap" gap="3">
          <Heading as="h3" size="sm" id="corporate-people-heading">
            {s('listTitle', { count: people.length, max: LIMITS.people })}
          </Heading>
          <Text textStyle="sm" color={total > 10000 ? 'fg.error' : 'fg.muted'} data-testid="ownership-total" aria-live="polite">
            {s('ownershipTotal', { total: formatHundredths(total) })}
          </Text>
        </HStack>
        {form.errorOf('people') && (
          <Alert.Root status="error" data-testid="people-error">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">{form.errorOf('people')}</Alert.Title>
          </Alert.Root>
        )}
        {people.length === 0 ? (
          <Stack align="center" gap="2" py="8" borderWidth="1px" borderStyle="dashed" rounded="l2" textAlign="center" data-testid="people-empty">
            <Box color="fg.muted">
              <LuUsers size="28" aria-hidden="true" />
            </Box>
            <Text fontWeight="medium">{s('emptyTitle')}</Text>
            <Text textStyle="sm" color="fg.muted" maxW="md">
              {s('emptyText')}
            </Text>
          </Stack>
        ) : (
          <Stack gap="4" as="ol" listStyleType="none">
            {people.map((p, i) => (
              <Box as="li" key={p.key}>
                <PersonCard index={i} person={p} form={form} s={s} t={t} lan={lan} today={today} onRemove={() => remove(p.key)} />
              </Box>
            ))}
          </Stack>
        )}
        <Button ref={addRef} variant="outline" alignSelf="flex-start" onClick={add} disabled={people.length >= LIMITS.people} data-testid="add-person">
          <LuPlus aria-hidden="true" />
          {s('addPerson')}
        </Button>
      </Stack>

      <Box data-field="allOwnersListed" tabIndex={-1} outline="none">
        <Checkbox.Root
          colorPalette="brand"
          checked={form.values.allOwnersListed}
          invalid={!!form.errorOf('allOwnersListed')}
          onCheckedChange={(d) => form.update((v) => ({ ...v, allOwnersListed: d.checked === true }), 'allOwnersListed')}
          data-testid="all-owners-listed"
          alignItems="flex-start"
        >
          <Checkbox.HiddenInput name="allOwnersListed" />
          <Checkbox.Control mt="0.5" />
          <Checkbox.Label fontWeight="normal">{s('allOwnersListed')}</Checkbox.Label>
        </Checkbox.Root>
        {form.errorOf('allOwnersListed') && (
          <Text textStyle="xs" color="fg.error" mt="1.5" role="alert">
            {form.errorOf('allOwnersListed')}
          </Text>
        )}
      </Box>
    </StepShell>
  )
}

/** The fields of the person at an index, as the API names them. */
function personFields(i: number): string[] {
  return ['name', 'roles', 'nationality', 'dateOfBirth', 'ownershipPercent'].map((f) => `people[${i}].${f}`)
}

/** One person: name, roles, nationality, date of birth, and an owner's share. */
function PersonCard({
  index,
  person,
  form,
  s,
  t,
  lan,
  today,
  onRemove,
}: {
  index: number
  person: PersonValues
  form: StepForm<PeopleValues>
  s: TranslateFn
  t: TranslateFn
  lan: string
  today: string
  onRemove: () => void
}) {
  const f = (name: string) => `people[${index}].${name}`
  const set = (patch: Partial<PersonValues>, field: string) =>
    form.update((v) => ({ ...v, people: v.people.map((p) => (p.key === person.key ? { ...p, ...patch } : p)) }), f(field), 'people')
  const toggleRole = (role: Role, on: boolean) => {
    const roles = ROLES.filter((r) => (r === role ? on : person.roles.includes(r)))
    set({ roles, ...(roles.includes('owner') ? {} : { ownershipPercent: '' }) }, 'roles')
  }
  const title = person.name.trim() || s('personNumber', { n: index + 1 })
  const isOwner = person.roles.includes('owner')
  const rolesError = form.errorOf(f('roles'))
  return (
    <Card.Root variant="subtle" size="sm" data-person={person.key} data-testid="person-card">
      <Card.Header>
        <HStack justify="space-between" gap="3">
          <Heading as="h4" size="sm" truncate>
            {title}
          </Heading>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={onRemove} aria-label={s('removeNamed', { name: title })} data-testid="remove-person">
            <LuTrash2 aria-hidden="true" />
            <Box as="span" hideBelow="sm">
              {s('remove')}
            </Box>
          </Button>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <TextField
              name={f('name')}
              label={s('fields.name.label')}
              required
              value={person.name}
              error={form.errorOf(f('name'))}
              onChange={(name) => set({ name }, 'name')}
              onBlur={() => form.touch(f('name'))}
              inputProps={{ autoComplete: 'off' }}
            />
            <CountryField
              name={f('nationality')}
              label={s('fields.nationality.label')}
              placeholder={t('countryPlaceholder')}
              lan={lan}
              required
              value={person.nationality}
              error={form.errorOf(f('nationality'))}
              onChange={(nationality) => set({ nationality }, 'nationality')}
              onBlur={() => form.touch(f('nationality'))}
            />
            <TextField
              name={f('dateOfBirth')}
              label={s('fields.dateOfBirth.label')}
              helper={s('fields.dateOfBirth.helper')}
              required
              value={person.dateOfBirth}
              error={form.errorOf(f('dateOfBirth'))}
              onChange={(dateOfBirth) => set({ dateOfBirth }, 'dateOfBirth')}
              onBlur={() => form.touch(f('dateOfBirth'))}
              inputProps={{ type: 'date', max: today }}
            />
          </SimpleGrid>
          <GroupField label={s('fields.roles.label')} helper={s('fields.roles.helper')} error={rolesError} required>
            <HStack gap="5" flexWrap="wrap">
              {ROLES.map((role) => (
                <Checkbox.Root
                  key={role}
                  colorPalette="brand"
                  checked={person.roles.includes(role)}
                  invalid={!!rolesError}
                  onCheckedChange={(d) => toggleRole(role, d.checked === true)}
                  data-testid={`role-${role}`}
                >
                  <Checkbox.HiddenInput name={f('roles')} value={role} />
                  <Checkbox.Control />
                  <Checkbox.Label>{s(`roles.${role}`)}</Checkbox.Label>
                </Checkbox.Root>
              ))}
            </HStack>
          </GroupField>
          {isOwner && (
            <Box maxW={{ md: '50%' }}>
              <FormField label={s('fields.ownershipPercent.label')} helper={s('fields.ownershipPercent.helper')} error={form.errorOf(f('ownershipPercent'))} required>
                <HStack gap="2" w="full">
                  <Input
                    name={f('ownershipPercent')}
                    value={person.ownershipPercent}
                    inputMode="decimal"
                    autoComplete="off"
                    onChange={(e) => set({ ownershipPercent: e.target.value.replace(',', '.') }, 'ownershipPercent')}
                    onBlur={() => form.touch(f('ownershipPercent'))}
                    data-testid={`field-${f('ownershipPercent')}`}
                  />
                  <Text aria-hidden="true" color="fg.muted">
                    %
                  </Text>
                </HStack>
              </FormField>
            </Box>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
