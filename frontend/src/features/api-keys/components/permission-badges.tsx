import { Badge, HStack } from '@chakra-ui/react'
import type { TranslateFn } from '@/lib/i18n'
import type { Permission } from '../api/api-keys-api'

/** A colour per permission: reading is plain, trading coloured, withdrawing red. */
const PALETTE: Record<Permission, string> = {
  read: 'gray',
  spot: 'blue',
  margin: 'purple',
  futures: 'teal',
  withdraw: 'red',
}

/** A key's permissions as badges, in the server's order. */
export function PermissionBadges({ t, permissions }: { t: TranslateFn; permissions: Permission[] }) {
  return (
    <HStack gap="1" flexWrap="wrap" justify="inherit" data-testid="permission-badges">
      {permissions.map((p) => (
        <Badge key={p} colorPalette={PALETTE[p] ?? 'gray'} variant="subtle" data-permission={p}>
          {t(`perm.${p}`)}
        </Badge>
      ))}
    </HStack>
  )
}
