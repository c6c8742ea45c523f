import { createFileRoute } from '@tanstack/react-router'
import { RegisterPage } from '@/features/auth/components/register-page'
import { redirectIfSignedIn } from '@/lib/auth-guard'

export const Route = createFileRoute('/auth/register')({
  beforeLoad: redirectIfSignedIn,
  component: RegisterPage,
})
