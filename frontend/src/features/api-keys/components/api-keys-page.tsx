import { Alert, Badge, Button, Container, Heading, HStack, Icon, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useRouter, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { LuGlobe, LuPencil, LuPlus, LuTrash2 } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { routeExists } from '@/components/layout/link-target'
import { formatDateTime } from '@/features/security/components/format'
import { loginHref } from '@/lib/auth-guard'
import { getRawLanguage } from '@/lib/cookies'
import { footerHref } from '@/lib/footer-visibility'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { isNetworkError, isSuccess } from '@/lib/request-client'
import { useUserInfo, type UserInfo } from '@/lib/session'
import { apiKeysKeys, deleteKey, DEFAULT_MAX_KEYS, listKeys, normalizeKey, type ApiKey, type ApiKeyList, type CreatedKey } from '../api/api-keys-api'
import { unrestrictedRisk } from '../lib/key-form'
import { CopyButton } from './copy-button'
import { DeleteKeyDialog } from './delete-key-dialog'
import { KeyFormDialog } from './key-form-dialog'
import { PermissionBadges } from './permission-badges'
import { SecretDialog } from './secret-dialog'

/** An API key as the list shows it: its first 8 and last 6 characters. */
export function shortKey(apiKey: string): string {
  return apiKey.length > 18 ? `${apiKey.slice(0, 8)}…${apiKey.slice(-6)}` : apiKey
}

/** How many IPs a row lists before "+n". */
const IPS_SHOWN = 3

/** The open dialog: the form (create or edit) with a fresh mount per opening. */
type FormState = { open: boolean; editing?: ApiKey; mount: number }

/**
 * /profile/api: the user's API keys for bots and tools (the
 * Binance-compatible API at /api/v3): create, change and delete them. A
 * table on wide screens, one card per key on phones.
 */
export function ApiKeysPage({ initialUser }: { initialUser: UserInfo }) {
  const { t } = useTexts('apiKeys')
  const { user: liveUser } = useUserInfo()
  const user = liveUser ?? initialUser
  const navigate = useNavigate()
  const href = useRouterState({ select: (s) => s.location.href })
  const queryClient = useQueryClient()
  const router = useRouter()
  // The Open API documentation (/{lan}/api), linked only once the app has that page.
  const docsHref = footerHref('/api', getRawLanguage())
  const hasDocs = routeExists(router, docsHref)

  // The session can end while the page is open: the visitor signs in again and comes back.
  useEffect(() => {
    if (liveUser === null) void navigate({ href: loginHref(href), replace: true })
  }, [liveUser, href, navigate])

  const list = useQuery({ queryKey: apiKeysKeys.list, queryFn: ({ signal }) => listKeys(signal) })
  const keys = list.data?.keys ?? []
  const max = list.data?.max ?? DEFAULT_MAX_KEYS
  const atLimit = keys.length >= max

  const [form, setForm] = useState<FormState>({ open: false, mount: 0 })
  const [created, setCreated] = useState<CreatedKey>()
  const [deleting, setDeleting] = useState<ApiKey>()
  const [busy, setBusy] = useState(false)
  const createRef = useRef<HTMLButtonElement>(null)
  const justDeleted = useRef(false)
  // After the secret is shown or a key deleted, focus comes back to Create (the form and the row's button are gone);
  // a cancelled delete returns it to the row's button.
  const focusCreate = () => createRef.current
  const focusAfterDelete = () => (justDeleted.current ? createRef.current : null)

  const openForm = (editing?: ApiKey) => setForm((f) => ({ open: true, editing, mount: f.mount + 1 }))
  const closeForm = () => setForm((f) => ({ ...f, open: false }))

  const setKeys = (change: (keys: ApiKey[]) => ApiKey[]) =>
    queryClient.setQueryData<ApiKeyList>(apiKeysKeys.list, (d) => (d ? { ...d, keys: change(d.keys) } : d))
  const refresh = () => void queryClient.invalidateQueries({ queryKey: apiKeysKeys.all })

  const onCreated = (key: CreatedKey) => {
    closeForm()
    // The list keeps the key without its secret; the secret lives only in the dialog that shows it.
    setKeys((ks) => [normalizeKey(key), ...ks.filter((k) => k.apiKey !== key.apiKey)])
    // The dialog that shows the secret says it was created: no toast over its warning on a phone.
    setCreated(key)
    refresh()
  }
  const onSaved = (key: ApiKey) => {
    closeForm()
    setKeys((ks) => ks.map((k) => (k.apiKey === key.apiKey ? key : k)))
    refresh()
  }

  const remove = async () => {
    if (!deleting) return
    setBusy(true)
    try {
      const envelope = await deleteKey(deleting.apiKey)
      if (isSuccess(envelope)) {
        const gone = deleting.apiKey
        justDeleted.current = true
        setDeleting(undefined)
        setKeys((ks) => ks.filter((k) => k.apiKey !== gone))
        notifySuccess(t('deleted'))
        refresh()
      }
    } catch (e) {
      // A failed request is said (no answer: the shared "unreachable" toast); the dialog stays open.
      if (!isNetworkError(e)) notifyError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  const columns = keyColumns(t)
  return (
    <Container maxW="7xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid="api-keys-page">
      <Stack gap={{ base: '5', md: '6' }}>
        <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'stretch', md: 'flex-start' }} gap="4">
          <Stack gap="2" maxW="3xl">
            <HStack gap="3" flexWrap="wrap">
              <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
                {t('title')}
              </Heading>
              {list.data && (
                <Badge size="lg" variant="subtle" colorPalette={atLimit ? 'orange' : 'gray'} fontVariantNumeric="tabular-nums" data-testid="api-key-count">
                  <VisuallyHidden>{t('countLabel')}</VisuallyHidden>
                  {`${keys.length} / ${max}`}
                </Badge>
              )}
            </HStack>
            <Text color="fg.muted">
              {t('intro')}
              {hasDocs && (
                <>
                  {' '}
                  <Link asChild colorPalette="brand" color="colorPalette.fg" data-testid="api-docs-link">
                    <AppLink href={docsHref}>{t('docsLink')}</AppLink>
                  </Link>
                </>
              )}
            </Text>
          </Stack>
          <Button
            ref={createRef}
            colorPalette="brand"
            flexShrink={0}
            onClick={() => openForm()}
            disabled={!list.data || atLimit}
            data-testid="create-api-key"
          >
            <LuPlus aria-hidden="true" />
            {t('create')}
          </Button>
        </Stack>

        {atLimit && (
          <Alert.Root status="info" data-testid="api-key-limit">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">{t('limitReached', { max })}</Alert.Title>
          </Alert.Root>
        )}

        <DataTable<ApiKey>
          columns={columns}
          rows={keys}
          rowKey={(k) => k.apiKey}
          label={t('listLabel')}
          testId="api-key-list"
          rowTestId="api-key-row"
          isLoading={list.isLoading}
          loadingLabel={t('loading')}
          emptyText={t('empty')}
          emptyTestId="api-key-empty"
          error={list.isError ? { text: t('loadError'), retryText: t('retry'), onRetry: () => void list.refetch() } : undefined}
          actionsLabel={t('cols.actions')}
          stickyActions
          actions={(k, layout) => (
            <>
              <Button
                size="xs"
                variant={layout === 'cards' ? 'outline' : 'ghost'}
                onClick={() => openForm(k)}
                aria-label={layout === 'cards' ? undefined : t('editNamed', { label: k.label })}
                title={layout === 'cards' ? undefined : t('edit')}
                data-testid="edit-api-key"
              >
                <LuPencil aria-hidden="true" />
                {layout === 'cards' && t('edit')}
              </Button>
              <Button
                size="xs"
                variant={layout === 'cards' ? 'outline' : 'ghost'}
                colorPalette="red"
                onClick={() => {
                  justDeleted.current = false
                  setDeleting(k)
                }}
                aria-label={layout === 'cards' ? undefined : t('deleteNamed', { label: k.label })}
                title={layout === 'cards' ? undefined : t('delete')}
                data-testid="delete-api-key"
              >
                <LuTrash2 aria-hidden="true" />
                {layout === 'cards' && t('delete')}
              </Button>
            </>
          )}
        />
      </Stack>

      <KeyFormDialog
        key={form.mount}
        open={form.open}
        onOpenChange={(open) => (open ? undefined : closeForm())}
        t={t}
        user={user}
        editing={form.editing}
        onCreated={onCreated}
        onSaved={onSaved}
      />
      <SecretDialog created={created} onClose={() => setCreated(undefined)} t={t} finalFocus={focusCreate} />
      <DeleteKeyDialog target={deleting} busy={busy} onConfirm={() => void remove()} onClose={() => setDeleting(undefined)} t={t} finalFocus={focusAfterDelete} />
    </Container>
  )
}

/** The list's columns: label and type head a card; the rest are its rows. */
function keyColumns(t: TranslateFn): DataColumn<ApiKey>[] {
  return [
    {
      id: 'label',
      header: t('cols.label'),
      card: 'title',
      cell: (k) => (
        <Text as="span" fontWeight="medium" overflowWrap="anywhere" data-testid="api-key-label-cell">
          {k.label}
        </Text>
      ),
    },
    {
      id: 'apiKey',
      header: t('cols.apiKey'),
      nowrap: true,
      cell: (k, layout) => (
        <HStack gap="1" justify={layout === 'cards' ? 'flex-end' : 'flex-start'}>
          <Text as="span" fontFamily="mono" fontSize="xs" title={k.apiKey} data-testid="api-key-short">
            {shortKey(k.apiKey)}
          </Text>
          <CopyButton value={k.apiKey} label={t('copyNamed', { label: k.label })} copiedLabel={t('copied')} testId="copy-api-key" />
        </HStack>
      ),
    },
    {
      id: 'permissions',
      header: t('cols.permissions'),
      cell: (k) => <PermissionBadges t={t} permissions={k.permissions} />,
    },
    {
      id: 'ips',
      header: t('cols.ips'),
      cell: (k, layout) => <IpsCell t={t} apiKey={k} align={layout === 'cards' ? 'flex-end' : 'flex-start'} />,
    },
    {
      id: 'type',
      header: t('cols.type'),
      card: 'aside',
      nowrap: true,
      cell: (k) => (
        <Badge variant="outline" colorPalette="gray" data-testid="api-key-type-cell">
          {t(`type.${k.keyType}`)}
        </Badge>
      ),
    },
    { id: 'created', header: t('cols.created'), nowrap: true, cell: (k) => formatDateTime(k.createdAt) },
    {
      id: 'lastUsed',
      header: t('cols.lastUsed'),
      nowrap: true,
      cell: (k) => (k.lastUsedAt > 0 ? formatDateTime(k.lastUsedAt) : <Text as="span" color="fg.muted">{t('never')}</Text>),
    },
  ]
}

/** The IPs a key is restricted to, or "Unrestricted" (a warning when it may trade or withdraw). */
function IpsCell({ t, apiKey, align }: { t: TranslateFn; apiKey: ApiKey; align: 'flex-start' | 'flex-end' }) {
  if (apiKey.ips.length === 0) {
    const risk = unrestrictedRisk(apiKey)
    return (
      <Badge colorPalette={risk ? 'orange' : 'gray'} variant="subtle" title={risk ? t('unrestrictedRisk') : undefined} data-testid="api-key-ips-cell" data-risk={risk || undefined}>
        <Icon as={LuGlobe} aria-hidden="true" />
        {t('unrestricted')}
        {risk && <VisuallyHidden>{` — ${t('unrestrictedRisk')}`}</VisuallyHidden>}
      </Badge>
    )
  }
  const more = apiKey.ips.length - IPS_SHOWN
  return (
    <Stack gap="0" fontFamily="mono" fontSize="xs" align={align} data-testid="api-key-ips-cell" title={apiKey.ips.join('\n')}>
      {apiKey.ips.slice(0, IPS_SHOWN).map((ip) => (
        <Text as="span" key={ip}>
          {ip}
        </Text>
      ))}
      {more > 0 && (
        <Text as="span" color="fg.muted" fontFamily="body">
          {t('moreIps', { n: more })}
        </Text>
      )}
    </Stack>
  )
}
