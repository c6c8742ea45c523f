import { Alert, Button, Center, HStack, Spinner, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useTexts } from '@/lib/i18n'
import { holdingsQuery, projectsQuery, type Holding, type Project } from '../api/savings-api'

/** The product of a coin and the user's position in it, as the dialogs need them (one product per coin). */
export interface SavingsOf {
  project?: Project
  holding?: Holding
  isLoading: boolean
  isError: boolean
  refetch: () => void
}

/**
 * The product of `coin` and the signed-in user's holding in it (both from
 * the shared queries); the holdings are asked for only while `open` (a
 * dialog that is closed asks for nothing).
 */
export function useSavingsOf(coin: string | undefined, open: boolean): SavingsOf {
  const projects = useQuery({ ...projectsQuery, enabled: open })
  const holdings = useQuery({ ...holdingsQuery, enabled: open })
  const project = projects.data?.find((p) => p.coinSymbol === coin)
  const holding = holdings.data?.find((h) => h.coinSymbol === coin)
  return {
    project,
    holding,
    isLoading: projects.isPending || holdings.isPending,
    isError: projects.isError || holdings.isError,
    refetch: () => {
      void projects.refetch()
      void holdings.refetch()
    },
  }
}

/** A dialog's body while what it needs loads, or when it could not be read. */
export function DialogState({ isError, onRetry, testId }: { isError: boolean; onRetry: () => void; testId: string }) {
  const common = useTexts('common')
  if (isError) {
    return (
      <HStack justify="space-between" role="alert" data-testid={`${testId}-error`}>
        <Text color="fg.error" fontSize="sm">
          {common.t('error')}
        </Text>
        <Button size="xs" variant="outline" onClick={onRetry}>
          {common.t('retry')}
        </Button>
      </HStack>
    )
  }
  return (
    <Center py="10" gap="2" role="status" data-testid={`${testId}-loading`}>
      <Spinner size="sm" />
      <Text color="fg.muted">{common.t('loading')}</Text>
    </Center>
  )
}

/** A notice in a dialog: why it cannot go on (a closed product, nothing to redeem). */
export function DialogNotice({ text, testId }: { text: string; testId: string }) {
  return (
    <Alert.Root status="info" data-testid={testId}>
      <Alert.Indicator />
      <Alert.Title>{text}</Alert.Title>
    </Alert.Root>
  )
}
