import { Button, Checkbox, Dialog, List, Portal, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { AppLink } from '@/components/layout/app-link'
import { hasAgreedP2P, setAgreedP2P } from '@/lib/cookies'
import type { TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'

/**
 * The P2P agreement notice (spec §2, §4): it opens for a signed-in user
 * without the isAgreeP2PAgreement cookie; confirm is enabled once the
 * checkbox is ticked, stores the cookie as true and closes. It cannot be
 * dismissed otherwise; the way out is back to the home page.
 */
export function AgreementModal({ t }: { t: TranslateFn }) {
  const { user } = useUserInfo()
  const [agreed, setAgreed] = useState(hasAgreedP2P)
  const [ticked, setTicked] = useState(false)
  const open = !!user && !agreed
  const confirm = () => {
    if (!ticked) return
    setAgreedP2P()
    setAgreed(true)
  }
  return (
    <Dialog.Root
      open={open}
      role="alertdialog"
      placement="center"
      closeOnEscape={false}
      closeOnInteractOutside={false}
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" data-testid="p2p-agreement">
            <Dialog.Header>
              <Dialog.Title>{t('agreement.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Dialog.Description>{t('agreement.intro')}</Dialog.Description>
                <List.Root gap="2" ps="5" textStyle="sm">
                  {['one', 'two', 'three', 'four'].map((k) => (
                    <List.Item key={k}>{t(`agreement.points.${k}`)}</List.Item>
                  ))}
                </List.Root>
                <Text textStyle="sm" color="fg.muted">
                  {t('agreement.outro')}
                </Text>
                <Checkbox.Root checked={ticked} onCheckedChange={(d) => setTicked(d.checked === true)} data-testid="p2p-agreement-check">
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{t('agreement.checkbox')}</Checkbox.Label>
                </Checkbox.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button asChild variant="outline">
                <AppLink href="/">{t('agreement.leave')}</AppLink>
              </Button>
              <Button colorPalette="brand" disabled={!ticked} onClick={confirm} data-testid="p2p-agreement-confirm">
                {t('agreement.confirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
