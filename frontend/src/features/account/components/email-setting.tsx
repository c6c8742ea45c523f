import { Button, Stack, Text } from '@chakra-ui/react'
import { useState, type ElementType, type ReactNode } from 'react'
import { LuMail } from 'react-icons/lu'
import { formatDateTime } from '@/lib/date-time'
import { useUserInfo, type UserInfo } from '@/lib/session'
import { accountTexts } from '../lib/texts'
import { EmailDialog } from './email-dialog'

/** One row of the security page's settings (the shape its rows have). */
export interface SettingRow {
  id: string
  icon: ElementType
  title: string
  description: string
  status?: ReactNode
  action: ReactNode
}

/**
 * The security page's e-mail row: the address (or that there is none), a
 * Change or Add button opening {@link EmailDialog}, and, once a change is
 * stored, until when withdrawals are locked.
 */
export function useEmailSetting(initialUser: UserInfo): SettingRow {
  const { t } = accountTexts.useTexts()
  const { user: liveUser } = useUserInfo()
  const user = liveUser ?? initialUser
  const [open, setOpen] = useState(false)
  const [lockedUntil, setLockedUntil] = useState<number>()
  const locked = lockedUntil !== undefined && lockedUntil > Date.now()
  return {
    id: 'email',
    icon: LuMail,
    title: t('email.title'),
    description: t('email.desc'),
    status: (
      <Stack gap="0" align={{ base: 'flex-start', md: 'flex-end' }} minW="0">
        <Text textStyle="sm" color={user.email ? 'fg' : 'fg.muted'} wordBreak="break-all" data-testid="email-status">
          {user.email || t('email.notSet')}
        </Text>
        {locked && (
          <Text textStyle="xs" color="fg.warning" data-testid="email-withdraw-lock">
            {t('email.lockedUntil', { time: formatDateTime(lockedUntil, { seconds: false }) })}
          </Text>
        )}
      </Stack>
    ),
    action: (
      <>
        <Button size="sm" variant="outline" onClick={() => setOpen(true)} data-testid="email-action">
          {user.email ? t('email.change') : t('email.add')}
        </Button>
        <EmailDialog open={open} onOpenChange={setOpen} user={user} t={t} onChanged={setLockedUntil} />
      </>
    ),
  }
}
