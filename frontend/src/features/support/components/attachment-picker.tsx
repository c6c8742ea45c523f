import { Box, Button, Field, HStack, IconButton, Image, Progress, SimpleGrid, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { progressSlotRecipe } from '@chakra-ui/react/theme'
import { useId, useRef, type ChangeEvent } from 'react'
import { LuCirclePlus, LuRotateCcw, LuTrash2 } from 'react-icons/lu'
import type { TranslateFn } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { IMAGE_ACCEPT, MAX_IMAGE_MB } from '../lib/attachments'
import type { AttachmentItem, Attachments } from './use-attachments'

/**
 * The images of a message: an "Add images" button (the file picker), then
 * one tile per image with its preview, its upload's progress, and buttons
 * to remove it or retry a failed upload. Refused files (type, size, too
 * many) are told in an error toast.
 */
export function AttachmentPicker({
  attachments,
  max,
  t,
  disabled,
}: {
  attachments: Attachments
  max: number
  t: TranslateFn
  disabled?: boolean
}) {
  const inputRef = useRef<HTMLInputElement>(null)
  const hintId = useId()
  const full = attachments.items.length >= max

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? [])
    // The same file may be picked again after it was removed.
    event.target.value = ''
    if (files.length === 0) return
    const refused = await attachments.add(files)
    for (const r of refused) {
      notifyError(
        r.problem === 'tooMany'
          ? t('attach.tooMany', { max })
          : r.problem === 'tooLarge'
            ? t('attach.tooLarge', { name: r.name, size: MAX_IMAGE_MB })
            : t('attach.badType', { name: r.name }),
      )
    }
  }

  return (
    <Field.Root>
      <Field.Label>{t('attach.label')}</Field.Label>
      <Stack gap="3" width="full">
        <HStack gap="3" flexWrap="wrap">
          <Button
            size="sm"
            variant="outline"
            onClick={() => inputRef.current?.click()}
            disabled={disabled || full}
            aria-describedby={hintId}
            data-testid="attach-add"
          >
            <LuCirclePlus aria-hidden="true" />
            {t('attach.add')}
          </Button>
          <Text id={hintId} textStyle="xs" color="fg.muted">
            {t('attach.hint', { max, size: MAX_IMAGE_MB })}
          </Text>
        </HStack>
        <VisuallyHidden asChild>
          <input
            ref={inputRef}
            type="file"
            accept={IMAGE_ACCEPT}
            multiple
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => void onPick(e)}
            data-testid="attach-input"
          />
        </VisuallyHidden>
        {attachments.items.length > 0 && (
          <SimpleGrid
            as="ul"
            columns={{ base: 2, sm: 3, md: 5 }}
            gap="3"
            listStyleType="none"
            m="0"
            p="0"
            aria-label={t('attach.listLabel')}
            data-testid="attach-list"
          >
            {attachments.items.map((item, i) => (
              <AttachmentTile
                key={item.key}
                item={item}
                index={i + 1}
                t={t}
                onRemove={() => attachments.remove(item.key)}
                onRetry={() => attachments.retry(item.key)}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Field.Root>
  )
}

function AttachmentTile({
  item,
  index,
  t,
  onRemove,
  onRetry,
}: {
  item: AttachmentItem
  index: number
  t: TranslateFn
  onRemove: () => void
  onRetry: () => void
}) {
  const percent = Math.round(item.progress * 100)
  return (
    <Box
      as="li"
      position="relative"
      borderWidth="1px"
      borderColor={item.state === 'error' ? 'border.error' : 'border'}
      rounded="md"
      overflow="hidden"
      bg="bg.subtle"
      data-testid="attach-item"
      data-state={item.state}
    >
      <Box aspectRatio={4 / 3} bg="bg.muted">
        {item.previewUrl && (
          <Image src={item.previewUrl} alt={t('attach.image', { n: index })} w="full" h="full" objectFit="cover" />
        )}
      </Box>
      <Stack gap="1" p="2">
        <Text textStyle="xs" truncate title={item.file.name}>
          {item.file.name}
        </Text>
        {item.state === 'uploading' && (
          <Progress.Root
            recipe={progressSlotRecipe}
            size="xs"
            value={percent}
            max={100}
            colorPalette="brand"
            aria-label={t('attach.progress', { name: item.file.name })}
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
            <Progress.ValueText textStyle="xs" color="fg.muted" mt="1">
              {t('attach.uploading', { percent })}
            </Progress.ValueText>
          </Progress.Root>
        )}
        {item.state === 'done' && (
          <Text textStyle="xs" color="fg.success">
            {t('attach.uploaded')}
          </Text>
        )}
        {item.state === 'error' && (
          <HStack justify="space-between" gap="1">
            <Text textStyle="xs" color="fg.error">
              {t('attach.failed')}
            </Text>
            <IconButton size="2xs" variant="ghost" aria-label={t('attach.retry')} onClick={onRetry}>
              <LuRotateCcw />
            </IconButton>
          </HStack>
        )}
      </Stack>
      <IconButton
        position="absolute"
        top="1"
        insetEnd="1"
        size="2xs"
        variant="solid"
        colorPalette="gray"
        rounded="full"
        aria-label={t('attach.remove', { name: item.file.name })}
        onClick={onRemove}
        data-testid="attach-remove"
      >
        <LuTrash2 />
      </IconButton>
    </Box>
  )
}
