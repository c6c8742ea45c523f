'use client'

import type { IconButtonProps } from '@chakra-ui/react'
import { ClientOnly, IconButton, Skeleton } from '@chakra-ui/react'
import { ThemeProvider, useTheme } from 'next-themes'
import type { ThemeProviderProps } from 'next-themes'
import * as React from 'react'
import { LuMoon, LuSun } from 'react-icons/lu'
import { setColorMode as writeSkinCookie, type ColorMode } from '@/lib/cookies'

/** next-themes storage key; main.tsx seeds it from the cusSkin cookie before the first paint. */
export const THEME_STORAGE_KEY = 'tenger-theme'

export type ColorModeProviderProps = ThemeProviderProps

/** Chakra's color mode provider (next-themes, class strategy), light by default. */
export function ColorModeProvider(props: ColorModeProviderProps) {
  return (
    <ThemeProvider
      attribute="class"
      disableTransitionOnChange
      defaultTheme="light"
      enableSystem={false}
      storageKey={THEME_STORAGE_KEY}
      {...props}
    />
  )
}

/** Result of {@link useColorMode}. */
export interface UseColorModeReturn {
  colorMode: ColorMode
  setColorMode: (mode: ColorMode) => void
  toggleColorMode: () => void
}

/** Current color mode; changes are written to the cusSkin cookie (1 dark, 2 light) without a reload. */
export function useColorMode(): UseColorModeReturn {
  const { resolvedTheme, setTheme } = useTheme()
  const colorMode: ColorMode = resolvedTheme === 'dark' ? 'dark' : 'light'
  const setColorMode = React.useCallback(
    (mode: ColorMode) => {
      writeSkinCookie(mode)
      setTheme(mode)
    },
    [setTheme],
  )
  const toggleColorMode = React.useCallback(() => {
    setColorMode(colorMode === 'dark' ? 'light' : 'dark')
  }, [colorMode, setColorMode])
  return { colorMode, setColorMode, toggleColorMode }
}

/** Picks a value by the current color mode. */
export function useColorModeValue<T>(light: T, dark: T): T {
  const { colorMode } = useColorMode()
  return colorMode === 'dark' ? dark : light
}

/** Sun/moon icon of the current mode. */
export function ColorModeIcon() {
  const { colorMode } = useColorMode()
  return colorMode === 'dark' ? <LuMoon /> : <LuSun />
}

type ColorModeButtonProps = Omit<IconButtonProps, 'aria-label'> & { label?: string }

/** Icon button toggling the theme. */
export const ColorModeButton = React.forwardRef<HTMLButtonElement, ColorModeButtonProps>(
  function ColorModeButton({ label = 'Toggle color mode', ...props }, ref) {
    const { toggleColorMode } = useColorMode()
    return (
      <ClientOnly fallback={<Skeleton boxSize="8" />}>
        <IconButton
          onClick={toggleColorMode}
          variant="ghost"
          aria-label={label}
          size="sm"
          ref={ref}
          {...props}
          css={{ _icon: { width: '5', height: '5' } }}
        >
          <ColorModeIcon />
        </IconButton>
      </ClientOnly>
    )
  },
)
