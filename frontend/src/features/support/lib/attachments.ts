/**
 * The checks an image passes before it is uploaded, as the server makes
 * them (internal/upload): its type read from its first bytes (JPEG or PNG;
 * the file name and the browser's type are not trusted) and its size.
 */

/**
 * The largest image the app sends: the AWS functions take 4 MiB
 * (upload.LambdaMaxBytes; `tenger serve` takes 10), so one limit holds
 * wherever the same build runs.
 */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024
/** The limit in MB as the texts say it. */
export const MAX_IMAGE_MB = MAX_IMAGE_BYTES / (1024 * 1024)
/** What the file picker offers. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png'

/** Why a file is not taken. */
export type ImageProblem = 'badType' | 'tooLarge' | 'tooMany'

/** The image kind of a file's first bytes, or undefined for anything else. */
export function sniffImage(head: Uint8Array): 'jpeg' | 'png' | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg'
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (head.length >= png.length && png.every((b, i) => head[i] === b)) return 'png'
  return undefined
}

async function headOf(file: Blob): Promise<Uint8Array> {
  const slice = file.slice(0, 8)
  if (typeof slice.arrayBuffer === 'function') return new Uint8Array(await slice.arrayBuffer())
  // Older engines (and jsdom) without Blob.arrayBuffer.
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsArrayBuffer(slice)
  })
}

/** Checks one file: its size, then its type from its bytes. */
export async function checkImage(file: File): Promise<ImageProblem | undefined> {
  if (file.size > MAX_IMAGE_BYTES) return 'tooLarge'
  if (file.size === 0) return 'badType'
  try {
    return sniffImage(await headOf(file)) ? undefined : 'badType'
  } catch {
    return 'badType'
  }
}

/** The files taken and the ones refused, with why. */
export interface PickResult {
  accepted: File[]
  rejected: { file: File; problem: ImageProblem }[]
}

/**
 * Sorts picked files: each is checked, and no more are taken than `room`
 * (the attachments a message may still have); the rest are 'tooMany'.
 */
export async function pickImages(files: File[], room: number): Promise<PickResult> {
  const result: PickResult = { accepted: [], rejected: [] }
  for (const file of files) {
    const problem = await checkImage(file)
    if (problem) result.rejected.push({ file, problem })
    else if (result.accepted.length >= Math.max(0, room)) result.rejected.push({ file, problem: 'tooMany' })
    else result.accepted.push(file)
  }
  return result
}

/**
 * A file's contents as a data: URL, to show it in an <img>: the site's
 * Content-Security-Policy takes data: images (not blob: ones).
 */
export function readDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(file)
  })
}
