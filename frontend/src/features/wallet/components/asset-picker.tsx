import { Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react'
import { useEffect, useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react'
import { LuChevronDown, LuSearch } from 'react-icons/lu'
import { formatAtLeast } from '@/lib/decimal'
import type { AssetEntry } from '../api/wallet-api'
import { CoinIcon } from './shared'
import { OWN_ESCAPE } from './wallet-dialog'

/** Filters assets by code or name (case-insensitive). */
export function filterAssets(assets: AssetEntry[], query: string): AssetEntry[] {
  const q = query.trim().toLowerCase()
  if (!q) return assets
  return assets.filter(
    (a) => a.value.toLowerCase().includes(q) || a.code.toLowerCase().includes(q) || a.label.toLowerCase().includes(q),
  )
}

/**
 * The modals' asset picker: the chosen coin as a button that opens a
 * searchable list (max height 15rem, spec §9).
 *
 * Keyboard: the search box is a combobox over the list. ArrowDown/ArrowUp
 * move the active option (aria-activedescendant), Home/End go to the first
 * and last, Enter chooses, Escape closes the list only (not the modal) and
 * returns to the button. The options are not Tab stops, so Tab leaves the
 * picker for the next field.
 */
export function AssetPicker({
  assets,
  value,
  onChange,
  label,
  searchLabel,
  emptyLabel,
}: {
  assets: AssetEntry[]
  value: string
  onChange: (asset: AssetEntry) => void
  label: string
  searchLabel: string
  emptyLabel: string
}) {
  const baseId = useId()
  const listId = `${baseId}-list`
  const optionId = (a: AssetEntry) => `${baseId}-opt-${a.value}`
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const trigger = useRef<HTMLButtonElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const current = assets.find((a) => a.value === value)
  const shown = useMemo(() => filterAssets(assets, query), [assets, query])
  const activeAsset = shown[Math.min(active, shown.length - 1)]

  // The active option stays in view while the arrows move it.
  useEffect(() => {
    if (!open || !activeAsset) return
    const el = Array.from(list.current?.children ?? []).find((c) => c.getAttribute('data-value') === activeAsset.value)
    el?.scrollIntoView?.({ block: 'nearest' })
  }, [open, activeAsset])

  const openList = () => {
    setQuery('')
    // Start on the chosen coin.
    setActive(Math.max(0, assets.findIndex((a) => a.value === value)))
    setOpen(true)
  }
  const close = (refocus: boolean) => {
    setOpen(false)
    setQuery('')
    if (refocus) trigger.current?.focus()
  }
  const choose = (a: AssetEntry) => {
    onChange(a)
    close(true)
  }

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault()
        setActive((i) => (last < 0 ? 0 : i >= last ? 0 : i + 1))
        break
      case 'ArrowUp':
        e.preventDefault()
        setActive((i) => (last < 0 ? 0 : i <= 0 ? last : i - 1))
        break
      case 'Home':
        e.preventDefault()
        setActive(0)
        break
      case 'End':
        e.preventDefault()
        setActive(Math.max(0, last))
        break
      case 'Enter':
        e.preventDefault()
        if (activeAsset) choose(activeAsset)
        break
      case 'Escape':
        // The modal lets this key through to the picker (OWN_ESCAPE).
        e.preventDefault()
        close(true)
        break
    }
  }

  const onTriggerKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !open) {
      e.preventDefault()
      openList()
    } else if (e.key === 'Escape' && open) {
      e.preventDefault()
      close(false)
    }
  }

  // Tabbing (or clicking) to another field closes the list.
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    const next = e.relatedTarget as Node | null
    if (open && next && !e.currentTarget.contains(next)) close(false)
  }

  return (
    <Stack gap="1.5" onBlur={onBlur} {...(open ? { [OWN_ESCAPE]: '' } : {})}>
      <Text fontSize="sm" fontWeight="medium">
        {label}
      </Text>
      <Button
        ref={trigger}
        variant="outline"
        justifyContent="space-between"
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={onTriggerKey}
        aria-expanded={open}
        aria-haspopup="listbox"
        aria-controls={open ? listId : undefined}
        aria-label={current ? `${label}: ${current.value}` : label}
        data-testid="asset-picker"
      >
        <HStack gap="2" minW="0">
          {current ? <CoinIcon coin={current.value} src={current.img} size="2xs" /> : null}
          <Text>{current ? current.value : '--'}</Text>
          {current && current.label !== current.value ? (
            <Text color="fg.muted" fontSize="sm" truncate>
              {current.label}
            </Text>
          ) : null}
        </HStack>
        <LuChevronDown aria-hidden="true" />
      </Button>
      {open ? (
        <Box borderWidth="1px" rounded="md" p="2" data-testid="asset-picker-list">
          <HStack px="2" gap="2">
            <LuSearch aria-hidden="true" />
            <Input
              size="sm"
              variant="flushed"
              role="combobox"
              aria-label={searchLabel}
              aria-expanded
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={activeAsset ? optionId(activeAsset) : undefined}
              placeholder={searchLabel}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value)
                setActive(0)
              }}
              onKeyDown={onSearchKey}
              autoFocus
              autoComplete="off"
              data-testid="asset-search"
            />
          </HStack>
          <Stack ref={list} id={listId} gap="0" mt="1" maxH="15rem" overflowY="auto" role="listbox" aria-label={label}>
            {shown.length === 0 ? (
              <Text p="2" color="fg.muted" fontSize="sm">
                {emptyLabel}
              </Text>
            ) : (
              shown.map((a) => {
                const isActive = a === activeAsset
                return (
                  <Button
                    key={a.value}
                    id={optionId(a)}
                    role="option"
                    tabIndex={-1}
                    aria-selected={a.value === value}
                    data-active={isActive || undefined}
                    data-value={a.value}
                    variant="ghost"
                    justifyContent="flex-start"
                    size="sm"
                    bg={isActive ? 'bg.emphasized' : undefined}
                    fontWeight={a.value === value ? 'semibold' : undefined}
                    onMouseMove={() => setActive(shown.indexOf(a))}
                    onClick={() => choose(a)}
                    data-testid={`asset-option-${a.value}`}
                  >
                    <CoinIcon coin={a.value} src={a.img} size="2xs" />
                    <Text>{a.value}</Text>
                    {/* Grouped and at the coin's places, as the balance rows below show it. */}
                    <Text color="fg.muted" ms="auto" fontVariantNumeric="tabular-nums">
                      {formatAtLeast(a.normal_balance, a.fix)}
                    </Text>
                  </Button>
                )
              })
            )}
          </Stack>
        </Box>
      ) : null}
    </Stack>
  )
}
