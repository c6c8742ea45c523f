import { Badge, Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import type { FormEvent, ReactNode, RefObject } from 'react'
import { LuArrowLeft } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import type { TranslateFn } from '@/lib/i18n'

/** Which save is running. */
export type SaveKind = 'draft' | 'continue'

/**
 * The frame of one step's form: its title and what it asks for, the
 * fields, and the actions: Back, Save (a draft, blanks allowed) and Save
 * and continue (the step complete, then the next one). Enter submits as
 * Save and continue.
 */
export function StepShell({
  title,
  intro,
  testId,
  formRef,
  t,
  saving,
  dirty,
  onSave,
  onBack,
  continueLabel,
  children,
}: {
  title: string
  intro: string
  testId: string
  formRef: RefObject<HTMLFormElement | null>
  /** The general page's texts. */
  t: TranslateFn
  saving: SaveKind | undefined
  dirty: boolean
  onSave: (kind: SaveKind) => void
  onBack?: () => void
  /** The label of the main action (default: Save and continue). */
  continueLabel?: string
  children: ReactNode
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSave('continue')
  }
  return (
    <Card.Root data-testid={testId} variant="outline">
      <form ref={formRef} noValidate onSubmit={submit} aria-labelledby={`${testId}-title`}>
        <Card.Header>
          <Stack gap="1">
            <Heading as="h2" size="lg" id={`${testId}-title`} tabIndex={-1} data-step-title>
              {title}
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              {intro}
            </Text>
          </Stack>
        </Card.Header>
        <Card.Body>
          <Stack gap="5">{children}</Stack>
        </Card.Body>
        <Card.Footer>
          <Stack direction={{ base: 'column-reverse', sm: 'row' }} gap="3" w="full" justify="space-between" align={{ base: 'stretch', sm: 'center' }}>
            <HStack gap="3">
              {onBack && (
                <Button variant="ghost" onClick={onBack} disabled={!!saving} data-testid="step-back">
                  <LuArrowLeft aria-hidden="true" />
                  {t('actions.back')}
                </Button>
              )}
              {dirty && (
                <Badge colorPalette="orange" variant="subtle" data-testid="step-unsaved">
                  {t('actions.unsaved')}
                </Badge>
              )}
            </HStack>
            <Stack direction={{ base: 'column-reverse', sm: 'row' }} gap="3">
              <BusyButton
                variant="outline"
                loading={saving === 'draft'}
                disabled={!!saving && saving !== 'draft'}
                onClick={() => onSave('draft')}
                data-testid="step-save"
              >
                {t('actions.save')}
              </BusyButton>
              <BusyButton
                type="submit"
                colorPalette="brand"
                loading={saving === 'continue'}
                disabled={!!saving && saving !== 'continue'}
                data-testid="step-save-continue"
              >
                {continueLabel ?? t('actions.saveContinue')}
              </BusyButton>
            </Stack>
          </Stack>
        </Card.Footer>
      </form>
    </Card.Root>
  )
}
