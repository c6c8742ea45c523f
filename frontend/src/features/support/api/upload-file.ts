import { getConfig } from '@/lib/config'
import { buildHeaders } from '@/lib/request-client'

/** Path where the owner reads an upload back (GET ?id=). */
export const UPLOAD_FILE_PATH = '/common/upload_file'

/**
 * Reads one of the signed-in user's uploads (GET
 * /fe-ex-api/common/upload_file?id=) as a Blob. The file needs the session
 * and its anti-forgery header, which an <img> cannot send, so the image is
 * fetched and shown from an object URL. Rejects when the answer is not a
 * file (the exchange's error envelope, e.g. 16106 for another's upload).
 */
export async function fetchUpload(id: string, signal?: AbortSignal): Promise<Blob> {
  const headers = buildHeaders('/fe-ex-api')
  delete headers['Content-Type']
  const url = `${getConfig().api['/fe-ex-api']}${UPLOAD_FILE_PATH}?id=${encodeURIComponent(id)}`
  const res = await fetch(url, { headers, credentials: 'include', signal })
  const type = res.headers.get('Content-Type') ?? ''
  if (!res.ok || type.startsWith('application/json')) throw new Error(`Error: upload ${id} not available (${res.status})`)
  return res.blob()
}
