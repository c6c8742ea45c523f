import { Badge } from '@chakra-ui/react'
import { useTexts } from '@/lib/i18n'

/** True when a resolved menu href leads to a capability that is not live (its maintenance page). */
export function isSoon(href: string): boolean {
  return href === '/maintenance' || href.startsWith('/maintenance?')
}

/**
 * The "Soon" mark of a menu item whose capability is not live yet: the menu
 * says so before the click, and the mark goes as soon as the route exists.
 */
export function SoonBadge() {
  const { t } = useTexts('navbar')
  return (
    <Badge size="xs" variant="subtle" colorPalette="gray" flexShrink={0} data-testid="soon-badge">
      {t('soon')}
    </Badge>
  )
}
