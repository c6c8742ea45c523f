/**
 * The names of the files the user uploaded from this browser, by upload
 * id. The server keeps a file's bytes and type but not its name, so the
 * document list names a file as it was chosen when this browser sent it,
 * and by its type otherwise.
 */

/** The local storage key. */
export const UPLOAD_NAMES_KEY = 'tenger.corporate.uploadNames'
/** How many names are kept (the newest). */
const MAX_NAMES = 100

/** What is kept of an uploaded file. */
export interface UploadName {
  name: string
  size: number
  contentType: string
}

function readAll(): Record<string, UploadName & { at: number }> {
  try {
    const raw = JSON.parse(localStorage.getItem(UPLOAD_NAMES_KEY) ?? '{}') as unknown
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, UploadName & { at: number }>) : {}
  } catch {
    return {}
  }
}

/** The kept name of an upload, if this browser sent it. */
export function uploadName(id: string): UploadName | undefined {
  const e = readAll()[id]
  return e && typeof e.name === 'string' ? { name: e.name, size: Number(e.size) || 0, contentType: String(e.contentType ?? '') } : undefined
}

/** Keeps the name of an upload (the oldest go past the bound). */
export function rememberUpload(id: string, info: UploadName): void {
  try {
    const all = readAll()
    all[id] = { ...info, at: Date.now() }
    const kept = Object.entries(all)
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, MAX_NAMES)
    localStorage.setItem(UPLOAD_NAMES_KEY, JSON.stringify(Object.fromEntries(kept)))
  } catch {
    // Storage unavailable: the list names files by their type.
  }
}
