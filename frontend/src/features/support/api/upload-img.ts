import { getConfig } from '@/lib/config'
import { notifyError, reportReachable, reportUnreachable } from '@/lib/notify'
import {
  buildHeaders,
  CODE_NOT_SIGNED_IN,
  emitSessionExpired,
  failureText,
  isSuccess,
  type ApiEnvelope,
} from '@/lib/request-client'

/** Path of the image upload (multipart, a part named "file"). */
export const UPLOAD_IMG_PATH = '/common/upload_img'

/** An accepted upload (the fields the web app uses). */
export interface UploadedImage {
  /** The upload id a ticket's attachments name. */
  id: string
  contentType?: string
  size?: number
  width?: number
  height?: number
  /** Where the owner reads it back (GET, signed in). */
  url?: string
}

/** A refused or failed upload; `code` is the server's when it answered. */
export class UploadError extends Error {
  readonly code?: string
  constructor(message: string, code?: string) {
    super(message)
    this.name = 'UploadError'
    this.code = code
  }
}

/** An upload under way. */
export interface UploadHandle {
  /** Resolves with the accepted upload; rejects with {@link UploadError}. */
  promise: Promise<UploadedImage>
  /** Stops the upload (the promise rejects). */
  abort: () => void
}

function envelopeOf(text: string): ApiEnvelope | undefined {
  try {
    const raw = JSON.parse(text) as Record<string, unknown>
    if (raw && typeof raw === 'object' && 'code' in raw) {
      return {
        code: String(raw.code),
        msg: typeof raw.msg === 'string' ? raw.msg : '',
        data: raw.data ?? null,
        ...(typeof raw.message === 'string' ? { message: raw.message } : {}),
      }
    }
  } catch {
    // Not the exchange's envelope (a gateway's page): handled below.
  }
  return undefined
}

/**
 * Uploads an image for the signed-in user (POST /fe-ex-api/common/upload_img)
 * with the request client's headers. Sent with XMLHttpRequest rather than
 * the request client, whose transport reports no upload progress:
 * `onProgress` receives the share sent (0 to 1). A refusal is toasted as
 * the request client toasts (spec §8), 10002 ends the signed-in state.
 */
export function uploadImage(file: File, onProgress?: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest()
  const promise = new Promise<UploadedImage>((resolve, reject) => {
    xhr.open('POST', `${getConfig().api['/fe-ex-api']}${UPLOAD_IMG_PATH}`)
    xhr.withCredentials = true
    const headers = buildHeaders('/fe-ex-api')
    // The browser sets the multipart boundary itself.
    delete headers['Content-Type']
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total))
    }
    xhr.onload = () => {
      const envelope = envelopeOf(xhr.responseText)
      if (!envelope) {
        if (xhr.status === 502 || xhr.status === 503 || xhr.status === 504) reportUnreachable()
        const message = `Error: upload failed (${xhr.status})`
        notifyError(message)
        reject(new UploadError(message))
        return
      }
      reportReachable()
      if (isSuccess(envelope)) {
        onProgress?.(1)
        resolve(envelope.data as UploadedImage)
        return
      }
      if (envelope.code === CODE_NOT_SIGNED_IN) emitSessionExpired()
      else notifyError(failureText(envelope))
      reject(new UploadError(failureText(envelope), envelope.code))
    }
    xhr.onerror = () => {
      reportUnreachable()
      reject(new UploadError('Error: the exchange could not be reached'))
    }
    xhr.onabort = () => reject(new UploadError('Error: upload cancelled', 'aborted'))
    const form = new FormData()
    form.append('file', file, file.name)
    xhr.send(form)
  })
  return { promise, abort: () => xhr.abort() }
}
