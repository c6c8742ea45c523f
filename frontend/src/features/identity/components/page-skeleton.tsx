import { Skeleton, Stack } from '@chakra-ui/react'
import { PageFrame } from '@/components/layout/page-frame'
import { useTexts } from '@/lib/i18n'

/** What the identity and limits pages show until their texts (and then their data) are in. */
export function PageSkeleton({ testId, withHeading = false }: { testId: string; withHeading?: boolean }) {
  const { t } = useTexts('common')
  const body = (
    <Stack gap="5" role="status" aria-live="polite" aria-label={t('loading')} data-testid={testId}>
      {withHeading && (
        <Stack gap="2">
          <Skeleton height="9" width="16rem" maxW="full" />
          <Skeleton height="5" width="28rem" maxW="full" />
        </Stack>
      )}
      <Skeleton height="14rem" rounded="l3" />
      <Skeleton height="12rem" rounded="l3" />
    </Stack>
  )
  if (!withHeading) return body
  return (
    <PageFrame>{body}</PageFrame>
  )
}
