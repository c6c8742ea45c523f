import { Badge, Box, Button, Card, HStack, Icon, Separator, Stack, Tabs, Text } from '@chakra-ui/react'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import { Fragment, useEffect, useState, type ReactNode } from 'react'
import { LuKeyRound, LuLock, LuMessageSquare, LuShieldCheck, LuSmartphone } from 'react-icons/lu'
import { PageFrame } from '@/components/layout/page-frame'
import { loginHref } from '@/lib/auth-guard'
import { formatPhone } from '@/lib/country-codes'
import { useTexts } from '@/lib/i18n'
import { useUserInfo, type UserInfo } from '@/lib/session'
import { GoogleOffDialog } from './google-off-dialog'
import { GoogleOnDialog } from './google-on-dialog'
import { HistoryTable } from './history-table'
import { MobileCheckDialog } from './mobile-check-dialog'
import { PasswordDialog } from './password-dialog'
import { PhoneDialog } from './phone-dialog'
import { UserInfoCard } from './user-info-card'

type DialogId = 'googleOn' | 'googleOff' | 'phone' | 'mobileCheck' | 'password'

/** Props of {@link SecurityPage}. */
export interface SecurityPageProps {
  initialUser: UserInfo
  /** Rows other areas add to the settings, before the phone (the route composes them). */
  extraSettings?: SettingRowProps[]
  /** What follows the histories (the route composes it: the account's danger zone). */
  children?: ReactNode
}

/**
 * The protected account security page: account details, second factors
 * (Google authenticator, phone and the SMS check), the login password, and
 * the login and settings histories.
 */
export function SecurityPage({ initialUser, extraSettings, children }: SecurityPageProps) {
  const { t, lan } = useTexts('security')
  const { user: liveUser } = useUserInfo()
  const user = liveUser ?? initialUser
  const navigate = useNavigate()
  const href = useRouterState({ select: (s) => s.location.href })

  // The session can end while the page is open (expiry, password change
  // elsewhere): user info turns null, and the visitor goes to sign in again.
  useEffect(() => {
    if (liveUser === null) void navigate({ href: loginHref(href), replace: true })
  }, [liveUser, href, navigate])
  const [dialog, setDialog] = useState<DialogId | null>(null)
  const onOpenChange = (id: DialogId) => (open: boolean) => setDialog(open ? id : null)

  const googleOn = user.googleStatus === 1
  const mobileCheckOn = user.isOpenMobileCheck === 1
  const hasPhone = !!user.mobileNumber

  const status = (on: boolean, testId: string) => (
    <Badge colorPalette={on ? 'green' : 'gray'} variant="subtle" data-testid={testId}>
      {on ? t('statusOn') : t('statusOff')}
    </Badge>
  )

  const rows: SettingRowProps[] = [
    {
      id: 'google',
      icon: LuShieldCheck,
      title: t('googleTitle'),
      description: t('googleDesc'),
      status: status(googleOn, 'google-status'),
      action: (
        <Button
          size="sm"
          variant={googleOn ? 'outline' : 'solid'}
          colorPalette={googleOn ? 'red' : 'brand'}
          onClick={() => setDialog(googleOn ? 'googleOff' : 'googleOn')}
          data-testid="google-toggle"
        >
          {googleOn ? t('turnOff') : t('turnOn')}
        </Button>
      ),
    },
    {
      id: 'phone',
      icon: LuSmartphone,
      title: t('phoneTitle'),
      description: t('phoneDesc'),
      status: (
        <Text textStyle="sm" color={hasPhone ? 'fg' : 'fg.muted'} data-testid="phone-status">
          {hasPhone ? formatPhone(user.countryCode, user.mobileNumber) : t('phoneNotBound')}
        </Text>
      ),
      action: (
        <Button size="sm" variant="outline" onClick={() => setDialog('phone')} data-testid="phone-action">
          {hasPhone ? t('changePhone') : t('bindPhone')}
        </Button>
      ),
    },
    {
      id: 'mobile-check',
      icon: LuMessageSquare,
      title: t('mobileCheckTitle'),
      description: hasPhone ? t('mobileCheckDesc') : t('needPhoneFirst'),
      status: status(mobileCheckOn, 'mobile-check-status'),
      action: (
        <Button
          size="sm"
          variant="outline"
          disabled={!hasPhone}
          onClick={() => setDialog('mobileCheck')}
          data-testid="mobile-check-toggle"
        >
          {mobileCheckOn ? t('turnOff') : t('turnOn')}
        </Button>
      ),
    },
    {
      id: 'password',
      icon: LuLock,
      title: t('passwordTitle'),
      description: t('passwordDesc'),
      action: (
        <Button size="sm" variant="outline" onClick={() => setDialog('password')} data-testid="password-action">
          <LuKeyRound />
          {t('changePassword')}
        </Button>
      ),
    },
  ]
  if (extraSettings?.length) rows.splice(Math.max(0, rows.findIndex((row) => row.id === 'phone')), 0, ...extraSettings)

  return (
    <PageFrame title={t('title')} subtitle={t('subtitle')}>
      <UserInfoCard user={user} t={t} lan={lan} />

      <Card.Root data-testid="security-settings">
        <Card.Header>
          <Card.Title>{t('settingsTitle')}</Card.Title>
        </Card.Header>
        <Card.Body pt="2">
          <Stack gap="0">
            {rows.map((row, i) => (
              <Fragment key={row.id}>
                {i > 0 && <Separator />}
                <SettingRow {...row} />
              </Fragment>
            ))}
          </Stack>
        </Card.Body>
      </Card.Root>

      <Card.Root>
        <Card.Body>
          <Tabs.Root defaultValue="login" variant="line" lazyMount>
            <Tabs.List>
              <Tabs.Trigger value="login">{t('loginHistoryTitle')}</Tabs.Trigger>
              <Tabs.Trigger value="setting">{t('settingHistoryTitle')}</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="login">
              <HistoryTable kind="login" t={t} lan={lan} />
            </Tabs.Content>
            <Tabs.Content value="setting">
              <HistoryTable kind="setting" t={t} lan={lan} />
            </Tabs.Content>
          </Tabs.Root>
        </Card.Body>
      </Card.Root>

      {children}

      <GoogleOnDialog open={dialog === 'googleOn'} onOpenChange={onOpenChange('googleOn')} t={t} />
      <GoogleOffDialog open={dialog === 'googleOff'} onOpenChange={onOpenChange('googleOff')} t={t} />
      <PhoneDialog open={dialog === 'phone'} onOpenChange={onOpenChange('phone')} t={t} />
      <MobileCheckDialog open={dialog === 'mobileCheck'} onOpenChange={onOpenChange('mobileCheck')} t={t} />
      <PasswordDialog open={dialog === 'password'} onOpenChange={onOpenChange('password')} t={t} />
    </PageFrame>
  )
}

/** One row of the security settings. */
export interface SettingRowProps {
  id: string
  icon: React.ElementType
  title: string
  description: string
  status?: ReactNode
  action: ReactNode
}

/** One security setting: icon, title and description, its state, and the action. */
function SettingRow({ id, icon, title, description, status, action }: SettingRowProps) {
  return (
    <Stack
      direction={{ base: 'column', md: 'row' }}
      align={{ base: 'stretch', md: 'center' }}
      gap={{ base: '3', md: '6' }}
      py="4"
      data-testid={`setting-${id}`}
    >
      <HStack gap="3" flex="1" align="flex-start">
        <Box p="2" rounded="md" bg="brand.subtle" color="brand.fg" flexShrink={0}>
          <Icon as={icon} boxSize="5" />
        </Box>
        <Stack gap="0.5">
          <Text fontWeight="semibold">{title}</Text>
          <Text textStyle="sm" color="fg.muted">
            {description}
          </Text>
        </Stack>
      </HStack>
      <HStack gap="4" justify={{ base: 'space-between', md: 'flex-end' }} ps={{ base: '12', md: '0' }}>
        {status ?? <Box />}
        {action}
      </HStack>
    </Stack>
  )
}
