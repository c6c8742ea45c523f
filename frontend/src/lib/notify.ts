import { TOAST_DURATION_MS, toaster } from '@/components/ui/toaster'

/**
 * Toast helpers: every success or error message of the app appears top right
 * for 5 seconds (spec §8, §9).
 */

/** Shows a success toast. */
export function notifySuccess(message: string, title?: string): void {
  toaster.create({
    type: 'success',
    title: title ?? message,
    description: title ? message : undefined,
    duration: TOAST_DURATION_MS,
    closable: true,
  })
}

/** Shows an error toast. */
export function notifyError(message: string, title?: string): void {
  toaster.create({
    type: 'error',
    title: title ?? message,
    description: title ? message : undefined,
    duration: TOAST_DURATION_MS,
    closable: true,
  })
}
