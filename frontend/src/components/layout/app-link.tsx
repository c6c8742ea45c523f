import { chakra, type HTMLChakraProps } from '@chakra-ui/react'
import { useRouter } from '@tanstack/react-router'
import * as React from 'react'

/** Props of {@link AppLink}. */
export interface AppLinkProps extends HTMLChakraProps<'a'> {
  href: string
}

/**
 * An anchor for in-app hrefs (with optional query string) that navigates
 * through the router, so links to pages whose routes arrive in later issues
 * still work like ordinary links. Modified clicks (new tab) stay native.
 */
export const AppLink = React.forwardRef<HTMLAnchorElement, AppLinkProps>(function AppLink(
  { href, onClick, target, ...rest },
  ref,
) {
  const router = useRouter()
  const handleClick = (event: React.MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      (target && target !== '_self') ||
      !href.startsWith('/')
    ) {
      return
    }
    event.preventDefault()
    router.history.push(href)
  }
  return <chakra.a ref={ref} href={href} target={target} onClick={handleClick} {...rest} />
})
