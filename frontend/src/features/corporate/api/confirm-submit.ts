import { apiPost, type ApiEnvelope } from '@/lib/request-client'

/**
 * POST /fe-ex-api/company/confirmSubmit: sends the application for review.
 * An incomplete one is refused with code 16322 and data.missing. Silent:
 * the review lists what is missing instead of a bare toast.
 */
export const CONFIRM_SUBMIT_PATH = '/fe-ex-api/company/confirmSubmit'

export function confirmSubmit(): Promise<ApiEnvelope<unknown>> {
  return apiPost<unknown>(CONFIRM_SUBMIT_PATH, {}, { silent: true })
}
