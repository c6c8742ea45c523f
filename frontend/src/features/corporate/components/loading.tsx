import { Skeleton, Stack } from '@chakra-ui/react'
import { LoadError } from '@/components/layout/page-frame'
import { useTexts, type TranslateFn } from '@/lib/i18n'

/** The shape of the page while the application (or, before it, the page's texts) loads. */
export function CorporateSkeleton({ t }: { t?: TranslateFn }) {
  // Before the page's own texts are in, the app's common "Loading…" names it.
  const common = useTexts('common').t
  return (
    <Stack gap="4" role="status" aria-live="polite" aria-label={t?.('loading') || common('loading')} data-testid="corporate-loading">
      <Skeleton h="10" rounded="l2" />
      <Skeleton h="40" rounded="l3" />
      <Skeleton h="56" rounded="l3" />
    </Stack>
  )
}

/** The application could not be read: say so, and offer to try again. */
export function CorporateLoadError({ t, onRetry }: { t: TranslateFn; onRetry: () => void }) {
  return (
    <LoadError title={t('loadError')} retryLabel={t('actions.retry')} onRetry={onRetry} testId="corporate-load-error" />
  )
}
