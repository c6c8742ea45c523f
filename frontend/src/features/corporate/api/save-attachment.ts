import { apiPost, type ApiEnvelope } from '@/lib/request-client'
import type { AttachedFile } from './types'

/**
 * POST /fe-ex-api/company/attachment: saves step 4, the whole list of
 * attached uploads (ids from upload_img_auth). Silent, like the other saves.
 */
export const ATTACHMENT_PATH = '/fe-ex-api/company/attachment'

export function saveAttachment(files: AttachedFile[]): Promise<ApiEnvelope<unknown>> {
  return apiPost<unknown>(
    ATTACHMENT_PATH,
    { files: files.map((f) => ({ kind: f.kind, uploadId: f.uploadId, ...(f.kind === 'representative_id' ? { personId: f.personId } : {}) })) },
    { silent: true },
  )
}
