import { getConfig } from '@/lib/config'
import { reportReachable, reportUnreachable } from '@/lib/notify'
import { buildHeaders, CODE_NOT_SIGNED_IN, emitSessionExpired, isSuccess, NetworkError, type ApiEnvelope } from '@/lib/request-client'

/**
 * POST /fe-ex-api/common/upload_img_auth?imageType=2: uploads one document
 * of corporate verification (JPEG, PNG or PDF; multipart field "file").
 * Sent with XMLHttpRequest, not the app's JSON client: only it reports the
 * upload's progress. The headers are the request client's (token,
 * anti-forgery, language, device). The answer's id is what step 4 attaches.
 */
export const UPLOAD_PATH = '/common/upload_img_auth'

/** imageType of a corporate document. */
export const CORPORATE_IMAGE_TYPE = 2

/** What an accepted upload answers. */
export interface UploadedDocument {
  id: string
  contentType: string
  size: number
}

/** Options of {@link uploadDocument}. */
export interface UploadOptions {
  /** Called with the share sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

/** The envelope of an XHR answer (any HTTP status: a 413 still carries one). */
function parseEnvelope(text: string): ApiEnvelope<Partial<UploadedDocument>> | undefined {
  try {
    const raw = JSON.parse(text) as Record<string, unknown>
    if (typeof raw !== 'object' || raw === null || !('code' in raw)) return undefined
    return {
      code: String(raw.code),
      msg: typeof raw.msg === 'string' ? raw.msg : '',
      data: (raw.data ?? null) as Partial<UploadedDocument>,
    }
  } catch {
    return undefined
  }
}

/**
 * Uploads a file. Resolves with the server's envelope (a refusal too: the
 * caller shows it beside the file); rejects with a NetworkError when the
 * exchange did not answer, or an Error for an answer that is no envelope.
 */
export function uploadDocument(file: File, { onProgress, signal }: UploadOptions = {}): Promise<ApiEnvelope<UploadedDocument | null>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${getConfig().api['/fe-ex-api']}${UPLOAD_PATH}?imageType=${CORPORATE_IMAGE_TYPE}`)
    xhr.withCredentials = true
    const headers = buildHeaders('/fe-ex-api')
    // The browser sets the multipart Content-Type with its boundary.
    delete headers['Content-Type']
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(1, e.loaded / e.total))
    }
    xhr.onload = () => {
      const envelope = parseEnvelope(xhr.responseText)
      if (!envelope) {
        if (xhr.status === 413) {
          // A gateway in front of the exchange refused the body itself.
          resolve({ code: '16101', msg: '', data: null })
          return
        }
        reject(new Error(`Error: upload answered HTTP ${xhr.status}`))
        return
      }
      reportReachable()
      if (envelope.code === CODE_NOT_SIGNED_IN) emitSessionExpired()
      if (!isSuccess(envelope)) {
        resolve({ ...envelope, data: null })
        return
      }
      const d = envelope.data ?? {}
      onProgress?.(1)
      resolve({ ...envelope, data: { id: String(d.id ?? ''), contentType: String(d.contentType ?? file.type), size: Number(d.size ?? file.size) } })
    }
    xhr.onerror = () => {
      reportUnreachable()
      reject(new NetworkError('Error: the upload got no answer'))
    }
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'))
    if (signal) {
      if (signal.aborted) {
        xhr.abort()
        return
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true })
    }
    const form = new FormData()
    form.append('file', file, file.name)
    xhr.send(form)
  })
}
