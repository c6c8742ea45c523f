import { getConfig } from '@/lib/config'
import { buildHeaders } from '@/lib/request-client'

/**
 * GET /fe-ex-api/common/upload_file?id=: one of the user's uploads, read
 * back for its preview. Fetched with the request client's headers (the
 * token, or the cookie with the anti-forgery header): an <img src> could
 * send neither.
 */
export const READ_UPLOAD_PATH = '/common/upload_file'

/** The file's bytes and type; rejects when the server does not give it. */
export async function readUpload(id: string, signal?: AbortSignal): Promise<Blob> {
  const headers = buildHeaders('/fe-ex-api')
  delete headers['Content-Type']
  const res = await fetch(`${getConfig().api['/fe-ex-api']}${READ_UPLOAD_PATH}?id=${encodeURIComponent(id)}`, {
    headers,
    credentials: 'include',
    signal,
  })
  if (!res.ok) throw new Error(`Error: file ${id} answered HTTP ${res.status}`)
  return res.blob()
}
