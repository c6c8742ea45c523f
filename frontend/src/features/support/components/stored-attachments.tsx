import { Box, Center, chakra, CloseButton, Dialog, HStack, Image, Portal, Skeleton } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuCloudOff } from 'react-icons/lu'
import type { TranslateFn } from '@/lib/i18n'
import { fetchUpload } from '../api/upload-file'
import { supportKeys } from '../api/types'
import { readDataUrl } from '../lib/attachments'

/** The images of a message, as thumbnails that open full size. */
export function StoredAttachments({ ids, t }: { ids: string[]; t: TranslateFn }) {
  if (ids.length === 0) return null
  return (
    <HStack as="ul" gap="2" flexWrap="wrap" listStyleType="none" m="0" p="0" aria-label={t('attach.listLabel')}>
      {ids.map((id, i) => (
        <Box as="li" key={id}>
          <StoredImage id={id} n={i + 1} t={t} />
        </Box>
      ))}
    </HStack>
  )
}

/**
 * One stored image: read with the session (an <img> cannot send the
 * anti-forgery header) and shown from a data: URL (the site's CSP takes
 * those), as a thumbnail button that opens it full size.
 */
function StoredImage({ id, n, t }: { id: string; n: number; t: TranslateFn }) {
  const query = useQuery({
    queryKey: [...supportKeys.all, 'upload', id],
    queryFn: async ({ signal }) => readDataUrl(await fetchUpload(id, signal)),
    staleTime: Infinity,
    gcTime: 5 * 60 * 1000,
    retry: 1,
  })
  const url = query.data
  const [open, setOpen] = useState(false)
  const name = t('attach.image', { n })
  if (query.isError) {
    return (
      <Center boxSize="20" borderWidth="1px" rounded="md" color="fg.muted" title={t('attach.unavailable')} data-testid="stored-attachment">
        <LuCloudOff aria-label={t('attach.unavailable')} />
      </Center>
    )
  }
  if (!url) return <Skeleton boxSize="20" rounded="md" />
  return (
    <>
      <chakra.button
        type="button"
        boxSize="20"
        rounded="md"
        overflow="hidden"
        borderWidth="1px"
        cursor="zoom-in"
        aria-label={t('attach.open', { n })}
        onClick={() => setOpen(true)}
        _focusVisible={{ outlineWidth: '2px', outlineStyle: 'solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
        data-testid="stored-attachment"
      >
        <Image src={url} alt={name} w="full" h="full" objectFit="cover" />
      </chakra.button>
      <Dialog.Root open={open} onOpenChange={(d) => setOpen(d.open)} lazyMount unmountOnExit placement="center" size={{ base: 'full', md: 'xl' }}>
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="attachment-viewer">
              <Dialog.Header>
                <Dialog.Title>{t('attach.viewerTitle', { n })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body pb="6">
                <Center>
                  <Image src={url} alt={name} maxH="75vh" maxW="full" objectFit="contain" rounded="md" />
                </Center>
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('close')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  )
}
