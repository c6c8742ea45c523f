import { apiPost, type ApiEnvelope } from '@/lib/request-client'
import type { Applicant, Company, Questionnaire } from './types'

/**
 * POST /fe-ex-api/company/save_base_info: saves step 1, 2 or 5 as a draft
 * (blank fields allowed, malformed ones refused). Silent: the step's form
 * shows a refusal beside its field, or in a toast.
 */
export const SAVE_BASE_INFO_PATH = '/fe-ex-api/company/save_base_info'

/** What one save carries: the step and its object. */
export type BaseInfoSave =
  | { step: 1; applicant: Applicant }
  | { step: 2; company: Company }
  | { step: 5; questionnaire: Questionnaire }

export function saveBaseInfo(body: BaseInfoSave): Promise<ApiEnvelope<unknown>> {
  return apiPost<unknown>(SAVE_BASE_INFO_PATH, { ...body }, { silent: true })
}
