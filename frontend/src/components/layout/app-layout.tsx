import { Box, chakra, Flex } from '@chakra-ui/react'
import { Outlet, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { Toaster } from '@/components/ui/toaster'
import { useLiveUserUpdates } from '@/features/live-updates/use-live-user-updates'
import { getLanguage } from '@/lib/cookies'
import { useTexts } from '@/lib/i18n'
import { applyPageMeta, pageMeta } from '@/lib/page-meta'
import { reportPageView } from '@/lib/page-view'
import { Footer } from './footer'
import { MobileHeader, MOBILE_HEADER_HEIGHT } from './mobile-header'
import { Navbar } from './navbar'
import { StickyBar } from './sticky-bar'

/** Sets title/description and reports a page view on every route change (spec §2). */
function usePageTracking() {
  const location = useRouterState({ select: (s) => s.location })
  const previous = useRef<string>(typeof document !== 'undefined' ? document.referrer : '')
  const reported = useRef<string | null>(null)
  useEffect(() => {
    const meta = pageMeta(location.pathname, location.search as Record<string, unknown>, getLanguage())
    applyPageMeta(meta)
    if (reported.current === location.href) return
    reported.current = location.href
    void reportPageView({ path: location.href, title: meta.title, referrer: previous.current })
    previous.current = `${window.location.origin}${location.href}`
  }, [location.href, location.pathname, location.search])
}

/** Root layout: skip link, navbar or mobile header, page, footer, toasts. */
export function AppLayout() {
  const { t } = useTexts('navbar')
  usePageTracking()
  useLiveUserUpdates()
  return (
    <Flex direction="column" minH="100dvh">
      <chakra.a
        href="#main-content"
        position="absolute"
        left="2"
        top="-20"
        zIndex="skipLink"
        bg="bg"
        px="3"
        py="2"
        rounded="md"
        borderWidth="1px"
        _focus={{ top: '2' }}
      >
        {t('skipToContent')}
      </chakra.a>
      <StickyBar />
      <Navbar />
      <MobileHeader />
      <Box as="main" id="main-content" flex="1" tabIndex={-1} outline="none" pt={{ base: MOBILE_HEADER_HEIGHT, lg: '0' }}>
        <Outlet />
      </Box>
      <Footer />
      <Toaster />
    </Flex>
  )
}
