import { useCallback, useEffect, useState } from 'react'

/**
 * `value` once it has stayed the same for `ms` (what a check as you type
 * looks at), and a flush that takes the current value at once (a submit
 * that must not wait).
 */
export function useDebouncedValue<T>(value: T, ms: number): [T, () => void] {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const id = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(id)
  }, [value, ms])
  const flush = useCallback(() => setSettled(value), [value])
  return [settled, flush]
}
