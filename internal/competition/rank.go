package competition

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// RefreshEvery is how often the Refresher works the rankings out.
const RefreshEvery = time.Minute

// errFenced: a ranking write met the final marker (another refresh
// finalized the competition meanwhile): nothing more is written.
var errFenced = errors.New("competition: the ranking is final")

// Refresh works out the ranking of every competition that is not
// settled: a running one's now; an ended one's for the last time (the
// final refresh, which fixes the winners), then pays its prizes (Settle).
// It is what the Refresher runs every minute and what a schedule calls in
// AWS; running it again, or in two processes at once, changes nothing
// more. The error joins those of the competitions it could not finish,
// which the next run takes up again.
func (s *Service) Refresh(ctx context.Context, now time.Time) error {
	list, err := s.open(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range list {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch c.State(now) {
		case StateRunning:
			if err := s.refresh(ctx, c, now); err != nil && !errors.Is(err, errFenced) {
				errs = append(errs, fmt.Errorf("competition %s: %w", c.ID, err))
			}
		case StateEnded:
			if _, err := s.settle(ctx, c, now); err != nil {
				errs = append(errs, fmt.Errorf("competition %s: %w", c.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}

// participantRow is a participant as a refresh reads it.
type participantRow struct {
	item store.Item
	Entry
	nick string
}

// standings reads every participant of c and works out their standings
// at now, ranked best first.
func (s *Service) standings(ctx context.Context, c Competition, now time.Time) ([]participantRow, error) {
	items, err := s.queryAll(ctx, store.Query{PK: participantPK(c.ID)})
	if err != nil {
		return nil, err
	}
	rows := make([]participantRow, len(items))
	errs := make([]error, len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(s.o.Concurrency, max(len(items), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rows[i], errs[i] = s.standing(ctx, c, items[i], now)
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	entries := make([]Entry, len(rows))
	byUID := make(map[string]participantRow, len(rows))
	for i, r := range rows {
		entries[i] = r.Entry
		byUID[r.UID] = r
	}
	Rank(entries)
	for i, e := range entries {
		rows[i] = byUID[e.UID]
	}
	return rows, nil
}

// standing is one participant's standing at now.
func (s *Service) standing(ctx context.Context, c Competition, it store.Item, now time.Time) (participantRow, error) {
	uid := it.Str("uid")
	initial, err := decimal.NewFromString(it.Str("initial"))
	if err != nil {
		return participantRow{}, fmt.Errorf("participant %s: initial: %w", uid, err)
	}
	joined := it.Int("joinedAt")
	equity, err := s.o.Futures.MarginBalance(ctx, uid, c.Coin)
	if err != nil {
		return participantRow{}, fmt.Errorf("participant %s: margin balance: %w", uid, err)
	}
	ts, err := s.o.Transfers.FuturesTransfers(ctx, uid, c.Coin, joined, now.UnixMilli())
	if err != nil {
		return participantRow{}, fmt.Errorf("participant %s: transfers: %w", uid, err)
	}
	st := Compute(initial, equity, Flows(ts), c.Start, c.End)
	return participantRow{item: it, Entry: Entry{UID: uid, JoinedAt: joined, Standing: st}, nick: it.Str("nick")}, nil
}

// winners are the prize ranks the standings fill: each held by a
// participant with an ROI (one with nothing at stake wins nothing).
func winners(c Competition, rows []participantRow) []Winner {
	out := []Winner{}
	for i, r := range rows {
		rank := int64(i + 1)
		if rank > c.MaxRank() {
			break
		}
		if p, ok := c.PrizeFor(rank); ok && r.Ranked {
			out = append(out, Winner{Rank: rank, UID: r.UID, Amount: p})
		}
	}
	return out
}

// refresh works out c's ranking at now and writes it (not after the
// final marker: errFenced).
func (s *Service) refresh(ctx context.Context, c Competition, now time.Time) error {
	rows, err := s.standings(ctx, c, now)
	if err != nil {
		return err
	}
	if err := s.write(ctx, c, rows, now, nil, store.ItemNotExists()); err != nil {
		return err
	}
	n := int64(len(rows))
	_, err = s.o.Store.Update(ctx, compKey(c.ID), store.NewUpdate().Set("refreshedAt", now.UnixMilli()).Set("ranked", n).
		Set("participants", n), store.And(store.ItemExists(), store.NotExists("finalAt")))
	if errors.Is(err, store.ErrConditionFailed) {
		return errFenced
	}
	return err
}

// finalize is the final refresh of an ended competition: the ranking at
// now, then the final marker with the winners (written once: a
// concurrent finalize that wrote it first wins, and this one writes
// nothing more), then the ranking again under the marker, which puts
// back whatever a concurrent refresh wrote before the marker.
func (s *Service) finalize(ctx context.Context, c Competition, now time.Time) error {
	rows, err := s.standings(ctx, c, now)
	if err != nil {
		return err
	}
	win := winners(c, rows)
	prizes := make(map[string]string, len(win))
	for _, w := range win {
		prizes[w.UID] = w.Amount.String()
	}
	if err := s.write(ctx, c, rows, now, prizes, store.ItemNotExists()); err != nil {
		if errors.Is(err, errFenced) {
			return nil // finalized by another
		}
		return err
	}
	b, err := json.Marshal(win)
	if err != nil {
		return err
	}
	n, at := int64(len(rows)), now.UnixMilli()
	fk := finalKey(c.ID)
	err = s.o.Store.Transact(ctx, []store.Op{
		store.PutOp(store.Item{store.AttrPK: fk.PK, store.AttrSK: fk.SK, "at": at, "ranked": n, "winners": string(b)}, store.ItemNotExists()),
		store.UpdateOp(compKey(c.ID), store.NewUpdate().Set("finalAt", at).Set("refreshedAt", at).Set("ranked", n).Set("participants", n),
			store.And(store.ItemExists(), store.NotExists("finalAt"), store.NotExists("settledAt"))),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return nil // finalized by another
	}
	if err != nil {
		return err
	}
	err = s.write(ctx, c, rows, now, prizes, store.Eq("at", at))
	if errors.Is(err, errFenced) {
		return nil
	}
	return err
}

// final reads c's final marker (ok false: none yet).
func (s *Service) final(ctx context.Context, id string) (at int64, win []Winner, ok bool, err error) {
	it, err := s.o.Store.Get(ctx, finalKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil, false, nil
	}
	if err != nil {
		return 0, nil, false, err
	}
	if err := json.Unmarshal([]byte(it.Str("winners")), &win); err != nil {
		return 0, nil, false, fmt.Errorf("final marker of %s: winners: %w", id, err)
	}
	return it.Int("at"), win, true, nil
}

// write brings the rank items and the participants' standings to rows
// (rank i+1 is rows[i]), writing only what differs from what is stored,
// each chunk of writes conditioned on the final marker (fence): none for
// a refresh, this finalize's own for the final ranking. prizes, for the
// final ranking, are the winners' prizes by user (every other
// participant's is cleared).
func (s *Service) write(ctx context.Context, c Competition, rows []participantRow, now time.Time, prizes map[string]string, fence store.Cond) error {
	stored, err := s.queryAll(ctx, store.Query{PK: rankPK(c.ID)})
	if err != nil {
		return err
	}
	old := make(map[string]store.Item, len(stored))
	for _, it := range stored {
		old[it.Str(store.AttrSK)] = it
	}
	at := now.UnixMilli()
	var ops []store.Op
	for i, r := range rows {
		rank := int64(i + 1)
		st := r.Standing
		want := map[string]any{"rank": rank, "equity": st.Equity.String(), "profit": st.Profit.String(), "roi": st.ROI.String(),
			"netIn": st.NetIn.String(), "weighted": st.Weighted.String(), "ranked": st.Ranked}
		if prizes != nil {
			want["prize"] = prizes[r.UID]
		}
		if changed(r.item, want) {
			upd := store.NewUpdate()
			for _, name := range []string{"rank", "equity", "profit", "roi", "netIn", "weighted", "ranked", "prize"} {
				if v, ok := want[name]; ok {
					upd.Set(name, v)
				}
			}
			upd.Set("at", at)
			ops = append(ops, store.UpdateOp(r.item.Key(), upd, store.ItemExists()))
		}
		sk := rankSK(rank)
		rk := store.Item{store.AttrPK: rankPK(c.ID), store.AttrSK: sk, "rank": rank, "uid": r.UID, "nick": r.nick,
			"equity": st.Equity.String(), "initial": st.Initial.String(), "profit": st.Profit.String(), "roi": st.ROI.String(),
			"ranked": st.Ranked}
		if changed(old[sk], rk) {
			rk["at"] = at
			ops = append(ops, store.PutOp(rk, nil))
		}
		delete(old, sk)
	}
	for _, it := range old { // ranks beyond the participants (none, unless items were removed)
		ops = append(ops, store.DeleteOp(it.Key(), nil))
	}
	const chunk = store.MaxTransactItems - 1
	for len(ops) > 0 {
		n := min(len(ops), chunk)
		batch := append([]store.Op{store.CheckOp(finalKey(c.ID), fence).Named("fence")}, ops[:n]...)
		err := s.o.Store.Transact(ctx, batch)
		if name, ok := store.FailedCondition(err, batch); ok && name == "fence" {
			return errFenced
		}
		if err != nil {
			return err
		}
		ops = ops[n:]
	}
	return nil
}

// changed reports whether the stored item lacks one of want's values.
func changed(it store.Item, want map[string]any) bool {
	if it == nil {
		return true
	}
	for name, v := range want {
		switch x := v.(type) {
		case string:
			if !it.Has(name) && x == "" {
				continue
			}
			if it.Str(name) != x || !it.Has(name) {
				return true
			}
		case bool:
			if _, ok := it[name].(bool); !ok || it.Bool(name) != x {
				return true
			}
		case int64:
			if !it.Has(name) || it.Int(name) != x {
				return true
			}
		default:
			if it[name] != v {
				return true
			}
		}
	}
	return false
}

// Refresher runs Refresh every RefreshEvery.
type Refresher struct {
	svc   *Service
	every time.Duration
	log   zerolog.Logger
}

// Refresher returns the service's refresher, every interval (0:
// RefreshEvery).
func (s *Service) Refresher(every time.Duration) *Refresher {
	if every <= 0 {
		every = RefreshEvery
	}
	return &Refresher{svc: s, every: every, log: s.o.Log}
}

// Run refreshes at once and then every interval until ctx ends; a
// refresh's error is logged and the next one tries again.
func (r *Refresher) Run(ctx context.Context) {
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		if err := r.svc.Refresh(ctx, r.svc.o.Now()); err != nil && ctx.Err() == nil {
			r.log.Warn().Err(err).Msg("competition: refresh not finished")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
