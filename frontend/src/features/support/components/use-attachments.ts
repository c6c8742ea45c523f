import { useCallback, useEffect, useRef, useState } from 'react'
import { uploadImage, type UploadHandle } from '../api/upload-img'
import { pickImages, readDataUrl, type ImageProblem } from '../lib/attachments'

/** One picked image: its preview, and how its upload goes. */
export interface AttachmentItem {
  key: string
  file: File
  /** The picked file as a data: URL, for the preview ('' until read). */
  previewUrl: string
  state: 'uploading' | 'done' | 'error'
  /** Share sent, 0 to 1. */
  progress: number
  /** The upload id once accepted. */
  uploadId?: string
}

/** A file that was not taken, with why. */
export interface Refusal {
  name: string
  problem: ImageProblem
}

/** What {@link useAttachments} gives a form. */
export interface Attachments {
  items: AttachmentItem[]
  /** Checks and uploads picked files; resolves with the ones refused. */
  add: (files: File[]) => Promise<Refusal[]>
  remove: (key: string) => void
  retry: (key: string) => void
  /** Clears the list (after the message was sent). */
  reset: () => void
  /** Upload ids of the accepted images, in the order picked. */
  ids: string[]
  uploading: boolean
  failed: boolean
}

let seq = 0

/**
 * The images of one message: each picked file is checked (type from its
 * bytes, size), previewed and uploaded at once with its progress; at most
 * `max` are kept. Uploads still running when the form goes are stopped.
 */
export function useAttachments(max: number): Attachments {
  const [items, setItems] = useState<AttachmentItem[]>([])
  const handles = useRef(new Map<string, UploadHandle>())
  const itemsRef = useRef(items)
  itemsRef.current = items

  const update = useCallback((key: string, patch: Partial<AttachmentItem>) => {
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item)))
  }, [])

  const start = useCallback(
    (key: string, file: File) => {
      const handle = uploadImage(file, (progress) => update(key, { progress }))
      handles.current.set(key, handle)
      handle.promise.then(
        (uploaded) => update(key, { state: 'done', progress: 1, uploadId: uploaded.id }),
        (err: { code?: string }) => {
          if (err?.code !== 'aborted') update(key, { state: 'error' })
        },
      )
      void handle.promise.finally(() => {
        if (handles.current.get(key) === handle) handles.current.delete(key)
      }).catch(() => undefined)
    },
    [update],
  )

  const add = useCallback(
    async (files: File[]): Promise<Refusal[]> => {
      const { accepted, rejected } = await pickImages(files, max - itemsRef.current.length)
      const fresh = accepted.map<AttachmentItem>((file) => ({
        key: `att-${++seq}`,
        file,
        previewUrl: '',
        state: 'uploading',
        progress: 0,
      }))
      if (fresh.length > 0) {
        setItems((list) => [...list, ...fresh])
        for (const item of fresh) {
          start(item.key, item.file)
          readDataUrl(item.file).then(
            (previewUrl) => update(item.key, { previewUrl }),
            () => undefined,
          )
        }
      }
      return rejected.map(({ file, problem }) => ({ name: file.name, problem }))
    },
    [max, start, update],
  )

  const remove = useCallback((key: string) => {
    handles.current.get(key)?.abort()
    handles.current.delete(key)
    setItems((list) => list.filter((i) => i.key !== key))
  }, [])

  const retry = useCallback(
    (key: string) => {
      const item = itemsRef.current.find((i) => i.key === key)
      if (!item || item.state !== 'error') return
      update(key, { state: 'uploading', progress: 0 })
      start(key, item.file)
    },
    [start, update],
  )

  const reset = useCallback(() => {
    for (const handle of handles.current.values()) handle.abort()
    handles.current.clear()
    setItems([])
  }, [])

  // Leaving the form stops what is still uploading.
  useEffect(() => {
    const running = handles.current
    return () => {
      for (const handle of running.values()) handle.abort()
    }
  }, [])

  return {
    items,
    add,
    remove,
    retry,
    reset,
    ids: items.filter((i) => i.state === 'done' && i.uploadId).map((i) => i.uploadId as string),
    uploading: items.some((i) => i.state === 'uploading'),
    failed: items.some((i) => i.state === 'error'),
  }
}
