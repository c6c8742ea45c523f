import { useQueryClient } from '@tanstack/react-query'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { routeExists } from '@/components/layout/link-target'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { loginHref } from '@/lib/auth-guard'
import { notifyError } from '@/lib/notify'
import { isNetworkError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { identityKeys, type LevelList } from '../api/get-level-list'
import { identityState, targetLevel, type IdentityState } from '../lib/status'
import { identityTexts } from '../lib/texts'
import { startVerification, type VerifyLaunch } from '../lib/verify-flow'
import { LevelsCard } from './levels-card'
import { PageSkeleton } from './page-skeleton'
import { SimulatorNotice, StatusCard } from './status-card'
import { SumsubDialog } from './sumsub-dialog'
import { useLevelList } from './use-level-list'

/** Where the support page is, when the app has one. */
export const SUPPORT_PATH = '/profile/support'

/** How long the page keeps reading the status after it opened the provider's flow. */
export const WATCH_MS = 15 * 60 * 1000

/** Opens the simulator's page in a new tab (this one keeps reading the status); in this tab when tabs are blocked. */
function openSimulator(url: string): void {
  const tab = window.open(url, '_blank')
  if (tab) tab.opener = null
  else window.location.assign(url)
}

/**
 * /profile/identity: the user's identity verification (spec §2 profile
 * identity, §4 identity statuses, §7 sumsub calls): the status with what it
 * means for the daily withdrawal limit, a rejection's reasons with Retry
 * (or the way to support when it is final), the levels with their limits,
 * and Verify, which opens the provider's flow: Sumsub's WebSDK in a dialog,
 * or the simulator's page of `tenger serve --dev` in a new tab. While a
 * review runs the page reads the status every few seconds and says when it
 * changes.
 */
export function IdentityPage() {
  const { t, lan, ready } = identityTexts.useTexts()
  const { user: liveUser } = useUserInfo()
  const navigate = useNavigate()
  const router = useRouter()
  const queryClient = useQueryClient()

  // The session can end while the page is open: the visitor signs in again and comes back.
  useEffect(() => {
    if (liveUser === null) void navigate({ href: loginHref(router.state.location.href), replace: true })
  }, [liveUser, router, navigate])

  const [watchUntil, setWatchUntil] = useState(0)
  const [now, setNow] = useState(() => Date.now())
  const watching = watchUntil > now
  // The watch ends by itself: a clock that ticks only while it runs.
  useEffect(() => {
    if (!watchUntil) return
    const id = window.setTimeout(() => setNow(Date.now()), Math.max(0, watchUntil - Date.now()) + 50)
    return () => window.clearTimeout(id)
  }, [watchUntil])

  const query = useLevelList(t, { watching })
  const list = query.data
  const [starting, setStarting] = useState(false)
  const [sumsub, setSumsub] = useState<{ token: string; levelName: string }>()
  // The simulator's page opened, and the state it was opened in: its notice goes once the state moves on.
  const [simulator, setSimulator] = useState<{ url: string; state: IdentityState }>()
  const supportHref = routeExists(router, SUPPORT_PATH) ? SUPPORT_PATH : undefined

  const watch = () => {
    setNow(Date.now())
    setWatchUntil(Date.now() + WATCH_MS)
  }
  const refresh = () => void queryClient.invalidateQueries({ queryKey: identityKeys.all })

  const open = (launch: VerifyLaunch) => {
    switch (launch.kind) {
      case 'sumsub':
        setSumsub({ token: launch.token, levelName: launch.levelName })
        break
      case 'simulator':
        if (list) setSimulator({ url: launch.url, state: identityState(list) })
        openSimulator(launch.url)
        break
      case 'unsupported':
        notifyError(t('unavailable'))
        return
    }
    watch()
  }

  const verify = async (current: LevelList) => {
    const level = targetLevel(current)
    if (!level) return
    setStarting(true)
    try {
      const started = await startVerification(level.levelName, current)
      if (started.list) queryClient.setQueryData(identityKeys.levels, started.list)
      if (started.launch) open(started.launch)
    } catch (e) {
      // No answer: the shared "unreachable" toast says so.
      if (!isNetworkError(e)) notifyError(e instanceof Error ? e.message : String(e))
    } finally {
      setStarting(false)
    }
  }

  if (!ready) return <PageSkeleton testId="identity-loading" withHeading />
  return (
    <PageFrame title={t('title')} subtitle={t('subtitle')} testId="identity-page">
      {query.isPending && <PageSkeleton testId="identity-loading" />}

      {query.isError && !list && (
        <LoadError
          title={t('loadError')}
          retryLabel={t('retryLoad')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
          testId="identity-error"
        />
      )}

      {list && (
        <>
          <StatusCard
            list={list}
            t={t}
            onVerify={() => void verify(list)}
            starting={starting}
            supportHref={supportHref}
            notice={
              // Until the documents are sent, a way back to the simulator's tab.
              simulator && watching && simulator.state === identityState(list) ? (
                <SimulatorNotice url={simulator.url} t={t} />
              ) : undefined
            }
          />
          <LevelsCard list={list} t={t} />
        </>
      )}

      <SumsubDialog
        token={sumsub?.token}
        levelName={sumsub?.levelName ?? ''}
        lan={lan}
        t={t}
        onClose={() => {
          setSumsub(undefined)
          refresh()
        }}
        // Documents sent or a review's answer: the status change's own toast says which.
        onProgress={refresh}
      />
    </PageFrame>
  )
}
