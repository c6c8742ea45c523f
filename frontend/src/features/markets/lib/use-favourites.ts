import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTexts } from '@/lib/i18n'
import { notifyError } from '@/lib/notify'
import { pairSymbol } from '@/lib/pair-symbol'
import { ApiError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { getFavourites, getFavouritesOwner, setFavourites, setFavouritesOwner, toggleFavourite } from '@/lib/storage'
import { FAVOURITES_OP, updateFavourites } from '../api/favourites-api'
import { marketOverviewQuery, sessionTag, type MarketOverview } from '../api/get-market-overview'
import { favouritesToAdd, fromServerSymbols, withPending, type FavouriteToggle } from './favourites'

/** What {@link useFavourites} gives the market lists. */
export interface Favourites {
  /** Favourite route symbols ('BTC_USDT'), pending changes included. */
  favourites: string[]
  /** Stars or unstars a pair. */
  toggle: (symbol: string) => void
}

/**
 * The market favourites. A visitor's live in local storage only. A signed-in
 * user's live on the server: a star calls update_symbol at once (shown
 * before the answer, taken back with the server's message when refused) and
 * local storage caches the list the server answers.
 *
 * When a signed-in user's market list loads, the local list is merged once:
 * a visitor's stars the server lacks are added in one call (they survive
 * signing in), otherwise followCoinList is taken as it is. Local storage
 * then notes whose list it mirrors, so later loads take the server's list
 * (a star removed in another browser stays removed), and a market list
 * shown signed out drops that cached list: it was the account's, not the
 * visitor's.
 *
 * A star clicked before the user info has answered is shown at once and
 * waits: it goes to the server once the user turns out signed in, to local
 * storage once a visitor (or while the local list is still to be merged).
 */
export function useFavourites(overview: MarketOverview | undefined): Favourites {
  const { t } = useTexts('home')
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  // The user id when signed in, null for a visitor, undefined while unknown.
  const uid = user ? String(user.id) : user === null ? null : undefined
  const pairs = useMemo(() => overview?.groups.flatMap((g) => g.pairs) ?? [], [overview])

  // The list local storage holds (for a signed-in user, the server's last answer).
  const confirmed = useRef<string[] | null>(null)
  confirmed.current ??= getFavourites()
  const pending = useRef<FavouriteToggle[]>([])
  // Stars clicked while the user was unknown (also in pending, to be shown).
  const early = useRef<FavouriteToggle[]>([])
  // Calls to the server run one after another, so answers arrive in order.
  const queue = useRef<Promise<void>>(Promise.resolve())
  const inFlight = useRef(0)
  const mergeFailedFor = useRef<string | undefined>(undefined)
  const refetchedFor = useRef<MarketOverview | undefined>(undefined)
  const [favourites, setShown] = useState<string[]>(confirmed.current)

  const show = () => setShown(withPending(confirmed.current ?? [], pending.current))

  const enqueue = (call: () => Promise<void>) => {
    inFlight.current++
    queue.current = queue.current.then(call).finally(() => {
      inFlight.current--
    })
  }

  /** Takes a list the server answered for `owner`: shown, cached locally and in the overview. */
  const adopt = (serverList: string[], owner: string) => {
    confirmed.current = fromServerSymbols(serverList, pairs)
    setFavourites(confirmed.current)
    setFavouritesOwner(owner)
    show()
    queryClient.setQueryData(marketOverviewQuery.queryKey, (old) => (old ? { ...old, followCoinList: serverList } : old))
  }

  const fail = (error: unknown) => notifyError(error instanceof ApiError ? error.message : t('markets.favouriteFailed'))

  /** Saves a pending change on the server; the answer replaces the list, a refusal takes the change back. */
  const send = (change: FavouriteToggle, owner: string) =>
    enqueue(async () => {
      try {
        const serverList = await updateFavourites(change.add ? FAVOURITES_OP.add : FAVOURITES_OP.remove, [pairSymbol(change.symbol)])
        pending.current = pending.current.filter((c) => c !== change)
        adopt(serverList, owner)
      } catch (error) {
        pending.current = pending.current.filter((c) => c !== change)
        show()
        fail(error)
      }
    })

  // The user is known: the stars clicked before go where that user's stars go.
  // (Before the merge below, so that it waits for their answers.)
  useEffect(() => {
    if (uid === undefined || early.current.length === 0) return
    const changes = early.current
    early.current = []
    // A visitor's, or a list not merged into the account yet (the merge adds them).
    if (uid === null || getFavouritesOwner() === undefined) {
      pending.current = pending.current.filter((c) => !changes.includes(c))
      confirmed.current = withPending(confirmed.current ?? [], changes)
      setFavourites(confirmed.current)
      show()
      return
    }
    for (const change of changes) send(change, uid)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the signed-in state becomes known
  }, [uid])

  // Signed out: a cached account list is not the visitor's.
  useEffect(() => {
    if (uid !== null || getFavouritesOwner() === undefined) return
    setFavouritesOwner(undefined)
    confirmed.current = []
    setFavourites([])
    show()
    // Runs when the signed-in state changes.
  }, [uid])

  // Signed in: merge once after sign-in, then follow followCoinList.
  useEffect(() => {
    if (typeof uid !== 'string' || !overview?.followCoinList) return
    if (overview.session !== sessionTag()) {
      // Fetched before this sign-in: its followCoinList is a visitor's or another session's.
      if (refetchedFor.current !== overview) {
        refetchedFor.current = overview
        void queryClient.invalidateQueries({ queryKey: marketOverviewQuery.queryKey })
      }
      return
    }
    // A call on its way brings a newer list than this overview.
    if (inFlight.current > 0) return
    const serverList = overview.followCoinList
    if (getFavouritesOwner() !== undefined) {
      // The local list mirrors a server list (this user's, or another account's): take this one.
      adopt(serverList, uid)
      return
    }
    const add = favouritesToAdd(confirmed.current ?? [], serverList, pairs)
    if (add.length === 0) {
      adopt(serverList, uid)
      return
    }
    if (mergeFailedFor.current === uid) return
    enqueue(async () => {
      try {
        adopt(await updateFavourites(FAVOURITES_OP.addMany, add), uid)
      } catch (error) {
        // Keep the visitor's stars shown; the next market list shown tries again.
        mergeFailedFor.current = uid
        fail(error)
      }
    })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the user or the overview changes
  }, [uid, overview, pairs])

  const toggle = (symbol: string) => {
    if (uid === null) {
      confirmed.current = toggleFavourite(symbol)
      show()
      return
    }
    const change: FavouriteToggle = { symbol, add: !withPending(confirmed.current ?? [], pending.current).includes(symbol) }
    pending.current = [...pending.current, change]
    show()
    if (uid === undefined) early.current.push(change)
    else send(change, uid)
  }

  return { favourites, toggle }
}
