import { IconButton, Popover, Stack, Switch } from '@chakra-ui/react'
import { LuSettings2 } from 'react-icons/lu'

/** One switch of a {@link SettingsPopover}. */
export interface SettingSwitch {
  key: string
  label: string
  checked: boolean
  disabled?: boolean
  onChange: (on: boolean) => void
  testId: string
}

/**
 * The gear of an order form: a popover with a switch for each of the
 * form's preferences (which confirmations it asks for). Not portalled, so
 * it also works inside a sheet or dialog that holds the form; fixed, so the
 * form's panel does not clip it.
 */
export function SettingsPopover({
  label,
  description,
  items,
  triggerTestId,
  panelTestId,
  variant = 'outline',
  size = 'sm',
}: {
  /** The gear's accessible name and the popover's title. */
  label: string
  description?: string
  items: SettingSwitch[]
  triggerTestId: string
  panelTestId?: string
  variant?: 'outline' | 'ghost'
  size?: 'xs' | 'sm'
}) {
  return (
    <Popover.Root positioning={{ placement: 'bottom-end', strategy: 'fixed' }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>
        <IconButton type="button" variant={variant} size={size} aria-label={label} title={label} data-testid={triggerTestId}>
          <LuSettings2 aria-hidden="true" />
        </IconButton>
      </Popover.Trigger>
      <Popover.Positioner>
        <Popover.Content w="min(18rem, calc(100vw - 2rem))" data-testid={panelTestId}>
          <Popover.Body p="3">
            <Stack gap="2" fontSize="xs">
              <Popover.Title fontSize="sm" fontWeight="semibold">
                {label}
              </Popover.Title>
              {description && <Popover.Description color="fg.muted">{description}</Popover.Description>}
              {items.map((item) => (
                <Switch.Root
                  key={item.key}
                  size="sm"
                  checked={item.checked}
                  disabled={item.disabled}
                  onCheckedChange={(e) => item.onChange(e.checked)}
                  display="flex"
                  justifyContent="space-between"
                  alignItems="center"
                  gap="3"
                  data-testid={item.testId}
                >
                  <Switch.Label fontWeight="normal" fontSize="xs">
                    {item.label}
                  </Switch.Label>
                  <Switch.HiddenInput />
                  <Switch.Control flexShrink={0} />
                </Switch.Root>
              ))}
            </Stack>
          </Popover.Body>
        </Popover.Content>
      </Popover.Positioner>
    </Popover.Root>
  )
}
