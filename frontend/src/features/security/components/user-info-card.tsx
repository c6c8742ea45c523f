import { Badge, Button, Card, DataList, HStack, IconButton, Input, Link, Stack, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { LuPencil } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { validateNickname, validationMessage } from '@/lib/account-validation'
import { formatPhone } from '@/lib/country-codes'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import type { UserInfo } from '@/lib/session'
import { updateNickname } from '../api/security-api'
import { formatDateTime } from './format'
import { useSecurityRefresh } from './use-security-refresh'

const KYC_COLOR = { 0: 'gray', 1: 'orange', 2: 'green', 3: 'red' } as const

/** The identity verification page, linked from the status. */
const IDENTITY_PATH = '/profile/identity'

/** Account details: id, e-mail, phone, nickname (editable), KYC, account type, registration time. */
export function UserInfoCard({ user, t, lan }: { user: UserInfo; t: TranslateFn; lan: string }) {
  const kyc = user.kycStatus ?? 0
  const notSet = (
    <Text as="span" color="fg.subtle">
      {t('notSet')}
    </Text>
  )
  return (
    <Card.Root data-testid="user-info">
      <Card.Header>
        <Card.Title>{t('userInfoTitle')}</Card.Title>
      </Card.Header>
      <Card.Body>
        <DataList.Root
          orientation="vertical"
          display="grid"
          gridTemplateColumns={{ base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' }}
          gap="5"
          size="md"
        >
          <DataList.Item>
            <DataList.ItemLabel>{t('userId')}</DataList.ItemLabel>
            <DataList.ItemValue data-testid="user-id" fontFamily="mono">
              {String(user.id)}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('email')}</DataList.ItemLabel>
            <DataList.ItemValue data-testid="user-email" wordBreak="break-all">
              {user.email || notSet}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('phone')}</DataList.ItemLabel>
            <DataList.ItemValue>
              {user.mobileNumber ? formatPhone(user.countryCode, user.mobileNumber) : notSet}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('nickname')}</DataList.ItemLabel>
            <DataList.ItemValue>
              <NicknameEditor current={user.nickName ?? ''} t={t} notSet={notSet} />
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('kycStatus')}</DataList.ItemLabel>
            <DataList.ItemValue>
              <HStack gap="3" flexWrap="wrap">
                <Badge colorPalette={KYC_COLOR[kyc] ?? 'gray'} variant="subtle" data-testid="kyc-status">
                  {t(`kyc${kyc}`)}
                </Badge>
                <Link asChild textStyle="sm" colorPalette="brand" color="colorPalette.fg" data-testid="kyc-link">
                  <AppLink href={IDENTITY_PATH}>{kyc === 0 ? t('kycVerify') : t('kycDetails')}</AppLink>
                </Link>
              </HStack>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('accountType')}</DataList.ItemLabel>
            <DataList.ItemValue>
              {user.accountType === 'enterprise' ? t('accountEnterprise') : t('accountRegular')}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('created')}</DataList.ItemLabel>
            <DataList.ItemValue>{formatDateTime(user.ctime, lan)}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  )
}

/** Inline nickname editing. */
function NicknameEditor({ current, t, notSet }: { current: string; t: TranslateFn; notSet: React.ReactNode }) {
  const refresh = useSecurityRefresh()
  const [editing, setEditing] = useState(false)
  const [value, setValue] = useState(current)
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const message = validationMessage(t, validateNickname(value))
    setError(message)
    if (message) return
    setSaving(true)
    try {
      const envelope = await updateNickname(value)
      if (!isSuccess(envelope)) return
      notifySuccess(t('nicknameSaved'))
      await refresh()
      setEditing(false)
    } finally {
      setSaving(false)
    }
  }

  if (!editing) {
    return (
      <HStack gap="2">
        <Text as="span" data-testid="user-nickname">
          {current || notSet}
        </Text>
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={t('edit')}
          onClick={() => {
            setValue(current)
            setError(undefined)
            setEditing(true)
          }}
        >
          <LuPencil />
        </IconButton>
      </HStack>
    )
  }
  return (
    <form noValidate onSubmit={(e) => void save(e)} style={{ width: '100%' }}>
      <Stack gap="1">
        <HStack gap="2" flexWrap="wrap">
          <Input
            size="sm"
            maxW="15rem"
            name="nickName"
            aria-label={t('nickname')}
            placeholder={t('nicknamePlaceholder')}
            autoFocus
            maxLength={32}
            value={value}
            aria-invalid={!!error || undefined}
            onChange={(e) => {
              setValue(e.target.value)
              setError(undefined)
            }}
          />
          <Button size="sm" type="submit" colorPalette="brand" loading={saving}>
            {t('save')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setEditing(false)} disabled={saving}>
            {t('cancel')}
          </Button>
        </HStack>
        {error && (
          <Text textStyle="xs" color="fg.error" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </form>
  )
}
