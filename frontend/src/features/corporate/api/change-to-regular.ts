import { apiPost, type ApiEnvelope } from '@/lib/request-client'

/**
 * POST /fe-ex-api/company/change_to_regular: an enterprise account becomes
 * a regular one again; its approved application returns to draft. A
 * refusal shows in the global error toast.
 */
export const CHANGE_TO_REGULAR_PATH = '/fe-ex-api/company/change_to_regular'

export function changeToRegular(): Promise<ApiEnvelope<unknown>> {
  return apiPost<unknown>(CHANGE_TO_REGULAR_PATH, {})
}
