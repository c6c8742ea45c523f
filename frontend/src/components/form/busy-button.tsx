import { Button, type ButtonProps } from '@chakra-ui/react'
import { forwardRef, useEffect, useImperativeHandle, useRef, type MouseEvent } from 'react'

/**
 * A button with a loading state that keeps keyboard focus. A loading Chakra
 * button is disabled, and the browser then drops focus to the page body: a
 * keyboard user who pressed Enter on Confirm and got an error would start
 * again from the top of the page. When the loading ends and focus is still
 * lost, it returns to this button (if it is still there: a step that moved
 * on focuses its own title).
 */
export const BusyButton = forwardRef<HTMLButtonElement, ButtonProps>(function BusyButton({ loading, onClick, ...rest }, ref) {
  const button = useRef<HTMLButtonElement>(null)
  useImperativeHandle(ref, () => button.current as HTMLButtonElement)
  const hadFocus = useRef(false)
  const wasLoading = useRef(false)
  useEffect(() => {
    const el = button.current
    if (wasLoading.current && !loading && hadFocus.current && el?.isConnected) {
      const active = document.activeElement
      if (!active || active === document.body) el.focus()
    }
    if (!loading) hadFocus.current = false
    wasLoading.current = !!loading
  }, [loading])
  const click = (e: MouseEvent<HTMLButtonElement>) => {
    hadFocus.current = document.activeElement === e.currentTarget
    onClick?.(e)
  }
  return <Button ref={button} loading={loading} onClick={click} {...rest} />
})
