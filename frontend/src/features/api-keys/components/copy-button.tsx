import { Button, IconButton, useClipboard } from '@chakra-ui/react'
import { LuCheck, LuCopy } from 'react-icons/lu'

/** How long a copy button shows its checkmark (spec §4, §9). */
const COPIED_MS = 3000

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  value: string
  /** The button's name ('Copy', or 'Copy the API key of "Bot"' for an icon button). */
  label: string
  copiedLabel: string
  /** An icon button (list rows) or a button with its text (the secret dialog). */
  variant?: 'icon' | 'text'
  testId?: string
}

/** Copies a value; a checkmark (and "Copied") for 3 seconds after copying, as the security page's key. */
export function CopyButton({ value, label, copiedLabel, variant = 'icon', testId }: CopyButtonProps) {
  const clipboard = useClipboard({ value, timeout: COPIED_MS })
  const icon = clipboard.copied ? <LuCheck aria-hidden="true" /> : <LuCopy aria-hidden="true" />
  if (variant === 'text') {
    return (
      <Button size="sm" variant="outline" flexShrink={0} onClick={() => clipboard.copy()} aria-live="polite" data-testid={testId}>
        {icon}
        {clipboard.copied ? copiedLabel : label}
      </Button>
    )
  }
  return (
    <IconButton
      size="xs"
      variant="ghost"
      aria-label={clipboard.copied ? copiedLabel : label}
      title={clipboard.copied ? copiedLabel : label}
      onClick={() => clipboard.copy()}
      data-testid={testId}
    >
      {icon}
    </IconButton>
  )
}
