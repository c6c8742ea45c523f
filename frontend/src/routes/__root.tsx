import { createRootRouteWithContext } from '@tanstack/react-router'
import { AppLayout } from '@/components/layout/app-layout'
import { NotFound } from '@/components/layout/not-found'
import { RouteError } from '@/components/layout/route-error'
import type { RouterContext } from '@/lib/auth-guard'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppLayout,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
})
