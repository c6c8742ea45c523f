import { Badge, Button, Container, Dialog, Heading, HStack, Portal, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { LuArrowLeft, LuPlus, LuTrash2 } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { deleteWithdrawAddress, getAddressList, getVerifyAddress, walletKeys, type SavedAddress } from '../api/wallet-api'
import { shortenAddress } from '../lib/format'
import { AddAddressModal } from './add-address-modal'
import { BusyButton } from '@/components/form/busy-button'
import { CopyButton, notifyFailure, QueryState } from './shared'

/** /{lan}/newAssets/addressMent: the saved withdrawal addresses (spec §2). */
export function AddressListPage() {
  const { t } = useTexts('wallet')
  const modals = useTexts('walletModals')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const list = useQuery({ queryKey: walletKeys.addresses(''), queryFn: () => getAddressList('') })
  const verify = useQuery({ queryKey: walletKeys.verifyAddress, queryFn: getVerifyAddress })
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<SavedAddress>()
  const [busy, setBusy] = useState(false)

  const remove = async () => {
    if (!deleting) return
    setBusy(true)
    try {
      const envelope = await deleteWithdrawAddress(deleting.id)
      if (isSuccess(envelope)) {
        notifySuccess(t('addressBook.deleted'))
        setDeleting(undefined)
        await queryClient.invalidateQueries({ queryKey: walletKeys.all })
      }
    } catch (e) {
      // A failed request (no answer) is said, not left as an unhandled error; the dialog stays open.
      notifyFailure(e)
    } finally {
      setBusy(false)
    }
  }

  const rows = list.data ?? []
  // Every row has the same buttons: each is named after its address's label, so a screen reader tells them apart.
  const copyLabels = (a: SavedAddress) => ({
    label: t('addressBook.copyNamed', { label: a.label }),
    copiedLabel: common.t('copied'),
    failedLabel: modals.t('clipboardFailed'),
  })
  // A table on wide screens; on phones one card per address, coin and network first.
  const columns: DataColumn<SavedAddress>[] = [
    { id: 'coin', header: t('cols.coin'), card: 'title', cell: (a, layout) => (layout === 'cards' ? `${a.coinSymbol} · ${a.chain || a.trustType}` : a.coinSymbol) },
    { id: 'chain', header: t('addressBook.chain'), card: 'hidden', cell: (a) => a.chain || a.trustType },
    { id: 'label', header: t('addressBook.label'), cell: (a) => a.label },
    {
      id: 'address',
      header: t('addressBook.address'),
      cell: (a, layout) => (
        <HStack gap="1" justify={layout === 'cards' ? 'flex-end' : 'flex-start'}>
          <Text as="span" fontFamily="mono" fontSize="xs" title={a.address}>
            {shortenAddress(a.address)}
          </Text>
          <CopyButton text={a.address} {...copyLabels(a)} />
        </HStack>
      ),
    },
    { id: 'memo', header: t('addressBook.memo'), cell: (a) => a.memo || '--' },
  ]
  return (
    <Container maxW="6xl" py={{ base: '4', md: '8' }} data-testid="address-list-page">
      <HStack justify="space-between" mb="6" flexWrap="wrap" gap="3">
        <HStack gap="3" flexWrap="wrap" minW="0">
          <Button asChild size="sm" variant="ghost" aria-label={t('addressBook.back')}>
            <AppLink href="/wallet">
              <LuArrowLeft aria-hidden="true" />
            </AppLink>
          </Button>
          <Heading as="h1" size="xl">
            {t('addressBook.title')}
          </Heading>
          {verify.data !== undefined ? (
            <Badge colorPalette={verify.data ? 'green' : 'gray'} data-testid="verify-status">
              {verify.data ? t('addressBook.verifyOn') : t('addressBook.verifyOff')}
            </Badge>
          ) : null}
        </HStack>
        <Button size="sm" colorPalette="brand" onClick={() => setAdding(true)} data-testid="add-address">
          <LuPlus aria-hidden="true" />
          {t('addressBook.add')}
        </Button>
      </HStack>
      <QueryState
        isLoading={list.isLoading}
        isError={list.isError}
        isEmpty={rows.length === 0}
        onRetry={() => void list.refetch()}
        loadingText={common.t('loading')}
        errorText={common.t('error')}
        retryText={common.t('retry')}
        emptyText={t('addressBook.empty')}
      >
        <DataTable<SavedAddress>
          columns={columns}
          rows={rows}
          rowKey={(a) => a.id}
          label={t('addressBook.title')}
          testId="address-table"
          rowTestId="address-row"
          emptyText={t('addressBook.empty')}
          actionsLabel={t('cols.actions')}
          showActionsLabel
          actions={(a) => (
            <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setDeleting(a)} aria-label={t('addressBook.deleteNamed', { label: a.label })} data-testid="delete-address">
              <LuTrash2 aria-hidden="true" />
            </Button>
          )}
        />
      </QueryState>

      <AddAddressModal open={adding} onClose={() => setAdding(false)} />
      <Dialog.Root open={!!deleting} onOpenChange={(d) => !d.open && setDeleting(undefined)} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="delete-address-dialog">
              <Dialog.Header>
                <Dialog.Title>{t('addressBook.deleteTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="1">
                  {/* The description of the alert dialog: read with its title when it opens. */}
                  <Dialog.Description color="fg">{t('addressBook.deleteBody', { label: deleting?.label ?? '' })}</Dialog.Description>
                  <Text fontFamily="mono" fontSize="xs">
                    {deleting?.address}
                  </Text>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline">{common.t('cancel')}</Button>
                </Dialog.ActionTrigger>
                <BusyButton colorPalette="red" loading={busy} onClick={() => void remove()} data-testid="confirm-delete">
                  {t('addressBook.delete')}
                </BusyButton>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Container>
  )
}
