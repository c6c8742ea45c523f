import { Badge, Button, Container, Dialog, Heading, HStack, Portal, Stack, Table, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { LuArrowLeft, LuPlus, LuTrash2 } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { deleteWithdrawAddress, getAddressList, getVerifyAddress, walletKeys, type SavedAddress } from '../api/wallet-api'
import { shortenAddress } from '../lib/format'
import { AddAddressModal } from './add-address-modal'
import { CopyButton, QueryState } from './shared'

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
    } finally {
      setBusy(false)
    }
  }

  const rows = list.data ?? []
  return (
    <Container maxW="6xl" py={{ base: '4', md: '8' }} data-testid="address-list-page">
      <HStack justify="space-between" mb="6" flexWrap="wrap" gap="3">
        <HStack gap="3">
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
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" data-testid="address-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('cols.coin')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('addressBook.chain')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('addressBook.label')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('addressBook.address')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('addressBook.memo')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('cols.actions')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((a) => (
                <Table.Row key={a.id} data-testid="address-row">
                  <Table.Cell>{a.coinSymbol}</Table.Cell>
                  <Table.Cell>{a.chain || a.trustType}</Table.Cell>
                  <Table.Cell>{a.label}</Table.Cell>
                  <Table.Cell>
                    <HStack gap="1">
                      <Text fontFamily="mono" fontSize="xs" title={a.address}>
                        {shortenAddress(a.address)}
                      </Text>
                      <CopyButton text={a.address} label={common.t('copy')} copiedLabel={common.t('copied')} failedLabel={modals.t('clipboardFailed')} />
                    </HStack>
                  </Table.Cell>
                  <Table.Cell>{a.memo || '--'}</Table.Cell>
                  <Table.Cell textAlign="end">
                    <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setDeleting(a)} aria-label={t('addressBook.delete')} data-testid="delete-address">
                      <LuTrash2 aria-hidden="true" />
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
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
                  <Text>{t('addressBook.deleteBody', { label: deleting?.label ?? '' })}</Text>
                  <Text fontFamily="mono" fontSize="xs">
                    {deleting?.address}
                  </Text>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline">{common.t('cancel')}</Button>
                </Dialog.ActionTrigger>
                <Button colorPalette="red" loading={busy} onClick={() => void remove()} data-testid="confirm-delete">
                  {t('addressBook.delete')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Container>
  )
}
