import { Badge, Box, Card, HStack, Stack, Text } from '@chakra-ui/react'
import type { TranslateFn } from '@/lib/i18n'
import type { LevelList, LevelStatus } from '../api/get-level-list'
import { formatUsdt } from '../lib/format'
import { heldLevel, levelDescription, levelTitle, STATUS_COLOR } from '../lib/status'

/** One row of the list: the unverified account, or a level. */
interface Row {
  id: string
  rank: number
  title: string
  description: string
  limit: string
  status?: LevelStatus
  /** The user's own limit comes from this row. */
  yours: boolean
}

/** The rows of a level list: no verification first, then every level in rank order. */
export function levelRows(list: LevelList, t: TranslateFn): Row[] {
  const held = heldLevel(list)
  const rows: Row[] = [
    {
      id: 'unverified',
      rank: 0,
      title: t('levels.unverifiedName'),
      description: t('levels.unverifiedDesc'),
      limit: list.unverifiedWithdrawDailyUsdt,
      yours: !held,
    },
  ]
  for (const l of list.levels) {
    rows.push({
      id: l.levelName,
      rank: l.rank,
      title: levelTitle(t, l.levelName),
      description: levelDescription(t, l),
      limit: l.withdrawDailyUsdt,
      status: l.status,
      yours: held?.levelName === l.levelName,
    })
  }
  return rows
}

/** The verification levels with the daily withdrawal limit each gives and the user's status at each. */
export function LevelsCard({ list, t }: { list: LevelList; t: TranslateFn }) {
  const rows = levelRows(list, t)
  return (
    <Card.Root data-testid="identity-levels">
      <Card.Header>
        <Card.Title as="h2">{t('levels.title')}</Card.Title>
        <Card.Description>{t('levels.subtitle')}</Card.Description>
      </Card.Header>
      <Card.Body pt="2">
        <Stack as="ul" gap="0" listStyleType="none" aria-label={t('levels.listLabel')}>
          {rows.map((row) => (
            <Box
              as="li"
              key={row.id}
              py="4"
              px="3"
              mx="-3"
              rounded="md"
              bg={row.yours ? 'bg.muted' : undefined}
              data-testid={`identity-level-${row.id}`}
              data-yours={row.yours || undefined}
            >
              <Stack direction={{ base: 'column', md: 'row' }} gap={{ base: '2', md: '6' }} align={{ base: 'stretch', md: 'center' }}>
                <Stack gap="1" flex="1" minW="0">
                  <HStack gap="2" flexWrap="wrap">
                    {row.rank > 0 && (
                      <Text as="span" textStyle="xs" color="fg.muted" fontWeight="medium">
                        {t('levels.rank', { rank: row.rank })}
                      </Text>
                    )}
                    <Text as="span" fontWeight="semibold">
                      {row.title}
                    </Text>
                    {row.yours && (
                      <Badge variant="solid" colorPalette="brand" size="sm">
                        {t('levels.current')}
                      </Badge>
                    )}
                    {row.status && row.status !== 'unverified' && (
                      <Badge variant="subtle" colorPalette={STATUS_COLOR[row.status]} size="sm" data-testid="identity-level-status">
                        {t(`statusLabel.${row.status}`)}
                      </Badge>
                    )}
                  </HStack>
                  {row.description && (
                    <Text textStyle="sm" color="fg.muted">
                      {row.description}
                    </Text>
                  )}
                </Stack>
                <Stack gap="0" align={{ base: 'flex-start', md: 'flex-end' }} flexShrink={0}>
                  <Text textStyle="xs" color="fg.muted">
                    {t('levels.limit')}
                  </Text>
                  <Text fontWeight="semibold" fontVariantNumeric="tabular-nums" data-testid="identity-level-limit">
                    {t('perDay', { amount: formatUsdt(row.limit) })}
                  </Text>
                </Stack>
              </Stack>
            </Box>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
