import { Alert, Badge, Box, Button, FileUpload, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LuUpload, LuX } from 'react-icons/lu'
import { getConfig } from '@/lib/config'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { failureText, isNetworkError, isSuccess } from '@/lib/request-client'
import { saveAttachment } from '../api/save-attachment'
import { COMPANY_DOCUMENT_KINDS, REQUIRED_DOCUMENT_KINDS, type AttachedFile, type CorporateApplication, type DocumentKind } from '../api/types'
import { uploadDocument } from '../api/upload-document'
import { DOCUMENT_ACCEPT, fileError, formatBytes, maxUploadBytes } from '../lib/file-checks'
import { missingErrors } from '../lib/server-errors'
import { useCorporateTexts } from '../lib/texts'
import { rememberUpload } from '../lib/upload-names'
import { LIMITS, validateDocuments, type CheckMode, type FieldErrors } from '../lib/validation'
import { AttachedFileRow, dataUrlOf, type FileMeta } from './file-preview'
import { ProgressBar } from './progress-bar'
import { StepShell } from './step-shell'
import type { StepProps } from './step-props'
import { useStepForm } from './use-step-form'
import { useStepSave } from './use-step-save'

/** The documents as the form holds them. */
interface DocumentsValues {
  files: AttachedFile[]
}

/** A file being sent, or one that could not be. */
interface Upload {
  key: string
  kind: DocumentKind
  personId: string
  name: string
  size: number
  progress: number
  error?: string
}

/** One section of the page: a company document, or one person's ID. */
interface Section {
  kind: DocumentKind
  personId: string
  /** The field its problems are named by (files.proof_of_address, files.representative_id.p1). */
  field: string
  title: string
  description: string
  required: boolean
}

const valuesOf = (app: Pick<CorporateApplication, 'documents'>): DocumentsValues => ({ files: [...(app.documents?.files ?? [])] })

let uploadSeq = 0

/** Too many files show as soon as they are attached. */
const LIVE = ['files', ...COMPANY_DOCUMENT_KINDS.map((k) => `files.${k}`)]

/**
 * Step 4: the company's documents and an ID document of every person of
 * step 3. A file is checked here (type, size), sent at once with its
 * progress shown, and attached when the step is saved; attached files can
 * be previewed, downloaded and removed.
 */
export function DocumentsStep({ app, t, showMissing, onSaved, onBack, onDirtyChange }: StepProps) {
  const { t: s } = useCorporateTexts(4)
  const formRef = useRef<HTMLFormElement>(null)
  const people = useMemo(() => app.people?.people ?? [], [app.people])
  const missing = useMemo(() => (showMissing ? missingErrors(app.missing, 4) : {}), [showMissing, app.missing])
  const validate = useCallback(
    (v: DocumentsValues, mode: CheckMode): FieldErrors => validateDocuments(v.files, people, REQUIRED_DOCUMENT_KINDS, mode),
    [people],
  )
  const form = useStepForm<DocumentsValues>({ initial: () => valuesOf(app), validate, missing, t, live: LIVE })
  const [uploads, setUploads] = useState<Upload[]>([])
  const [meta, setMeta] = useState<Record<string, FileMeta>>({})
  const uploading = uploads.some((u) => !u.error)
  const { save, shell } = useStepSave({
    form,
    formRef,
    t,
    valuesOf,
    onSaved,
    send: (v, run) => run(() => saveAttachment(v.files)),
  })
  useEffect(() => onDirtyChange(form.dirty || uploading), [form.dirty, uploading, onDirtyChange])
  const maxBytes = maxUploadBytes(getConfig().region)

  const sections: Section[] = [
    ...COMPANY_DOCUMENT_KINDS.map((kind) => ({
      kind,
      personId: '',
      field: `files.${kind}`,
      title: s(`kinds.${kind}.title`),
      description: s(`kinds.${kind}.description`),
      required: REQUIRED_DOCUMENT_KINDS.includes(kind),
    })),
    ...people.map((p) => ({
      kind: 'representative_id' as const,
      personId: p.id,
      field: `files.representative_id.${p.id}`,
      title: s('kinds.representative_id.title', { name: p.name }),
      description: s('kinds.representative_id.description'),
      required: true,
    })),
  ]

  const start = (section: Section, file: File) => {
    uploadSeq++
    const key = `upload-${uploadSeq}`
    setUploads((list) => [...list, { key, kind: section.kind, personId: section.personId, name: file.name, size: file.size, progress: 0 }])
    const patch = (change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)))
    const preview = file.type.startsWith('image/') ? dataUrlOf(file).catch(() => undefined) : Promise.resolve(undefined)
    void (async () => {
      try {
        const envelope = await uploadDocument(file, { onProgress: (progress) => patch({ progress }) })
        if (!isSuccess(envelope) || !envelope.data?.id) {
          patch({ error: envelope.code === '16101' && !envelope.msg ? t('errors.fileSize', { max: Math.round(maxBytes / 1048576) }) : failureText(envelope) })
          return
        }
        const { id, contentType, size } = envelope.data
        rememberUpload(id, { name: file.name, size: file.size, contentType })
        setMeta((m) => ({ ...m, [id]: { name: file.name, size: size || file.size, contentType } }))
        void preview.then((url) => url && setMeta((m) => ({ ...m, [id]: { ...m[id], preview: url } })))
        form.update((v) => ({ files: [...v.files, { kind: section.kind, uploadId: id, personId: section.personId }] }), section.field, 'files')
        setUploads((list) => list.filter((u) => u.key !== key))
      } catch (e) {
        patch({ error: isNetworkError(e) ? t('documents.uploadUnreachable') : e instanceof Error ? e.message : String(e) })
      }
    })()
  }

  const remove = (uploadId: string, field: string) => form.update((v) => ({ files: v.files.filter((f) => f.uploadId !== uploadId) }), field, 'files')

  const onSave = (kind: 'draft' | 'continue') => {
    if (uploading) {
      notifyError(t('documents.waitForUploads'))
      return
    }
    void save(kind)
  }

  return (
    <StepShell
      title={s('title')}
      intro={s('intro', { max: Math.round(maxBytes / 1048576) })}
      testId="corporate-step-4"
      {...shell}
      onSave={onSave}
      onBack={onBack}
    >
      {form.errorOf('files') && (
        <Alert.Root status="error" data-field="files" tabIndex={-1}>
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{form.errorOf('files')}</Alert.Title>
        </Alert.Root>
      )}
      {people.length === 0 && (
        <Alert.Root status="info" data-testid="documents-no-people">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{s('noPeople')}</Alert.Title>
        </Alert.Root>
      )}
      {sections.map((section) => {
        const attached = form.values.files.filter((f) => f.kind === section.kind && f.personId === section.personId)
        const pending = uploads.filter((u) => u.kind === section.kind && u.personId === section.personId)
        return (
          <DocumentSection
            key={section.field}
            section={section}
            attached={attached}
            pending={pending}
            meta={meta}
            error={form.errorOf(section.field)}
            maxBytes={maxBytes}
            t={t}
            s={s}
            onFile={(file) => start(section, file)}
            onRejected={(name, message) =>
              setUploads((list) => [
                ...list,
                { key: `rejected-${++uploadSeq}`, kind: section.kind, personId: section.personId, name, size: 0, progress: 0, error: message },
              ])
            }
            onDismiss={(key) => setUploads((list) => list.filter((u) => u.key !== key))}
            onRemove={(uploadId) => remove(uploadId, section.field)}
          />
        )
      })}
    </StepShell>
  )
}

/** One document: what it is, its drop zone, the files attached and the ones on their way. */
function DocumentSection({
  section,
  attached,
  pending,
  meta,
  error,
  maxBytes,
  t,
  s,
  onFile,
  onRejected,
  onDismiss,
  onRemove,
}: {
  section: Section
  attached: AttachedFile[]
  pending: Upload[]
  meta: Record<string, FileMeta>
  error: string | undefined
  maxBytes: number
  t: TranslateFn
  s: TranslateFn
  onFile: (file: File) => void
  onRejected: (name: string, message: string) => void
  onDismiss: (key: string) => void
  onRemove: (uploadId: string) => void
}) {
  const slots = Math.max(0, LIMITS.filesPerDocument - attached.length - pending.filter((u) => !u.error).length)
  const headingId = `corporate-doc-${section.field.replace(/[^A-Za-z0-9]/g, '-')}`
  const reason = (code: string) => {
    if (code === 'FILE_INVALID_TYPE') return t('errors.fileType')
    if (code === 'FILE_TOO_LARGE') return t('errors.fileSize', { max: Math.round(maxBytes / 1048576) })
    if (code === 'TOO_MANY_FILES') return t('errors.tooManyFiles', { max: LIMITS.filesPerDocument })
    if (code.startsWith('errors.')) return t(code, { max: Math.round(maxBytes / 1048576) })
    return t('errors.fileType')
  }
  return (
    <Stack
      as="section"
      gap="3"
      aria-labelledby={headingId}
      data-field={section.field}
      tabIndex={-1}
      outline="none"
      data-testid={`documents-${section.kind}${section.personId ? `-${section.personId}` : ''}`}
    >
      <Stack gap="0.5">
        <HStack gap="2" flexWrap="wrap">
          <Heading as="h3" size="sm" id={headingId}>
            {section.title}
          </Heading>
          <Badge size="sm" variant="subtle" colorPalette={section.required ? 'orange' : 'gray'}>
            {section.required ? t('required') : t('optional')}
          </Badge>
          {attached.length > 0 && (
            <Badge size="sm" variant="subtle" colorPalette="green">
              {s('attachedCount', { n: attached.length })}
            </Badge>
          )}
        </HStack>
        <Text textStyle="sm" color="fg.muted">
          {section.description}
        </Text>
      </Stack>

      {attached.length > 0 && (
        <Stack gap="2" as="ul" listStyleType="none" aria-label={s('attachedListLabel', { title: section.title })}>
          {attached.map((f) => (
            <Box as="li" key={f.uploadId}>
              <AttachedFileRow uploadId={f.uploadId} meta={meta[f.uploadId]} t={t} onRemove={() => onRemove(f.uploadId)} />
            </Box>
          ))}
        </Stack>
      )}

      {pending.map((u) => (
        <Stack key={u.key} gap="1.5" p="3" borderWidth="1px" rounded="l2" borderColor={u.error ? 'border.error' : 'border'} data-testid={u.error ? 'upload-failed' : 'upload-progress'}>
          <HStack justify="space-between" gap="2">
            <Text textStyle="sm" fontWeight="medium" truncate title={u.name}>
              {u.name}
            </Text>
            {u.error ? (
              <Button size="2xs" variant="ghost" onClick={() => onDismiss(u.key)} aria-label={t('documents.dismissNamed', { name: u.name })}>
                <LuX aria-hidden="true" />
              </Button>
            ) : (
              <Text textStyle="xs" color="fg.muted">
                {formatBytes(u.size)}
              </Text>
            )}
          </HStack>
          {u.error ? (
            <Text textStyle="xs" color="fg.error" role="alert">
              {u.error}
            </Text>
          ) : (
            <HStack gap="3">
              <ProgressBar value={u.progress * 100} label={t('documents.uploadingNamed', { name: u.name })} />
              <Text textStyle="xs" color="fg.muted" minW="9" textAlign="end" aria-hidden="true">
                {`${Math.round(u.progress * 100)}%`}
              </Text>
            </HStack>
          )}
        </Stack>
      ))}

      {slots > 0 && (
        // No recipe: Chakra's file upload recipe would join the first load (see progress-bar.tsx); the zone is styled here.
        <FileUpload.Root
          accept={DOCUMENT_ACCEPT}
          maxFiles={slots}
          acceptedFiles={[]}
          allowDrop
          translations={{ dropzone: s('dropzoneLabel', { title: section.title }) }}
          validate={(file) => {
            const problem = fileError(file, maxBytes)
            return problem ? [problem.key] : null
          }}
          onFileAccept={(d) => d.files.forEach(onFile)}
          onFileReject={(d) => d.files.forEach((r) => onRejected(r.file.name, reason(String(r.errors[0] ?? ''))))}
          display="flex"
          flexDirection="column"
          alignItems="stretch"
          gap="2"
        >
          <FileUpload.HiddenInput />
          <FileUpload.Dropzone
            display="flex"
            flexDirection="column"
            alignItems="center"
            justifyContent="center"
            gap="1.5"
            textAlign="center"
            minH="24"
            p="4"
            borderWidth="2px"
            borderStyle="dashed"
            rounded="l3"
            borderColor={error ? 'border.error' : 'border.emphasized'}
            bg="bg.subtle"
            color="fg.muted"
            cursor="pointer"
            colorPalette="brand"
            transition="background 0.15s, border-color 0.15s"
            _hover={{ bg: 'bg.muted' }}
            _dragging={{ bg: 'colorPalette.subtle', borderColor: 'colorPalette.solid' }}
            _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' }}
            data-testid="dropzone"
          >
            <LuUpload aria-hidden="true" size="20" />
            <FileUpload.DropzoneContent display="flex" flexDirection="column" gap="0.5">
              <Text textStyle="sm" fontWeight="medium" color="fg">
                {s('dropzone')}
              </Text>
              <Text textStyle="xs" color="fg.muted">
                {s('dropzoneHint', { max: Math.round(maxBytes / 1048576) })}
              </Text>
            </FileUpload.DropzoneContent>
          </FileUpload.Dropzone>
        </FileUpload.Root>
      )}
      {error && (
        <Text textStyle="xs" color="fg.error" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  )
}
