import { Avatar, Box, Button, Center, Flex, HStack, IconButton, Spinner, Stack, Text } from '@chakra-ui/react'
import { useId, type ReactNode } from 'react'
import { LuCheck, LuCopy } from 'react-icons/lu'
import { markUnreachableTold, notifyError, notifyUnreachable } from '@/lib/notify'
import { isNetworkError } from '@/lib/request-client'
import { useCopy } from '../hooks/use-copy'
import { HIDDEN_BALANCE } from '../lib/format'

/**
 * Says that a wallet call failed without a refusal from the server: the
 * shared "exchange could not be reached" toast when there was no answer
 * (not its raw English 'Error: ...' text), else the error's text.
 */
export function notifyFailure(e: unknown): void {
  if (isNetworkError(e)) notifyUnreachable()
  else notifyError(e instanceof Error ? e.message : String(e))
}

/**
 * The text of a failed call for an inline error: `unreachable` (the common
 * catalogue's serverUnreachable) when there was no answer, and then no toast
 * on top of it; else the error's text.
 */
export function failureText(e: unknown, unreachable: string): string {
  if (!isNetworkError(e)) return e instanceof Error ? e.message : String(e)
  markUnreachableTold()
  return unreachable
}

/** A coin's icon with its letters as the fallback. */
export function CoinIcon({ coin, src, size = 'xs' }: { coin: string; src?: string; size?: 'xs' | '2xs' | 'sm' }) {
  return (
    <Avatar.Root size={size} flexShrink={0} colorPalette="brand">
      <Avatar.Fallback name={coin}>{coin.slice(0, 2)}</Avatar.Fallback>
      {src ? <Avatar.Image src={src} alt="" /> : null}
    </Avatar.Root>
  )
}

/** An amount, or the hidden placeholder when balances are hidden. */
export function Money({ value, hidden, suffix }: { value: string; hidden?: boolean; suffix?: string }) {
  return (
    <Text as="span" fontVariantNumeric="tabular-nums">
      {hidden ? HIDDEN_BALANCE : value}
      {suffix && !hidden ? ` ${suffix}` : ''}
    </Text>
  )
}

/** Copy button: a checkmark for 3 seconds after copying (spec §4). */
export function CopyButton({
  text,
  label,
  copiedLabel,
  failedLabel,
  testId,
  variant = 'icon',
}: {
  text: string
  label: string
  copiedLabel: string
  failedLabel: string
  testId?: string
  variant?: 'icon' | 'text'
}) {
  const { copied, copy } = useCopy()
  const onClick = async () => {
    if (!(await copy(text))) notifyError(failedLabel)
  }
  if (variant === 'text') {
    return (
      <Button size="xs" variant="outline" onClick={() => void onClick()} data-testid={testId} data-copied={copied || undefined}>
        {copied ? <LuCheck aria-hidden="true" /> : <LuCopy aria-hidden="true" />}
        {copied ? copiedLabel : label}
      </Button>
    )
  }
  return (
    <IconButton
      size="xs"
      variant="ghost"
      aria-label={copied ? copiedLabel : label}
      title={copied ? copiedLabel : label}
      onClick={() => void onClick()}
      data-testid={testId}
      data-copied={copied || undefined}
    >
      {copied ? <LuCheck aria-hidden="true" color="var(--chakra-colors-green-500)" /> : <LuCopy aria-hidden="true" />}
    </IconButton>
  )
}

/** A label/value row of the modals. */
export function InfoRow({ label, children, testId }: { label: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Flex justify="space-between" gap="3" fontSize="sm" data-testid={testId}>
      <Text color="fg.muted" flex="1" minW="0">
        {label}
      </Text>
      <Box textAlign="right" fontVariantNumeric="tabular-nums" flexShrink={0} maxW="65%" overflowWrap="anywhere">
        {children}
      </Box>
    </Flex>
  )
}

/** Loading, error (with retry) and empty states of a list or panel. */
export function QueryState({
  isLoading,
  isError,
  isEmpty,
  onRetry,
  loadingText,
  errorText,
  retryText,
  emptyText,
  children,
}: {
  isLoading: boolean
  isError: boolean
  isEmpty?: boolean
  onRetry: () => void
  loadingText: string
  errorText: string
  retryText: string
  emptyText?: string
  children: ReactNode
}) {
  if (isLoading) {
    return (
      <Center py="10" gap="2" data-testid="wallet-loading" role="status">
        <Spinner size="sm" />
        <Text color="fg.muted">{loadingText}</Text>
      </Center>
    )
  }
  if (isError) {
    return (
      <Stack align="center" py="10" gap="3" data-testid="wallet-error" role="alert">
        <Text color="fg.error">{errorText}</Text>
        <Button size="sm" variant="outline" onClick={onRetry}>
          {retryText}
        </Button>
      </Stack>
    )
  }
  if (isEmpty) {
    return (
      <Center py="10" data-testid="wallet-empty">
        <Text color="fg.muted">{emptyText}</Text>
      </Center>
    )
  }
  return <>{children}</>
}

/** A row of chain (method) buttons; aria-pressed marks the chosen one. */
export function ChainButtons({
  chains,
  value,
  onChange,
  label,
  bankLabel,
}: {
  chains: { name: string }[]
  value: string
  onChange: (name: string) => void
  label: string
  bankLabel: string
}) {
  const labelId = useId()
  return (
    <Stack gap="1.5">
      <Text fontSize="sm" fontWeight="medium" id={labelId}>
        {label}
      </Text>
      <HStack gap="2" flexWrap="wrap" role="group" aria-labelledby={labelId}>
        {chains.map((c) => (
          <Button
            key={c.name}
            size="sm"
            variant={c.name === value ? 'solid' : 'outline'}
            colorPalette={c.name === value ? 'brand' : 'gray'}
            aria-pressed={c.name === value}
            onClick={() => onChange(c.name)}
            data-testid={`chain-${c.name}`}
          >
            {c.name.toLowerCase() === 'bank' ? bankLabel : c.name}
          </Button>
        ))}
      </HStack>
    </Stack>
  )
}

/**
 * A modal step as a form, so Enter in any field submits it; the browser's
 * own validation is off (the step shows its own errors). While busy a
 * second Enter sends nothing.
 */
export function StepForm({ onSubmit, busy = false, children }: { onSubmit: () => unknown; busy?: boolean; children: ReactNode }) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!busy) void onSubmit()
      }}
    >
      {children}
    </form>
  )
}
