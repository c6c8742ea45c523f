import type { FieldMessage } from './validation'

/**
 * Checks of a chosen file before it is sent: a corporate document is a PDF,
 * JPEG or PNG (the server reads the type from the bytes and checks again)
 * of at most the deployment's upload limit.
 */

/** The types a document may be, with their extensions (the file picker's accept). */
export const DOCUMENT_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
}

/** The largest file `tenger serve` takes (internal/upload DefaultMaxBytes). */
export const LOCAL_MAX_BYTES = 10 * 1024 * 1024
/**
 * The largest file the AWS functions take (LambdaMaxBytes): API Gateway
 * hands Lambda at most 6 MB of event, a multipart body base64-encoded.
 */
export const CLOUD_MAX_BYTES = 4 * 1024 * 1024

/** The upload limit of the deployment the app talks to (region 'local' is tenger serve). */
export function maxUploadBytes(region: string): number {
  return region === 'local' ? LOCAL_MAX_BYTES : CLOUD_MAX_BYTES
}

/** A file's type as far as the browser knows it, from its MIME type or else its extension. */
export function documentType(file: Pick<File, 'name' | 'type'>): string | undefined {
  if (file.type && DOCUMENT_ACCEPT[file.type]) return file.type
  const ext = /\.[^.]+$/.exec(file.name.toLowerCase())?.[0]
  return Object.entries(DOCUMENT_ACCEPT).find(([, exts]) => ext && exts.includes(ext))?.[0]
}

/** Why a file cannot be sent, or nothing. */
export function fileError(file: Pick<File, 'name' | 'type' | 'size'>, maxBytes: number): FieldMessage | undefined {
  if (!documentType(file)) return { key: 'errors.fileType' }
  if (file.size === 0) return { key: 'errors.fileEmpty' }
  if (file.size > maxBytes) return { key: 'errors.fileSize', vars: { max: Math.round(maxBytes / (1024 * 1024)) } }
  return undefined
}

/** A size for people: 532 B, 14.2 KB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
