import { Box, Button, HStack, IconButton, Image, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { LuDownload, LuFileText, LuX } from 'react-icons/lu'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { readUpload } from '../api/read-upload'
import { corporateKeys } from '../api/types'
import { formatBytes } from '../lib/file-checks'
import { uploadName } from '../lib/upload-names'

/** What is known of an attached file on this page (a file chosen now; after a reload only its id). */
export interface FileMeta {
  name?: string
  size?: number
  contentType?: string
  /** A data: URL of an image chosen now (the page's CSP takes data: images, not blob: ones). */
  preview?: string
}

/** A Blob as a data: URL. */
export function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('Error: the file could not be read'))
    reader.readAsDataURL(blob)
  })
}

/** The kind of a content type for people: PDF, JPEG, PNG. */
function typeName(contentType: string | undefined): string {
  if (!contentType) return ''
  if (contentType === 'application/pdf') return 'PDF'
  return contentType.replace(/^image\//, '').toUpperCase()
}

/** Saves a Blob under a name (a link with download: no new document, which the CSP would govern). */
function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/**
 * One attached file: a thumbnail of an image (a PDF's icon), its name and
 * size, a download of what the server keeps, and its removal (until the
 * application is submitted).
 */
export function AttachedFileRow({
  uploadId,
  meta,
  t,
  onRemove,
}: {
  uploadId: string
  meta: FileMeta | undefined
  /** The general page's texts. */
  t: TranslateFn
  /** Removes the file from the application; none when it is read-only. */
  onRemove?: () => void
}) {
  const remembered = uploadName(uploadId)
  // What the server keeps, read when nothing of it is known here: the type and an image's thumbnail.
  const stored = useQuery({
    queryKey: [...corporateKeys.all, 'upload', uploadId],
    queryFn: async ({ signal }) => {
      const blob = await readUpload(uploadId, signal)
      return { type: blob.type, preview: blob.type.startsWith('image/') ? await dataUrlOf(blob) : undefined, blob }
    },
    enabled: !meta?.preview && (!meta?.contentType || meta.contentType.startsWith('image/')),
    staleTime: Infinity,
    retry: 1,
  })
  const contentType = meta?.contentType || remembered?.contentType || stored.data?.type
  const preview = meta?.preview ?? stored.data?.preview
  const size = meta?.size ?? remembered?.size
  const name = meta?.name ?? remembered?.name ?? t('documents.fileOfType', { type: typeName(contentType) || t('documents.file') })

  const save = async () => {
    try {
      const blob = stored.data?.blob ?? (await readUpload(uploadId))
      download(blob, name)
    } catch (e) {
      notifyError(e instanceof Error ? e.message : String(e))
    }
  }

  return (
    <HStack gap="3" p="2" borderWidth="1px" rounded="l2" bg="bg" data-testid="attached-file" data-upload-id={uploadId}>
      <Box boxSize="12" flexShrink={0} rounded="l1" overflow="hidden" bg="bg.muted" display="flex" alignItems="center" justifyContent="center">
        {preview ? (
          <Image src={preview} alt={t('documents.previewOf', { name })} boxSize="12" objectFit="cover" />
        ) : stored.isLoading ? (
          <Spinner size="sm" color="fg.muted" />
        ) : (
          <LuFileText size="22" aria-hidden="true" />
        )}
      </Box>
      <Stack gap="0" flex="1" minW="0">
        <Text textStyle="sm" fontWeight="medium" truncate title={name} data-testid="attached-file-name">
          {name}
        </Text>
        <Text textStyle="xs" color="fg.muted">
          {[typeName(contentType), size ? formatBytes(size) : ''].filter(Boolean).join(' · ')}
        </Text>
      </Stack>
      <Button size="xs" variant="ghost" onClick={() => void save()} aria-label={t('documents.downloadNamed', { name })} title={t('documents.download')}>
        <LuDownload aria-hidden="true" />
      </Button>
      {onRemove && (
        <IconButton size="xs" variant="ghost" colorPalette="red" onClick={onRemove} aria-label={t('documents.removeNamed', { name })} data-testid="remove-file">
          <LuX />
        </IconButton>
      )}
    </HStack>
  )
}
