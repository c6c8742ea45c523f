import { getConfig } from '@/lib/config'
import { apiData, buildHeaders } from '@/lib/request-client'

/**
 * Images of the chat and of an appeal's evidence: uploaded through the
 * upload service (POST /fe-ex-api/common/upload_img, multipart "file") and
 * named by their upload ids; read back by either side of the order with
 * the session (GET /fe-otc-api/chatMsg/image?id=&image=).
 */

/** The largest image the app sends (the AWS functions take 4 MiB). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024
/** What the file pickers offer. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png'

/** Why a picked file is not sent. */
export type ImageProblem = 'badType' | 'tooLarge'

/** Checks a picked file's size and its first bytes (JPEG or PNG), as the server does. */
export async function checkImage(file: Blob): Promise<ImageProblem | undefined> {
  if (file.size > MAX_IMAGE_BYTES) return 'tooLarge'
  if (file.size === 0) return 'badType'
  try {
    const head = new Uint8Array(await readHead(file))
    const jpeg = head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)
    return jpeg || png ? undefined : 'badType'
  } catch {
    return 'badType'
  }
}

function readHead(file: Blob): Promise<ArrayBuffer> {
  const slice = file.slice(0, 8)
  if (typeof slice.arrayBuffer === 'function') return slice.arrayBuffer()
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as ArrayBuffer)
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsArrayBuffer(slice)
  })
}

/** Uploads an image; resolves with its upload id (a refusal is toasted and rejects). */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData()
  form.append('file', file, file.name)
  const data = await apiData<{ id: string }>('/fe-ex-api/common/upload_img', form)
  return data.id
}

/** A file's contents as a data: URL (the site's CSP takes data: images, not blob: ones). */
export function readDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(file)
  })
}

/**
 * Reads an image of one of the caller's orders (its chat's or its appeal's,
 * sent by either side) as a data: URL; rejects when it is not the order's.
 */
export async function fetchOrderImage(orderId: string, imageId: string, signal?: AbortSignal): Promise<string> {
  const headers = buildHeaders('/fe-otc-api')
  delete headers['Content-Type']
  const url = `${getConfig().api['/fe-otc-api']}/chatMsg/image?id=${encodeURIComponent(orderId)}&image=${encodeURIComponent(imageId)}`
  const res = await fetch(url, { headers, credentials: 'include', signal })
  const type = res.headers.get('Content-Type') ?? ''
  if (!res.ok || type.startsWith('application/json')) throw new Error(`Error: image ${imageId} not available (${res.status})`)
  return readDataUrl(await res.blob())
}
