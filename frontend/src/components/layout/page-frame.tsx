import { Alert, Button, Container, Heading, HStack, Link, Stack, Text, type ContainerProps } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { LuArrowLeft } from 'react-icons/lu'
import { AppLink } from './app-link'

/** Props of {@link PageFrame}. */
export interface PageFrameProps {
  /** The page's h1; absent when the content names itself (a ticket's title). */
  title?: ReactNode
  subtitle?: ReactNode
  /** Beside the title: a status badge. */
  badge?: ReactNode
  /** At the title's end (right on wide screens, below it on phones): the page's main action. */
  action?: ReactNode
  back?: BackLinkProps
  maxW?: ContainerProps['maxW']
  testId?: string
  children?: ReactNode
}

/**
 * The frame of an account page (profile, identity, limits, corporate,
 * support): a centred column, an optional way back, the heading and its
 * lead, then the page's cards.
 */
export function PageFrame({ title, subtitle, badge, action, back, maxW = '5xl', testId, children }: PageFrameProps) {
  const heading = title !== undefined && (
    <Stack gap="1">
      <HStack gap="3" flexWrap="wrap">
        <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
          {title}
        </Heading>
        {badge}
      </HStack>
      {subtitle && (
        <Text color="fg.muted" maxW="3xl">
          {subtitle}
        </Text>
      )}
    </Stack>
  )
  return (
    <Container maxW={maxW} py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid={testId}>
      <Stack gap={{ base: '5', md: '6' }}>
        {back && <BackLink {...back} />}
        {action ? (
          <Stack direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'flex-end' }} gap="3">
            {heading}
            {action}
          </Stack>
        ) : (
          heading
        )}
        {children}
      </Stack>
    </Container>
  )
}

/** Props of {@link BackLink}. */
export interface BackLinkProps {
  href: string
  label: string
  testId?: string
}

/** A quiet link back to the page this one belongs to. */
export function BackLink({ href, label, testId }: BackLinkProps) {
  return (
    <Link asChild alignSelf="flex-start" textStyle="sm" color="fg.muted">
      <AppLink href={href} data-testid={testId}>
        <LuArrowLeft aria-hidden="true" />
        {label}
      </AppLink>
    </Link>
  )
}

/** Props of {@link LoadError}. */
export interface LoadErrorProps {
  title: string
  description?: string
  retryLabel: string
  onRetry: () => void
  retrying?: boolean
  testId?: string
  /** Set when the thing asked for does not exist (or is not the user's): said as a warning, with no retry. */
  notFound?: string
}

/** A page's data could not be read: what failed, and a retry; or that it does not exist. */
export function LoadError({ title, description, retryLabel, onRetry, retrying, testId, notFound }: LoadErrorProps) {
  return (
    <Alert.Root status={notFound ? 'warning' : 'error'} data-testid={testId}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{notFound ?? title}</Alert.Title>
        {!notFound && description && <Alert.Description>{description}</Alert.Description>}
      </Alert.Content>
      {!notFound && (
        <Button size="sm" variant="outline" onClick={onRetry} loading={retrying}>
          {retryLabel}
        </Button>
      )}
    </Alert.Root>
  )
}
