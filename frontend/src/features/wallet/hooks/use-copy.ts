import { useCallback, useEffect, useRef, useState } from 'react'

/** How long a copy button shows its checkmark (spec §4, §9). */
export const COPIED_MS = 3000

/** Copies text to the clipboard; `copied` stays true for 3 s after a success. */
export function useCopy(): { copied: boolean; copy: (text: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  const copy = useCallback(async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      return false
    }
    setCopied(true)
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => setCopied(false), COPIED_MS)
    return true
  }, [])
  return { copied, copy }
}
